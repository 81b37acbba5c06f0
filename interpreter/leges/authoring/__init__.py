"""Tools for the people who write and check rulesets: scenarios and validation, coverage of the
rulebook and of the rules, mutation testing, information-leak checks, translation diffs and the
generated rulebook (docgen).

Sits above the engine and the lab (a diff plays games to compare two rulesets).
"""
