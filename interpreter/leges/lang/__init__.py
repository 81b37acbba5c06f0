"""The rule language, from text to Python callables: `syntax/` (grammar, parser, syntax tree, text
written back), `check/` (names, scopes, types), `codegen/` (the compiler, the built-ins, the run-time
helpers the generated code calls) and `optimise/` (memoisation and hoisting, off in the reference
build). It knows no game and no engine: engine/builder drives it."""
