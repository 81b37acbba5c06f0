"""The rule language's syntax: the grammar (grammar.lark, read by Lark), the parser, the syntax
tree (ast) and its building (to_ast), located syntax errors, labels, and the tree written back as text
(unparse). Nothing here knows types or the engine."""
