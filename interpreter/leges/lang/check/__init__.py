"""Names and types of the rule language: the symbols a ruleset declares, the scopes of a rule, and
the static types the compiler checks every expression against."""
