"""The built-ins `payments` and `payable`: the ways to meet needs from a pool of items, and whether there is one.

A way is a multiset of pool items that splits into one item for each need met in kind (an equal
item; any item for a `wildcard` need; a `wild` item for any need) and, for each other need,
`substitute` items of any kinds. Whether a multiset is a way depends on two things only: its size
(the needs met in kind, plus the substitutes' items) and whether the needs met in kind can each
have an item of their own — the needs of kind k beyond the k items taken fall to wild items, as do
needs no pool kind meets, and wildcard needs take what is left (Hall's condition, for a pool this
simple). So instead of trying every item for every need (exponential: 13.5 s for 26 items), the
ways are listed as counts of each kind taken, for each plan of how many needs of each kind are
substituted, and a branch is entered only if it leads to a way (`_ways`). What they try and what
they list is charged to the work budget: a pool with more ways than the budget allows (the
C(40, 20) of payments(range(40), [100], substitute=20)) stops at limits.max_work, located.
"""
from __future__ import annotations

from typing import Any

from .runtime import FREE_ITEMS, concat, each, work_exceeded

ANY = -1  # a need any item meets (its kind is the wildcard)
WILD = -2  # a need only wild items meet (no pool kind is its kind, or its kind is the wild one)


def _rate(substitute):
    """How many items of any kinds stand for one needed item of kind k (0: none do)."""
    if callable(substitute):
        return lambda k: (lambda n: n if n.__class__ is int and n > 0 else 0)(substitute(k))
    n = substitute if substitute.__class__ is int and substitute > 0 else 0
    return lambda k: n


def payments(st, pool, need, wildcard, substitute, wild=None) -> list:
    """Distinct multisets of pool items that meet every need (see the built-in `payments`), each
    sorted (kinds in the order of their texts), the shortest first, then in the order of their items' texts."""
    have: dict = {}
    for x in pool:
        have[x] = have.get(x, 0) + 1
    kinds = sorted(have, key=repr)
    counts = [have[k] for k in kinds]
    where = {k: i for i, k in enumerate(kinds)}
    w = where.get(wild) if wild is not None else None
    classes = _classes(need, wildcard, where, w, _rate(substitute))
    found: set = set()
    for total, wild_only, demand in _plans(st, classes, len(pool)):
        if not demand and not wild_only:
            _countable(st, counts, total)
        _ways(st, counts, w, total, wild_only, demand, found)
    ways = sorted(found)  # kinds are in the order of their texts: by index is by text
    ways.sort(key=len)
    each(st, range(len(ways) + sum(map(len, ways))))
    return [[kinds[i] for i in way] for way in ways]


def _classes(need, wildcard, where: dict, w, rate) -> list:
    """The needs as [kind met by (a pool kind's index, ANY or WILD), how many, rate] — equal needs together."""
    out: dict = {}
    for i, want in enumerate(need):
        try:
            key: tuple = (want,)
            got = out.get(key)
        except TypeError:  # a list: a class of its own
            key, got = (i, "list"), None
        if got is not None:
            got[1] += 1
            continue
        if want == wildcard:
            target = ANY
        else:
            try:
                target = where.get(want, WILD)
            except TypeError:
                target = WILD
            if target == w:
                target = WILD
        out[key] = [target, 1, rate(want)]
    return list(out.values())


def _plans(st, classes: list, size: int) -> list:
    """Each distinct (items taken, needs only wild items meet, needs met in kind of each pool kind)
    of a choice of how many needs of each class are substituted, within the pool's size. A rate of
    1 is always taken (as many items, fewer needs in kind); each need costs at least one item."""
    plans: set[tuple[int, int, tuple]] = {(0, 0, ())}
    left = sum(c[1] for c in classes)
    for target, n, rate in classes:
        left -= n
        each(st, range(len(plans) * (n + 1)))
        grown: set[tuple[int, int, tuple]] = set()
        for total, wild_only, demand in plans:
            for s in ([n] if rate == 1 else range(n + 1) if rate else [0]):
                t = total + (n - s) + s * rate
                if t + left > size:
                    break
                if target == WILD:
                    grown.add((t, wild_only + n - s, demand))
                elif target == ANY or s == n:
                    grown.add((t, wild_only, demand))
                else:
                    grown.add((t, wild_only, demand + ((target, n - s),)))
        plans = grown
    return [(t, wild_only, _summed(demand)) for t, wild_only, demand in plans]


