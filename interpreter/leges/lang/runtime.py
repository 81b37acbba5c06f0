"""Helpers that compiled rule expressions call at run time.

Generated code (see `compiler.py`) may only reach what is in its namespace: the state `st`,
the frame's locals `env`, the tables of one compiled game and these helpers.
"""
from __future__ import annotations

MISSING = object()  # no value cached yet (memoised functions, lang/memo.py)

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


class LimitExceeded(RuleMisuse):
    """A rule did more work, or built a larger value, than the limits allow."""


def each(st, items):
    """`items`, charged to the work budget of the action being run: every loop and comprehension
    goes through its items here, so nested loops over large lists stop at `limits.max_work`, and
    a game at its budget of work in all."""
    game = st.game
    game.work -= len(items)
    if game.work < 0:
        game.meter.refill()  # the next slice of the budget, or the error naming the limit (engine/budget.py)
    return items


def span(a, b):
    """range(a, b) as a list, refused past MAX_ITEMS items."""
    if b - a > MAX_ITEMS:
        raise LimitExceeded(f"range of {b - a} numbers is more than {MAX_ITEMS}", "the limit of a list's size (docs/language.md, Bounds)")
    return list(range(a, b))


def concat(a, b):
    """Two lists (or strings) joined, refused past the size limits."""
    if a.__class__ is str:
        if len(a) + len(b) > MAX_CHARS:
            raise LimitExceeded(f"a string of more than {MAX_CHARS} characters", "the limit of a string's size (docs/language.md, Bounds)")
        return a + b
    if len(a) + len(b) > MAX_ITEMS:
        raise LimitExceeded(f"a list of more than {MAX_ITEMS} items", "the limit of a list's size (docs/language.md, Bounds)")
    if a.__class__ is list and b.__class__ is list:
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


def top_n(items, n):
    return list(reversed(items[-n:])) if n > 0 else []


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


def unique(items):
    try:
        return list(dict.fromkeys(items))
    except TypeError:  # lists of lists
        pass
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


def sort(items, key, descending):
    return sorted(items, key=key, reverse=bool(descending))


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



def without(items, taken):
    out = list(items)
    for t in taken:
        try:
            out.remove(t)
        except ValueError:
            pass
    return out


def _rate(substitute):
    """How many items of any kinds stand for one needed item of kind k (0: none do)."""
    if callable(substitute):
        return lambda k: (lambda n: n if n.__class__ is int and n > 0 else 0)(substitute(k))
    n = substitute if substitute.__class__ is int and substitute > 0 else 0
    return lambda k: n


MAX_PAYMENTS = 5000  # ways listed at most
MAX_PAYMENT_STATES = 200_000  # partial payments looked at, at most


def payments(pool, need, wildcard, substitute, wild=None, limit: int = MAX_PAYMENTS):
    """Distinct multisets of pool items that meet every need (see the built-in `payments`)."""
    kinds = sorted(set(pool), key=repr)
    have = tuple(pool.count(k) for k in kinds)
    need = list(need)
    rate = _rate(substitute)
    found: set = set()
    seen: set = set()

    def take_any(counts, n, start, chosen, rest):
        if n == 0:
            step(rest, counts, chosen)
            return
        for i in range(start, len(kinds)):
            if counts[i]:
                c = list(counts)
                c[i] -= 1
                take_any(tuple(c), n - 1, i, chosen + (i,), rest)

    def step(rest, counts, chosen):
        key = (rest, counts)
        if key in seen or len(found) >= limit or len(seen) >= MAX_PAYMENT_STATES:
            return
        seen.add(key)
        if rest == len(need):
            found.add(tuple(sorted(chosen)))
            return
        want = need[rest]
        for i, k in enumerate(kinds):
            if counts[i] and (k == want or want == wildcard or (wild is not None and k == wild)):
                c = list(counts)
                c[i] -= 1
                step(rest + 1, tuple(c), chosen + (i,))
        n = rate(want)
        if n:
            take_any(counts, n, 0, chosen, rest + 1)

    step(0, have, ())
    return sorted(([kinds[i] for i in combo] for combo in found), key=lambda p: (len(p), [repr(x) for x in p]))


