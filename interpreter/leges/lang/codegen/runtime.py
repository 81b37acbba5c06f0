"""Helpers that compiled rule expressions call at run time.

Generated code (see `compiler.py`) may only reach what is in its namespace: the state `st`,
the frame's locals `env`, the tables of one compiled game and these helpers.
"""
from __future__ import annotations

from operator import itemgetter

from ...text.errors import Diagnostic, Position, RuleError

MISSING = object()  # no value cached yet (memoised functions, lang/optimise/memo.py)

# Sizes no rule may build past (the safety promise: a stranger's ruleset cannot exhaust memory).
MAX_ITEMS = 1_000_000  # items of a list, counting those of the lists inside it
MAX_CHARS = 1_000_000  # characters of a string
MAX_INT = 2 ** 53 - 1  # the largest integer JSON readers (JavaScript among them) keep exactly


FREE_ITEMS = 64  # a built-in going through at most this many items is not charged: its work is bounded by the caller's

RULE_FAILED = Exception  # what generated code may catch of a rule that fails (its namespace has no builtins to name)


class RuleMisuse(Exception):
    """A rule did what cannot be done where it ran (`end turn` outside a turn, ...): reported at
    the rule, with this message and hint."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


class RuleStopped(RuleMisuse):
    """A program stopped by a bound of its own or by `fail`: reported at the statement in these
    words, not as a failure of Python's (engine/flow.py)."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message, hint)  # type: ignore[arg-type]


def loop_too_long(most: int):
    raise RuleStopped(f"while loop ran more than {most} times",
                      "check that the loop's condition becomes false; limits.max_loop raises the bound")


def repeat_too_long(n: int, most: int):
    raise RuleStopped(f"repeat {n} times is more than {most}", "limits.max_loop raises the bound")


def cannot_unpack(item, names: int):
    raise RuleStopped(f"rule failed: cannot unpack {item!r} into {names} names")


def rule_fails(value):
    """`fail VALUE`."""
    raise RuleStopped(f"rule failed: {value}")


class LimitExceeded(RuleMisuse):
    """A rule did more work, or built a larger value, than the limits allow."""


def work_exceeded(most: int) -> LimitExceeded:
    """The error of an action that went through more than limits.max_work items."""
    return LimitExceeded(f"rules went through more than {most} items for one action (limits.max_work)",
                         "loops over large lists, or nested too deep? limits.max_work raises the bound")


def each(st, items):
    """`items`, charged to the work budget of the action being run: every loop and comprehension
    goes through its items here, so nested loops over large lists stop at `limits.max_work`, and
    a game at its budget of work in all."""
    game = st.game
    game.work -= len(items)
    if game.work < 0:
        game.meter.refill()  # the next slice of the budget, or the error naming the limit (engine/budget.py)
    return items


def board_items(st, key, every: list):
    """The components of a type (`key`), or of a type and owner (`(type, owner)`), on the board's
    spaces, in id order, from the state's index (engine/board_index.py); charged as going through
    `every` one of them (compile_loops.py's board_items: the others fail the condition at no cost)."""
    each(st, every)
    return st.aboard.get(key, ())


def spaces_among(st, holding: list, order: dict) -> list:
    """`holding`, some of the board's spaces, charged as going through every space (compile_loops.py's
    space_prop_filter: the others fail the condition's first part at no cost)."""
    each(st, order)
    return holding


def spaces_with(st, name: str, holding: list, order: dict) -> list:
    """The board's spaces in `holding` and those a rule has set space property `name` on, in the
    board's order; charged as going through every space (compile_loops.py's space_prop_filter)."""
    each(st, order)
    sprops = st.sprops
    if not sprops:
        return holding
    dynamic = [s for s, d in sprops.items() if name in d and s in order]
    if not dynamic:
        return holding
    return sorted(set(holding).union(dynamic), key=order.__getitem__)


option_text = itemgetter(0)  # an option's text (no comprehension's frame: an `act` lists options at every decision)


def too_many_options(where: Position, what: str, most: int):
    """The error of a decision offering more than limits.max_options options, at the rule listing them."""
    raise RuleError(Diagnostic(where, f"{what} offers more than {most} options at one decision (limits.max_options)",
                               "a long list of options, or parameters whose options multiply (a require that rules "
                               "most out still has them all tried)? limits.max_options raises the bound"))


def charged(st, n: int) -> None:
    """n items of work a built-in does by itself (building a list, searching the board), charged
    when more than FREE_ITEMS."""
    if n > FREE_ITEMS:
        each(st, range(n))