def _summed(demand: tuple) -> dict:
    out: dict = {}
    for kind, n in demand:
        out[kind] = out.get(kind, 0) + n
    return out


def _countable(st, counts: list, total: int) -> None:
    """Refuse at once `total` items of any kinds when their ways are more than limits.max_work could
    ever list (every 20 of 40 items: 137,846,528,820): counted kind by kind, not listed."""
    each(st, range(len(counts) * (total + 1)))
    ways = [1] + [0] * total  # ways[t]: of taking t items from the kinds so far
    for c in counts:
        sums = [0]
        for n in ways:
            sums.append(sums[-1] + n)
        ways = [sums[t + 1] - sums[max(0, t - c)] for t in range(total + 1)]
    if ways[total] * (total + 1) > st.game.max_work:
        raise work_exceeded(st.game.max_work)


def _first(part: tuple):
    return part[0]


def _ways(st, counts: list, w, total: int, wild_only: int, demand: dict, found: set) -> None:
    """Add to `found` every way (the kinds of its items, in order) of taking `total` items, at
    most counts[k] of kind k, whose wild items (kind w) cover `wild_only` needs and every need of a
    kind k beyond the items of k taken. A branch is entered only if some way lies beyond it: with
    t items left to take from kinds i.., and b wild items spare, there is one if t is at most what
    those kinds hold and the needs they cannot cover, taking first the items they need, fit in b.
    Each branch, and each way, is charged to the work budget as it is entered."""
    if w is None and wild_only:
        return
    order = [k for k in range(len(counts)) if k != w]
    n = len(order)
    each(st, range(n))
    need = [demand.get(k, 0) for k in order]
    held, needed, coverable = [0] * (n + 1), [0] * (n + 1), [0] * (n + 1)  # over kinds i..
    for i in range(n - 1, -1, -1):
        c, d = counts[order[i]], need[i]
        held[i], needed[i], coverable[i] = held[i + 1] + c, needed[i + 1] + d, coverable[i + 1] + (d if d < c else c)
    todo: list[tuple[int, int, int, Any]] = []  # (kind position, items left to take, wild items spare, (kind, count, what was taken before) or None)
    for x in range(wild_only, min(counts[w], total) + 1) if w is not None else [0]:
        t, b = total - x, x - wild_only
        if t <= held[0] and needed[0] - min(t, coverable[0]) <= b:
            todo.append((0, t, b, (w, x, None) if x else None))
    pop, push = todo.pop, todo.append
    while todo:
        i, t, b, taken = pop()
        if not t:
            parts = []
            while taken is not None:
                parts.append(taken)
                taken = taken[2]
            if w is None:
                parts.reverse()
            else:
                parts.sort(key=_first)
            way: list = []
            for k, x, _ in parts:
                way += [k] * x
            found.add(tuple(way))
            each(st, range(total + len(parts) + 1))
            continue
        k, c, d = order[i], counts[order[i]], need[i]
        i += 1
        h, nd, cv = held[i], needed[i], coverable[i]
        top = c if c < t else t
        low = t - h if t > h else 0
        each(st, range(top - low + 2))
        for x in range(low, top + 1):
            t2 = t - x
            b2 = b - d + x if x < d else b
            if nd - (t2 if t2 < cv else cv) <= b2:
                push((i, t2, b2, (k, x, taken) if x else taken))


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

    def joined(st, first, then) -> bool:
        """`check(st, first + then)` (a cost and what is added to it) without joining the lists:
        the same answer, charge and limits — lists past the free size are joined as `+` joins them."""
        n = len(first) + len(then)
        if n > FREE_ITEMS or first.__class__ is not list or then.__class__ is not list or answers is None:
            return check(st, concat(st, first, then))
        if size + n > FREE_ITEMS:
            each(st, pool), each(st, range(n))
        try:
            key = (*first, *then) if then else tuple(first)
            answer = answers.get(key)
        except TypeError:
            return _payable(pool, first + then, wildcard, substitute, wild)
        if answer is None:
            answer = _remember(answers, key, _payable(pool, first + then, wildcard, substitute, wild))
        return answer
    check.joined = joined  # type: ignore[attr-defined]
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
