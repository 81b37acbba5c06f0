"""Compiling checked syntax trees into Python callables: the compiler (split by concern into
compile_*), the built-in functions by family (builtins/), and the run-time helpers the generated code
calls (runtime, loops, call, functions, formatting, payments). Ruleset text is never evaluated: only
the compiler's own generated source is."""
