"""The mutants of a ruleset: each rule changed in one place, on its parsed text (operators.py makes
the changes; this module finds the texts, keeps one of every meaning, and reads the ruleset's
list of equivalent mutants). `leges mutate` (mutate.py) runs the tests against them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..text.offsets import line_col


FLIP = {"==": "!=", "!=": "==", "<": "<=", "<=": "<", ">": ">=", ">=": ">"}
COUNTED = {"draw_stmt": 0, "deal_stmt": 0, "shuffle_range": 0, "at_depth": 0, "repeat_stmt": 0}  # which of its expressions


@dataclass
class Mutant:
    index: int
    rule: str  # KIND:ID
    key: str  # the text changed: effect, require, params.NAME, body, ...
    file: str  # the YAML file, relative to the ruleset's folder
    path: tuple  # where the text is in that file
    where: str  # file:line:col of the change
    operator: str  # comparison, constant, statement, and_or, boolean, count
    before: str
    after: str
    text: object = field(repr=False, default="")  # the whole mutated text of the rule (a constant's new value)
    line: str = ""  # the line of the rule's text where the change is, as written (stripped)
    column: int = 0  # where on that line the change begins


    def describe(self) -> str:
        return f"{self.where}  {self.rule} {self.key}  {self.operator}: {self.before!r} → {self.after!r}"




# ------------------------------------------------------------------ finding mutants
@lru_cache(maxsize=1)
def _parser():
    from lark import Lark
    from ..lang.syntax.grammar import RuleIndenter, grammar_text
    return Lark(grammar_text(), parser="lalr", postlex=RuleIndenter(), start=["program", "expression"],
                propagate_positions=True, maybe_placeholders=False, keep_all_tokens=True)


def _flat(text: str) -> str:
    """An expression as the parser reads it: comments blanked, line breaks as spaces, every character in place."""
    from ..lang.syntax.grammar import without_comments
    return without_comments(text).replace("\r", " ").replace("\n", " ")


def _edits(text: str, program: bool, typing=None, key: tuple | None = None,
           last_resort: bool = False) -> list[tuple[str, int, int, str]]:
    """The single changes of a rule text: (operator, start, end, replacement), on the parsed text: this
    module's token changes, then operators.py's (those needing types have them from `typing`, for the
    text at `key`); with `last_resort`, only the change of the whole text into another value."""
    from lark import Token, Tree
    from . import operators
    source = text if not program or text.endswith("\n") else text + "\n"
    parsed = source if program else _flat(text.rstrip())
    tree = _parser().parse(parsed, start="program" if program else "expression")
    edits: list[tuple[str, int, int, str]] = []
    counts: set[int] = set()  # the number tokens that are a statement's count or depth

    def tokens(node):
        return [c for c in node.children if isinstance(c, Token)]

    def span(node) -> tuple[int, int] | None:
        if isinstance(node, Token):
            return (node.start_pos, node.end_pos) if node.start_pos is not None and node.end_pos is not None else None
        meta = node.meta
        if getattr(meta, "empty", True):
            return None
        start, end = meta.start_pos, meta.end_pos
        return start, start + len(source[start:end].rstrip())

    if last_resort:
        return operators.value_edit(tree, source, text, program, typing, key, span)
    for node in tree.iter_subtrees_topdown():
        data = node.data
        for tok in tokens(node):
            if tok.type == "COMP_OP":
                edits.append(("comparison", tok.start_pos, tok.end_pos, FLIP[str(tok)]))
            elif tok.type == "INT":
                label = "count" if id(tok) in counts else "constant"
                value = int(tok)
                edits.append((label, tok.start_pos, tok.end_pos, str(value + 1)))
                if value > 0:
                    edits.append((label, tok.start_pos, tok.end_pos, str(value - 1)))
        if data in ("and_", "or_"):
            word = next(t for t in tokens(node) if str(t) in ("and", "or"))
            edits.append(("and_or", word.start_pos, word.end_pos, "or" if str(word) == "and" else "and"))
        elif data == "in_":
            word = next(t for t in tokens(node) if str(t) == "in")
            edits.append(("comparison", word.start_pos, word.end_pos, "not in"))
        elif data == "not_in":
            words = [t for t in tokens(node) if str(t) in ("not", "in")]
            edits.append(("comparison", words[0].start_pos, words[-1].end_pos, "in"))
        elif data in ("true", "false"):
            tok = tokens(node)[0]
            edits.append(("boolean", tok.start_pos, tok.end_pos, "false" if data == "true" else "true"))
        if data in COUNTED:
            exprs = [c for c in node.children if isinstance(c, Tree) and c.data not in ("end_of", "position", "at_end", "at_depth")]
            counted = exprs[COUNTED[data]] if len(exprs) > COUNTED[data] else None
            where = span(counted) if counted is not None else None
            if isinstance(counted, Tree) and counted.data == "int_":
                counts.update(id(t) for t in tokens(counted))
            elif where is not None:
                start, end = where
                edits.append(("count", start, end, f"({source[start:end]}) + 1"))
        if program and (data.endswith("_stmt") or data in ("shuffle_all", "shuffle_range")) and data != "pass_stmt":
            where = span(node)
            if where is not None:
                edits.append(("statement", where[0], where[1], "pass"))
    return edits + operators.edits(tree, source, text, program, typing, key, span)


def _apply(text: str, program: bool, start: int, end: int, replacement: str) -> str:
    source = text if not program or text.endswith("\n") else text + "\n"
    changed = source[:start] + replacement + source[end:]
    if program and not text.endswith("\n") and changed.endswith("\n"):
        changed = changed[:-1]
    return changed


# operators whose mutants the checker may well reject (a sibling's or a name's type guessed): a rule with only
# these gets the last resort too
GUESSES = ("function", "argument")
PROGRAM_KEYS = ("effect", "body", "turn", "on_begin", "on_end")


def _meaning(text: str, program: bool) -> str | None:
    """A rule text as its syntax tree says it (lang/syntax/unparse.py): two edits that say the same are one mutant."""
    from ..lang.syntax.parser import parse_expression, parse_program
    from ..lang.syntax.unparse import expression, program as unparse_program
    from ..text.yaml_source import TextOrigin
    at = TextOrigin("<mutant>", 1, 1)
    try:
        return unparse_program(parse_program(text, at)) if program else expression(parse_expression(text, at))
    except Exception:  # a mutant the parser rejects is still one (stillborn when run)
        return None


def find_mutants(folder: str, shown: str | None = None, missing: list | None = None) -> list[Mutant]:
    """Every single-change mutant of the rules of the ruleset at `folder` (variants are not mutated); their
    places are given under `shown` (default: `folder`). Every rule with a text gets one at least: when no
    operator changes it, the last resort (operators.value_edit) does; a rule still without one is added
    to `missing` as (KIND:ID, why)."""
    from ..model.loader import load_declarations
    from .operators import Typing
    from .rule_coverage import rule_texts
    rs, _, _ = load_declarations(folder)
    typing = Typing.of(folder)
    root = Path(rs.root).resolve()
    base = {doc.file for doc in rs.docs}
    shown = (shown or folder).rstrip("/")
    found: list[Mutant] = []
    for kind, decl, texts in rule_texts(rs):
        if kind == "procedure" and decl.body is None:
            continue
        before = len(found)
        why = ""
        for last_resort in (False, True):
            for key, text in texts:
                if text.at.file not in base or not text.text.strip():
                    why = why or "its texts come from elsewhere (a variant), or are empty"
                    continue
                program = key in PROGRAM_KEYS and kind != "function"
                origin = text.at.origin()
                try:
                    edits = _edits(text.text, program, typing, (origin.file, origin.line, origin.col), last_resort)
                except Exception:  # a text the checker would reject anyway: nothing to mutate
                    why = "its text does not parse"
                    continue
                seen = {text.text}
                meanings = {_meaning(text.text, program)}
                for operator, start, end, replacement in edits:
                    mutated = _apply(text.text, program, start, end, replacement)
                    meaning = _meaning(mutated, program)
                    if mutated in seen or (meaning is not None and meaning in meanings):
                        continue
                    seen.add(mutated)
                    meanings.add(meaning)
                    line, col = line_col(text.text, start)
                    source_line = text.text.splitlines()[line - 1]
                    pos = origin.locate(line, col)
                    src = text.text if not program or text.text.endswith("\n") else text.text + "\n"
                    file = Path(text.at.file).resolve().relative_to(root).as_posix()
                    found.append(Mutant(len(found), f"{kind}:{decl.id}", key, file, tuple(text.at.path),
                                        f"{shown}/{file}:{pos.line}:{pos.col}", operator, " ".join(src[start:end].split()),
                                        replacement, mutated, source_line.strip(),
                                        col - 1 - (len(source_line) - len(source_line.lstrip()))))
            if any(m.operator not in GUESSES for m in found[before:]) or not texts:
                break
        if len(found) == before and texts and missing is not None:
            missing.append((f"{kind}:{decl.id}", why or "no operator changes what it says"))
    for const in rs.constants:  # a named number is a rule's number too
        value = const.value
        if const.at.file not in base or isinstance(value, bool) or not isinstance(value, int):
            continue
        pos = const.at.child("value").position()
        file = Path(const.at.file).resolve().relative_to(root).as_posix()
        for after in ([value + 1, value - 1] if value > 0 else [value + 1]):
            found.append(Mutant(len(found), f"constant:{const.id}", "value", file, tuple(const.at.path) + ("value",),
                                f"{shown}/{file}:{pos.line}:{pos.col}", "constant", str(value), str(after), after,
                                f"{const.id}: {value}"))
    return found


# ------------------------------------------------------------------ equivalent mutants
EQUIVALENTS = "equivalent_mutants.yaml"


def equivalents(folder: Path) -> list[dict]:
    """The ruleset's known equivalent mutants (`equivalent_mutants.yaml` in its folder): changes of a rule
    that no game the rules allow can tell from the rule itself, each with the reason. Each entry names the
    `rule` (KIND:ID), the text changed (`before`) and what it became (`after`), and may narrow it down by
    `key` (the rule's text: effect, body, ...) and `line` (a piece of the line the change is on)."""
    from ..text.errors import Diagnostic, LegesError
    from ..text.yaml_source import load_yaml_file
    path = folder / EQUIVALENTS
    if not path.is_file():
        return []
    doc = load_yaml_file(str(path))
    entries = (doc.data or {}).get("equivalent") if isinstance(doc.data, dict) else None
    if not isinstance(entries, list):
        raise LegesError(Diagnostic(doc.position(()), "expected `equivalent:`, a list of mutants"))
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) and e.get(k) for k in ("rule", "before", "after", "why")):
            raise LegesError(Diagnostic(doc.position(("equivalent", i)),
                                        "an equivalent mutant needs `rule`, `before`, `after` and `why`"))
    return entries


def matches_equivalent(entry: dict, m: Mutant) -> bool:
    if not (entry["rule"] == m.rule and entry["before"] == m.before and entry["after"] == m.after
            and entry.get("key", m.key) == m.key):
        return False
    piece = entry.get("line")
    if not piece:
        return True
    at = m.line.find(piece)  # the change lies inside that piece of its line
    return at >= 0 and at <= m.column < at + len(piece)


