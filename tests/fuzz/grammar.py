"""Rule-language texts drawn from the language's own grammar (interpreter/leges/lang/syntax/grammar.lark).

Hypothesis makes every choice, so a case can be replayed from its seed. The grammar's rules are
expanded at random up to a depth, preferring short expansions as the depth grows; names are
drawn from those the ruleset declares (so that many texts get past name resolution to the type
checker, the compiler and the interpreter), numbers and strings from values that stress them
(zero, huge, negative, empty, quotes). Layout tokens become real lines and indentation, so a
drawn program is laid out the way an author would write it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import lark
from hypothesis import strategies as st

GRAMMAR = Path(__file__).resolve().parents[2] / "interpreter" / "leges" / "lang" / "syntax" / "grammar.lark"
MAX_DEPTH = 7

# regular-expression terminals: what to write for them
NUMBERS = ["0", "1", "2", "3", "7", "10", "100", "65536", "999999999999", "1" + "0" * 40, "9007199254740991",
           "9007199254740992", "9" * 4001, "9" * 5001]  # 10^40 and the last three: refused where written (too long, past 2^53 - 1)
STRINGS = ['"x"', "''", '"red"', "'a b'", '"' + "s" * 300 + '"', '"\\n"']
OPERATORS = {"ASSIGN_OP": ["=", "+=", "-="], "COMP_OP": ["==", "!=", "<=", ">=", "<", ">"],
             "ADD_OP": ["+", "-"], "MUL_OP": ["*", "/", "%"]}
BUILTIN_NAMES = ["me", "players", "spaces", "count", "top", "any", "all", "range", "sum", "max", "min", "len",
                 "first", "text", "sort", "map", "filter", "lines", "neighbours", "current", "phase", "num_players",
                 "components", "areas", "maxima", "it", "p", "x", "s", "c", "i", "none_such"]


@lru_cache(maxsize=None)
def _rules() -> dict[str, list[list[tuple[bool, str]]]]:
    """nonterminal → its expansions, each a list of (is_terminal, name)."""
    parser = lark.Lark(GRAMMAR.read_text(encoding="utf-8"), start=["expression", "program"], parser="lalr")
    rules: dict[str, list[list[tuple[bool, str]]]] = {}
    for rule in parser.rules:
        rules.setdefault(rule.origin.name, []).append(
            [(isinstance(sym, lark.grammar.Terminal), sym.name) for sym in rule.expansion])
    return rules


@lru_cache(maxsize=None)
def _terminals() -> dict[str, tuple[str, str]]:
    """terminal → (kind, pattern): "str" terminals are written as they are, "re" ones drawn from their pattern."""
    parser = lark.Lark(GRAMMAR.read_text(encoding="utf-8"), start=["expression", "program"], parser="lalr")
    return {t.name: (t.pattern.type, t.pattern.value) for t in parser.terminals}


@lru_cache(maxsize=None)
def _min_depth() -> dict[str, int]:
    """How deep each nonterminal must at least go to end in terminals (to pick finishing expansions)."""
    rules = _rules()
    depth = {name: 10**6 for name in rules}
    changed = True
    while changed:
        changed = False
        for name, expansions in rules.items():
            for expansion in expansions:
                d = 1 + max((depth[sym] for term, sym in expansion if not term), default=0)
                if d < depth[name]:
                    depth[name], changed = d, True
    return depth


def _expansion_depth(expansion: list[tuple[bool, str]]) -> int:
    mins = _min_depth()
    return max((mins[sym] for term, sym in expansion if not term), default=0)


@st.composite
def rule_text(draw, start: str = "expression", names: tuple[str, ...] = ()) -> str:
    """A text of the rule language: `start` is "expression" or "program"."""
    pool = list(names) + BUILTIN_NAMES
    tokens: list[str] = []
    budget = [400]  # tokens at most: a text stays a text, not a novel

    def expand(symbol: str, depth: int) -> None:
        expansions = _rules()[symbol]
        room = MAX_DEPTH - depth
        fitting = [e for e in expansions if _expansion_depth(e) <= max(room, 0)] or \
            [min(expansions, key=_expansion_depth)]
        if budget[0] <= 0:
            fitting = [min(fitting, key=_expansion_depth)]
        expansion = fitting[draw(st.integers(0, len(fitting) - 1))]
        for is_terminal, name in expansion:
            if is_terminal:
                tokens.append(_terminal(draw, name, pool))
                budget[0] -= 1
            else:
                expand(name, depth + 1)

    expand(start, 0)
    return _layout(tokens)


def _terminal(draw, name: str, pool: list[str]) -> str:
    if name == "NAME":
        return draw(st.sampled_from(pool))
    if name == "INT":
        return draw(st.sampled_from(NUMBERS))
    if name == "STRING":
        return draw(st.sampled_from(STRINGS))
    if name in OPERATORS:
        return draw(st.sampled_from(OPERATORS[name]))
    if name in ("_NL", "_INDENT", "_DEDENT"):
        return name
    kind, pattern = _terminals().get(name, ("str", name))
    if kind == "str":
        return pattern
    # a terminal added to the grammar since (a label, say): drawn from its own pattern, on one line
    return draw(st.from_regex(pattern, fullmatch=True).filter(lambda t: "\n" not in t and t.strip()))


def _layout(tokens: list[str]) -> str:
    """Tokens joined by spaces; _NL, _INDENT and _DEDENT become line ends and indentation."""
    out: list[str] = []
    level = 0
    line_start = True
    for token in tokens:
        if token == "_NL":
            out.append("\n")
            line_start = True
        elif token == "_INDENT":
            level += 1
        elif token == "_DEDENT":
            level = max(0, level - 1)
        else:
            if line_start:
                out.append("  " * level)
                line_start = False
            else:
                out.append(" ")
            out.append(token)
    text = "".join(out)
    return text if text.endswith("\n") or "\n" not in text else text + "\n"
