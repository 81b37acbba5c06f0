"""Rule text written back from its syntax tree (unparse.py, shown by `leges diff`) parses to the same tree."""
from __future__ import annotations

import dataclasses

import pytest

import leges
from helpers import ROOT
from leges.lang.syntax.parser import parse_expression, parse_program
from leges.model import decl as d
from leges.model.sections import BY_NAME, RULE_SECTIONS
from leges.text.origin import TextOrigin
from leges.lang.syntax.unparse import expression, program

ORIGIN = TextOrigin("<test>", 1, 1)


def _texts(rs):
    for section in [*RULE_SECTIONS, "scoring"]:
        items = getattr(rs, section) if section != "scoring" else [rs.scoring] if rs.scoring else []
        programs = BY_NAME[section].programs if section in BY_NAME else frozenset()
        for item in items:
            for f in dataclasses.fields(item):
                value = getattr(item, f.name)
                stack = [value]
                while stack:
                    v = stack.pop()
                    if isinstance(v, d.Text):
                        yield f"{section} {item.id} {f.name}", v.text, f.name in programs
                    elif isinstance(v, (list, tuple)):
                        stack.extend(v)


@pytest.mark.parametrize("path", ["rulesets/pompeii", "rulesets/attika", "rulesets/alexander", "rulesets/tictactoe",
                                  "docs/examples/sample"])
def test_every_rule_written_back_parses_to_the_same_tree(path):
    count = 0
    for where, text, is_program in _texts(leges.load(str(ROOT / path)).ruleset):
        parse = parse_program if is_program else parse_expression
        tree = parse(text, ORIGIN)
        written = program(tree) if is_program else expression(tree)
        assert parse(written, ORIGIN) == tree, f"{where}:\n{text}\n->\n{written}"
        count += 1
    assert count > 0


@pytest.mark.parametrize("text", [
    "-(a + b) * c - -3", "not (a and b) or c", "(if a then b else c) + 1", "x in [1, 2] and y not in z",
    "f(a, k=b => b + 1)[0].p", "[x * 2 for x in xs if x > 1]", "a - (b - c)", "@l(1 + 2) * 3",
])
def test_expressions_keep_their_meaning(text):
    tree = parse_expression(text, ORIGIN)
    assert parse_expression(expression(tree), ORIGIN) == tree
