"""Variants: typed, composable patches over a ruleset, kept in its `variants/` folder.

A variant adds, replaces, changes or removes items of a ruleset by id, and may declare typed
parameters (constants of the patched ruleset). A `set` may address one key of an item, a key
inside it (`params.victim`, `tiebreak.0`), or one labelled statement or expression of a rule
text (`label: contest_price`, for `@contest_price(...)` in the text): the text is rewritten
where the label stands, so a labelled rule compiles as if it had been written that way, and the
rest of the rule keeps following the base ruleset.

Variants switched on together are applied in one order whatever the order of the request:
a variant after those it `requires` or `overrides`, otherwise by id. Two of them touching the
same item and key (or declaring the same parameter) is an error unless one names the other in
`requires`, `conflicts` or `overrides`.

The patched ruleset is checked like any other; every value a variant brought keeps its own file
position (a rule text rewritten at a label maps each of its characters back to the file it came
from), so errors point into the patch.
"""