def span(st, a, b):
    """range(a, b) as a list, refused past MAX_ITEMS items, charged by its items."""
    if b - a > MAX_ITEMS:
        raise LimitExceeded(f"range of {b - a} numbers is more than {MAX_ITEMS}", "the limit of a list's size (docs/language.md, Bounds)")
    if b - a > FREE_ITEMS:
        each(st, range(b - a))
    return list(range(a, b))


def span_items(st, a, b):
    """`each(st, span(st, a, b))` where a loop goes through the range: the same checks and charge,
    without the list (a loop over `range(n)` is what rules write to do a thing n times)."""
    n = b - a
    if n > FREE_ITEMS:
        return each(st, span(st, a, b))
    game = st.game
    game.work -= n if n > 0 else 0
    if game.work < 0:
        game.meter.refill()
    return range(a, b)


def concat(st, a, b):
    """Two lists (or strings) joined, refused past the size limits, charged by what is copied."""
    n = len(a) + len(b)
    if n > FREE_ITEMS:
        each(st, range(n))
        if n > (MAX_CHARS if a.__class__ is str else MAX_ITEMS):
            what = f"a string of more than {MAX_CHARS} characters" if a.__class__ is str else f"a list of more than {MAX_ITEMS} items"
            raise LimitExceeded(what, f"the limit of a {'string' if a.__class__ is str else 'list'}'s size (docs/language.md, Bounds)")
    if a.__class__ is b.__class__ and a.__class__ in (str, list):
        return a + b  # a new list: neither operand is shared with the result
    return list(a) + list(b)


def mul(a, b):
    return fit_int(a * b)


def fit_int(value):
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise LimitExceeded(f"a number larger than {MAX_INT}", "the limit of a number's size, 2^53 - 1 (docs/language.md, Bounds)")


def fit(st, value):
    """A value about to be kept (in a variable, a local or a property), checked against the size
    limits. A list is measured with the lists inside it, the measuring charged as work: a list
    holding itself twice, forty times over, is refused before anything walks its 2^40 items."""
    cls = value.__class__
    if cls is int:
        return fit_int(value)
    if cls is list or cls is dict:
        size = 0
        todo = [value]
        while todo:
            v = todo.pop()
            items = v.values() if v.__class__ is dict else v
            size += len(items)
            if size > MAX_ITEMS:
                raise LimitExceeded(f"a list of more than {MAX_ITEMS} items, counting those of the lists inside it",
                                    "the limit of a list's size (docs/language.md, Bounds)")
            todo.extend(x for x in items if x.__class__ is list or x.__class__ is dict)
        each(st, range(size))
    elif cls is str and len(value) > MAX_CHARS:
        raise LimitExceeded(f"a string of more than {MAX_CHARS} characters", "the limit of a string's size (docs/language.md, Bounds)")
    return value


def top(items):
    return items[-1] if items else None


def bottom(items):
    return items[0] if items else None


def top_n(st, items, n):
    charged(st, n)
    return list(reversed(items[-n:])) if n > 0 else []


def bottom_n(st, items, n):
    charged(st, n)
    return list(items[:max(0, n)])


def row_zone(st, name: str, player: int, i: int) -> str:
    """The zone `name(player, i)`: number i of the player's row."""
    row = st.setup.zrow[name]
    if not (0 <= player < st.n and 0 <= i < row):
        raise IndexError(f"{name}({player}, {i}): each player's row has {row} zones, numbered from 0")
    return st.setup.zkeys[name][player * row + i]


def index(items, i):
    return items[i] if -len(items) <= i < len(items) else None