_PAYABLE: dict = {}  # answers of payable() by value: (pool, wildcard, substitute, wild) → need → answer
_PAYABLE_POOLS = 1024  # pools kept before all are forgotten
_PAYABLE_NEEDS = 4096  # answers kept for one pool before its are forgotten


def payable(st, pool, need, wildcard, substitute, wild=None):
    """The built-in `payable`, its answers kept by value. Its lists are charged to the work budget
    only when long: on short ones it does a bounded amount of work for each time the rule asking
    is charged (a step, or a loop's item)."""
    if len(pool) + len(need) > FREE_ITEMS:
        each(st, pool), each(st, need)
    if callable(substitute):
        return _payable(pool, need, wildcard, substitute, wild)
    try:
        answers = _answers(tuple(pool), wildcard, substitute, wild)
        key = tuple(need)
        answer = answers.get(key)
    except TypeError:  # items that are lists: not worth a key
        return _payable(pool, need, wildcard, substitute, wild)
    if answer is None:
        answer = _remember(answers, key, _payable(pool, need, wildcard, substitute, wild))
    return answer


def _remember(answers: dict, key: tuple, answer: bool) -> bool:
    if len(answers) >= _PAYABLE_NEEDS:
        answers.clear()
    answers[key] = answer
    return answer


def _answers(pool: tuple, wildcard, substitute, wild) -> dict:
    """The answers kept for a pool: a filter asks the same of many sites, and a listing of every
    building's sites asks it of one hand."""
    key = (pool, wildcard, substitute, wild)
    answers = _PAYABLE.get(key)
    if answers is None:
        if len(_PAYABLE) >= _PAYABLE_POOLS:
            _PAYABLE.clear()
        answers = _PAYABLE[key] = {}
    return answers


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


def payable_from(pool, wildcard, substitute, wild=None):
    """`payable` from one pool, for a comprehension whose items all ask it of that pool (hoist.py):
    a check of a needed list, looking up the pool's answers once. Charged as `payable` is, on
    every call."""
    size = len(pool)
    try:
        answers = _answers(tuple(pool), wildcard, substitute, wild)
    except TypeError:  # items that are lists
        answers = None

    def check(st, need) -> bool:
        if size + len(need) > FREE_ITEMS:
            each(st, pool), each(st, need)
        if answers is None:
            return _payable(pool, need, wildcard, substitute, wild)
        try:
            key = tuple(need)
            answer = answers.get(key)
        except TypeError:
            return _payable(pool, need, wildcard, substitute, wild)
        if answer is None:
            answer = _remember(answers, key, _payable(pool, need, wildcard, substitute, wild))
        return answer
    return check


def _payable(pool, need, wildcard, substitute, wild=None):
    """Whether `payments` would find a way, without listing them: each need met by an equal item
    costs one item and is never worse than another way; a wildcard need costs one item of any kind;
    a need left over costs a wild item, or `rate` items of any kinds (wild items go to the dearest);
    then it is a matter of how many items the pool holds. (A filter over every site of every
    building asks this: one rate for all kinds is answered without sorting what is left over.)"""
    have: dict = {}
    wilds = 0
    for x in pool:
        if x == wild and wild is not None:
            wilds += 1
        else:
            have[x] = have.get(x, 0) + 1
    used = 0
    left = []
    for want in need:
        if want == wildcard:
            used += 1
            continue
        n = have.get(want, 0)
        if n:
            have[want] = n - 1
            used += 1
        else:
            left.append(want)
    if not left:
        return used <= len(pool)
    served = min(wilds, len(left))
    if not callable(substitute):
        rate = substitute if substitute.__class__ is int and substitute > 0 else 0
        if not rate and served < len(left):
            return False
        return used + served + rate * (len(left) - served) <= len(pool)
    rates = [_rate(substitute)(k) for k in left]
    rates.sort(key=lambda n: (n == 0, n), reverse=True)  # those no items stand for first, then the dearest
    used += served
    for n in rates[served:]:
        if not n:
            return False
        used += n
    return used <= len(pool)


def player_table(n, keys, f):
    """A table by player: a list by seat, none for the players not among the keys."""
    out = [None] * n
    for k in keys:
        out[k] = f(k)
    return out


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