def div(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def mod(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a % b


def first(items):
    return items[0] if items else None


def last(items):
    return items[-1] if items else None


def unique(st, items):
    try:
        return list(dict.fromkeys(items))
    except TypeError:  # lists of lists
        pass
    charged(st, _compared(items))  # the text of each list, to key it by
    seen, out = set(), []
    for x in items:
        key = repr(x) if isinstance(x, list) else x
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def maximum(items):
    return max(items) if items else None


def minimum(items):
    return min(items) if items else None


def arg_best(items, key, larger: bool):
    """The first item whose key is largest (or smallest); none for no items."""
    best, best_key = None, None
    for x in items:
        k = key(x)
        if best_key is None or (k > best_key if larger else k < best_key):
            best, best_key = x, k
    return best


def all_best(items, key, larger: bool):
    items = list(items)
    if not items:
        return []
    keys = [key(x) for x in items]
    top_key = max(keys) if larger else min(keys)
    return [x for x, k in zip(items, keys) if k == top_key]


def sort(st, items, key, descending):
    """The items sorted, charged by the comparisons (n log n; lists compared item by item)."""
    if len(items) > FREE_ITEMS:
        charged(st, _compared(items) * (len(items).bit_length() - 1))
    return sorted(items, key=key, reverse=bool(descending))


def _compared(items) -> int:
    """What comparing the items may go through: each, and the items of those that are lists."""
    return len(items) + sum(len(x) for x in items if x.__class__ is list)


def member(st, x, items) -> bool:
    """`x in items` for a list: charged by the items looked at, when many."""
    if len(items) > FREE_ITEMS:
        each(st, items)
    return x in items


def searched(st, degree: int, found: dict) -> dict:
    """What a search of the board found (distances), charged by the steps it looked at: the
    neighbours (`degree`, on average) of every space it reached."""
    if len(found) * degree > FREE_ITEMS:
        each(st, range(len(found) * degree))
    return found


def lines(st, board, n: int) -> list:
    """board.lines(n), charged by the spaces its lines hold, every time (the same work wherever the
    game is played, whatever the board remembers); refused before it is built past MAX_ITEMS."""
    bound = len(board.spaces) * 4 * max(0, min(n, len(board.spaces)))
    if bound > MAX_ITEMS:
        raise LimitExceeded(f"lines of {n} spaces on a board of {len(board.spaces)} may hold more than {MAX_ITEMS} spaces",
                            "the limit of a list's size (docs/language.md, Bounds)")
    found = board.lines(n)
    charged(st, len(found) * n)
    return found


def chars(st, text: str) -> str:
    """A text a built-in built, charged by its characters."""
    charged(st, len(text))
    return text


def space_of(st, c, spaces):
    z = st.where[c]
    return z if z in spaces else None


def cprop(st, c, name):
    d = st.cprops.get(c)
    if d is not None and name in d:
        return d[name]
    return st.setup.cstatic[c].get(name)


def sprop(st, s, name, static):
    d = st.sprops.get(s)
    if d is not None and name in d:
        return d[name]
    row = static.get(s)
    return None if row is None else row[name]


def dynamic_attr(st, value, name):
    """Attribute of a value whose kind was not known when the rule was compiled."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return cprop(st, value, name)
    return None


def as_set(value):
    if isinstance(value, str):
        return {value}
    return set(value)


def as_list(value):
    return value if isinstance(value, list) else [value]



def without(st, items, taken):
    """`items` less the first occurrence of each of `taken`: for long lists counted by value (not
    one scan of the list for each item taken out), or, for items that are lists, charged by the scans."""
    if len(items) * len(taken) > FREE_ITEMS:
        try:
            return _without_counted(items, taken)
        except TypeError:  # lists among them
            each(st, range(len(items) * len(taken)))
    out = list(items)
    for t in taken:
        try:
            out.remove(t)
        except ValueError:
            pass
    return out


def _without_counted(items, taken) -> list:
    left: dict = {}
    for t in taken:
        left[t] = left.get(t, 0) + 1
    out = []
    for x in items:
        n = left.get(x, 0)
        if n:
            left[x] = n - 1
        else:
            out.append(x)
    return out


def attempt(value):
    """`value()`, or MISSING if it cannot be computed (a key taken once for a comprehension whose
    items might never have computed it: see hoist.py)."""
    try:
        return value()
    except Exception:
        return MISSING


def prefetched(table: dict, key):
    """The value kept in a memo table under `key()`, or MISSING (none kept, or no key: see hoist.py)."""
    key = attempt(key)  # (a key that cannot be computed: the call will say why, if it is made)
    try:
        return MISSING if key is MISSING else table.get(key, MISSING)
    except TypeError:  # a key that does not hash: the call keys it its own way
        return MISSING


def player_table(n, keys, f):
    """A table by player: a list by seat, none for the players not among the keys."""
    out = [None] * n
    for k in keys:
        out[k] = f(k)
    return out


def frozen(st, value):
    """freeze(value), charged by the items of a long list (a memoised function's list argument)."""
    if value.__class__ is list and len(value) > FREE_ITEMS:
        each(st, value)
    return freeze(value)


def equal(st, a, b) -> bool:
    """`a == b` where a list may be compared: charged by the items of long lists alike in length."""
    if a.__class__ is list and b.__class__ is list and len(a) == len(b) > FREE_ITEMS:
        each(st, a)
    return a == b


def freeze(value):
    """A hashable stand-in for a list (or table) argument of a memoised function: its cache key."""
    if value.__class__ is list:
        key = tuple(value)
        try:
            hash(key)
            return key
        except TypeError:  # lists or tables inside
            return tuple(freeze(v) for v in value)
    if value.__class__ is dict:
        return ("{}",) + tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value
