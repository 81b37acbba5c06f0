"""Fuzz cases: a bundled ruleset, damaged the way an author's slip or an attacker would damage it.

A case copies one bundled ruleset (its files, its variants and its map) and applies one to three
mutations drawn by Hypothesis, of three kinds:

- structure: a value of a YAML document (read as Leges reads it) is deleted, duplicated,
  swapped, wrapped, replaced by a stressing value (zero, negative, huge, empty, a path, an escape
  sequence) or by another name of the ruleset, or a key is added;
- rule language: a rule text is replaced by a text drawn from the grammar (programs where a
  program goes, expressions elsewhere), or a drawn statement is inserted into a program, or a
  token of a text is replaced by a drawn expression;
- bytes: a byte flipped, bytes inserted (NUL, tabs, invalid UTF-8, YAML tags and anchors, escape
  sequences, bidirectional overrides, numbers of thousands of digits), a span deleted or repeated,
  the file cut short, a line's indentation changed.

One case in eight is instead a strict case: one plain value of a file `leges validate` reads is
replaced by what must be refused (an explicit YAML tag, a number too long or past 2^53 - 1, a
non-finite float; issue 35, item 6), and the case's `refuse_at` says where: the runner finds it a
finding when validate accepts the ruleset, or refuses it without an error at that place.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from hypothesis import strategies as st

from .grammar import rule_text

ROOT = Path(__file__).resolve().parents[2]
BASES = {"tictactoe": 5, "pompeii": 2, "attika": 2, "alexander": 2}  # name → weight
PROGRAM_KEYS = {"effect", "turn", "on_begin", "on_end", "arrange"}
EXPRESSION_KEYS = {"end_if", "require", "if", "score", "check", "label", "first", "order", "condition", "value"}
NASTY_VALUES = [0, -1, 1, 2, 16, 17, 10000, 10001, 2**31, 2**63, 10**30, -(10**30), 1.5, float("inf"), "", " ",
                "x" * 2000, None, True, False, [], {}, "none", "\x1b[2J\x1b]0;t\x07", "\u202e", "../../outside",
                "/etc/passwd", "con", "a\x00b", "{{}}", "[", "é", "0" * 5000, 10 ** 4000, 2 ** 53, -(2 ** 53), 2 ** 53 - 1,
                float("nan"), "٣", "!!str x", "<script>alert(1)</script>", "[x](javascript:y)", "```"]
NASTY_BYTES = [b"\x00", b"\t", b"\xff\xfe", b"\xc3", b"\x1b[31m", b'"', b"'", b": ", b"- ", b"[", b"{", b"}",
               b"&a ", b"*a", b"*zz ", b"!!python/object/apply:os.system ['true'] ", b"!!binary ", b"\n", b"  ",
               b"<<: *a\n", b"\r", b"\xe2\x80\xae", b"%YAML 1.1\n", b"---\n", b"...\n", b"? ", b"|\n", b">-\n",
               b"#", b"\\", b"\x85", b"\xef\xbb\xbf", b"\x7f", b"\xc2\x9b", b"!!str ", b"!foo ", b"! ", b"!!int ",
               b"!<tag:yaml.org,2002:str> ", b"&t !!binary ", b"9" * 5001, b"1" * 4001 + b" ", b"9007199254740992 ",
               b".inf ", b"0x" + b"f" * 30 + b" "]
# what a strict case writes in place of a plain value: each must be refused where it is written
STRICT_VALUES = ["!!str x", "!!str 12", "!!binary aGk=", "!foo x", "! x", "!<tag:yaml.org,2002:str> x",
                 "!!python/object/apply:os.system ['true']", "!!int 3", "&a !!float 1.5", "9" * 4001, "9" * 5001,
                 "9007199254740992", "-9007199254740992", "12345678901234567", ".inf", "-.inf", ".nan",
                 "0x" + "f" * 20, "1." + "5" * 40]


# well-formed statements and expressions that stress the interpreter's bounds (loops, growth, depth)
STRESS_STATEMENTS = [
    "while true:\n  pass",
    "repeat 100000000:\n  pass",
    "let q = 2\nrepeat 40:\n  q = q * q",
    "let l = [1]\nrepeat 40:\n  l = l + l",
    "let t = \"ab\"\nrepeat 40:\n  t = t + t",
    "log count([i for i in range(100000000)])",
    "log count([[i, j] for i in range(100000) for j in range(100000)])",
    "log text(sum(range(1000000000)))",
    "repeat 1000:\n  repeat 1000:\n    repeat 1000:\n      pass",
    "log 1 / 0",
    "log " + "9" * 5001,
    "let big = 9007199254740992",
    "goto nowhere_at_all",
    "end game",
]
STRESS_EXPRESSIONS = ["false", "true", "1 / 0", "count(range(1000000000)) > 0", "none", "[]",
                      "all(range(100000000), i => i >= 0)", "text(none)", "99999999999999999999 * 99999999999999999999",
                      "9" * 4001 + " > 0", "count(spaces) > 9007199254740992"]


@dataclass
class Case:
    """A mutated copy of a bundled ruleset, as files to write, and the commands to run on it."""

    base: str
    files: dict[str, bytes]  # path inside the case folder → content (the whole ruleset, mutated)
    mutations: list[str] = field(default_factory=list)
    variant: str | None = None  # a variant to switch on when simulating (its file was mutated)
    seed: int = 0
    refuse_at: str | None = None  # a strict case: where `leges validate` must report an error (file:line:col)

    def write(self, folder: Path) -> None:
        if folder.exists():
            shutil.rmtree(folder)
        for rel, data in self.files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)

    def commands(self) -> list[list[str]]:
        ruleset = f"rulesets/{self.base}"
        simulate = ["simulate", ruleset, "-g", "1", "-q", "-s", str(self.seed)]
        if self.variant:
            simulate += ["--variant", self.variant]
        return [["validate", ruleset], ["load", ruleset], simulate]


@lru_cache(maxsize=None)
def _originals(base: str) -> tuple[tuple[str, bytes], ...]:
    """The files of a bundled ruleset (scenarios left out) and its map, as a case folder holds them."""
    folder = ROOT / "rulesets" / base
    found = []
    for path in sorted(folder.rglob("*.yaml")):
        if "scenarios" in path.relative_to(folder).parts:
            continue
        found.append((f"rulesets/{base}/{path.relative_to(folder).as_posix()}", path.read_bytes()))
    main = yaml.safe_load((folder / "ruleset.yaml").read_text(encoding="utf-8"))
    if main.get("map"):
        found.append((f"maps/{main['map']}.yaml", (ROOT / "maps" / f"{main['map']}.yaml").read_bytes()))
    return tuple(found)


@lru_cache(maxsize=None)
def _names(base: str) -> tuple[str, ...]:
    """Ids declared anywhere in the ruleset: the names a drawn rule text uses."""
    names: set[str] = set()
    for _, data in _originals(base):
        names.update(re.findall(rb"\bid: ([A-Za-z_][A-Za-z0-9_]*)", data))
    return tuple(sorted(n.decode() for n in names))[:400]


def _load(data: bytes):
    from leges.text.yaml_source import load_yaml_text
    return load_yaml_text(data.decode("utf-8"), "x").data


def _dump(data) -> bytes:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=4096).encode("utf-8")


def _paths(data, prefix=(), out=None, limit=4000) -> list[tuple]:
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(data, dict):
        for k, v in data.items():
            out.append(prefix + (k,))
            _paths(v, prefix + (k,), out, limit)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.append(prefix + (i,))
            _paths(v, prefix + (i,), out, limit)
    return out


def _get(data, path):
    for k in path:
        data = data[k]
    return data


@st.composite
def cases(draw, bases: tuple[str, ...] | None = None, strict: bool | None = None) -> Case:
    """A case: one bundled ruleset with one to three mutations, or (one in eight; `strict` True:
    always, False: never) a strict case."""
    names = list(bases or BASES)
    weights = [BASES.get(n, 1) for n in names]
    base = draw(st.sampled_from([n for n, w in zip(names, weights) for _ in range(w)]))
    files = dict(_originals(base))
    case = Case(base, files, seed=draw(st.integers(0, 1000)))
    if strict or (strict is None and draw(st.integers(0, 7)) == 0):
        return _strict(draw, case)
    for _ in range(draw(st.integers(1, 3))):
        rel = draw(st.sampled_from(sorted(files)))
        kind = draw(st.sampled_from(["structure", "structure", "rule", "rule", "rule", "bytes", "bytes"]))
        try:
            if kind == "bytes":
                files[rel] = _damage(draw, files[rel], case)
            else:
                data = _load(files[rel])
                if data is None:
                    continue
                data = (_structure if kind == "structure" else _rule)(draw, data, base, case)
                files[rel] = _dump(data)
        except Exception:  # noqa: BLE001 — an earlier mutation made the file unreadable: damage bytes instead
            files[rel] = _damage(draw, files[rel], case)
        case.mutations[-1] = f"{rel}: {case.mutations[-1]}" if case.mutations else f"{rel}: ?"
        if "/variants/" in rel:
            match = re.search(rb"^id: ([A-Za-z_][A-Za-z0-9_]*)", dict(_originals(base))[rel], re.M)
            case.variant = match.group(1).decode() if match else None
    return case


def _read_by_validate(base: str) -> list[str]:
    """The files of a case `leges validate` reads whatever it finds: the main file, its includes, the
    variants (every one is loaded), the map."""
    main = yaml.safe_load(dict(_originals(base))[f"rulesets/{base}/ruleset.yaml"].decode("utf-8"))
    read = {f"rulesets/{base}/ruleset.yaml"} | {f"rulesets/{base}/{name}" for name in main.get("include", [])}
    return sorted(rel for rel, _ in _originals(base) if rel in read or "/variants/" in rel or rel.startswith("maps/"))


def _strict(draw, case: Case) -> Case:
    """One plain value of a file validate reads replaced by a strict input (STRICT_VALUES)."""
    rel = draw(st.sampled_from(_read_by_validate(case.base)))
    text = case.files[rel].decode("utf-8")
    spots: list = []
    stack = [yaml.compose(text)]
    while stack:  # every plain value on one line (keys stay: a key is a name, its text is what counts)
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            stack.extend(value for _, value in node.value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif node.style is None and node.start_mark.line == node.end_mark.line and node.value:
            spots.append(node)
    node = draw(st.sampled_from(sorted(spots, key=lambda n: n.start_mark.index)))
    value = draw(st.sampled_from(STRICT_VALUES))
    start, end = node.start_mark.index, node.end_mark.index
    case.files[rel] = (text[:start] + value + text[end:]).encode("utf-8")
    case.refuse_at = f"{rel}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"
    case.mutations.append(f"{case.refuse_at}: strict value {value[:40]!r}")
    return case


def _structure(draw, data, base: str, case: Case):
    paths = _paths(data)
    if not paths:
        return data
    path = draw(st.sampled_from(paths))
    parent, key = _get(data, path[:-1]), path[-1]
    op = draw(st.sampled_from(["delete", "nasty", "nasty", "duplicate", "swap", "wrap", "rename", "add_key"]))
    case.mutations.append(f"{op} at {'/'.join(map(str, path))}")
    if op == "delete":
        del parent[key]
    elif op == "nasty":
        parent[key] = draw(st.sampled_from(NASTY_VALUES))
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif op == "swap":
        siblings = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
        other = draw(st.sampled_from(siblings))
        parent[key], parent[other] = parent[other], parent[key]
    elif op == "wrap":
        parent[key] = draw(st.sampled_from([[parent[key]], {"x": parent[key]}, [[[[parent[key]]]]]]))
    elif op == "rename":
        parent[key] = draw(st.sampled_from(list(_names(base)) or ["x"]))
    elif op == "add_key" and isinstance(_get(data, path), dict):
        _get(data, path)[draw(st.sampled_from(["extra", "id", "count", "params", "on", "1", ""]))] = \
            draw(st.sampled_from(NASTY_VALUES))
    else:
        parent[key] = draw(st.sampled_from(NASTY_VALUES))
    return data


def _rule(draw, data, base: str, case: Case):
    texts = [p for p in _paths(data) if isinstance(_get(data, p), str) and len(p) > 1
             and isinstance(p[-1], str) and (p[-1] in PROGRAM_KEYS | EXPRESSION_KEYS or p[-2] == "params"
                                            or p[-1] == "body")]
    if not texts:
        return _structure(draw, data, base, case)
    path = draw(st.sampled_from(texts))
    parent, key = _get(data, path[:-1]), path[-1]
    old = parent[key]
    program = key in PROGRAM_KEYS or (key == "body" and "\n" in old)
    names = _names(base)
    op = draw(st.sampled_from(["replace", "insert", "token", "stress"] if program else ["replace", "token", "stress"]))
    case.mutations.append(f"rule text {op} at {'/'.join(map(str, path))}")
    if op == "stress":
        if program:
            lines = old.rstrip("\n").split("\n")
            at = draw(st.integers(0, len(lines)))
            indent = re.match(r"[ \t]*", lines[min(at, len(lines) - 1)]).group() if lines else ""
            stmt = draw(st.sampled_from(STRESS_STATEMENTS))
            lines[at:at] = [indent + line for line in stmt.split("\n")]
            parent[key] = "\n".join(lines) + "\n"
        else:
            parent[key] = draw(st.sampled_from(STRESS_EXPRESSIONS))
    elif op == "replace":
        parent[key] = draw(rule_text("program" if program else "expression", names))
    elif op == "insert":
        lines = old.split("\n")
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        indent = re.match(r"[ \t]*", lines[at]).group() if lines else ""
        stmt = draw(rule_text("program", names)).strip("\n")
        lines[at:at] = [indent + line for line in stmt.split("\n")]
        parent[key] = "\n".join(lines)
    else:
        tokens = re.split(r"(\W)", old)
        spots = [i for i, t in enumerate(tokens) if t.strip()]
        if spots:
            i = draw(st.sampled_from(spots))
            tokens[i] = draw(st.sampled_from(["", "(" + draw(rule_text("expression", names)) + ")",
                                              draw(rule_text("expression", names))]))
        parent[key] = "".join(tokens)
    return data


def _damage(draw, data: bytes, case: Case) -> bytes:
    op = draw(st.sampled_from(["flip", "insert", "insert", "delete", "truncate", "repeat", "indent"]))
    case.mutations.append(f"bytes {op}")
    if not data:
        return draw(st.sampled_from(NASTY_BYTES))
    at = draw(st.integers(0, len(data) - 1))
    if op == "flip":
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
    if op == "insert":
        return data[:at] + draw(st.sampled_from(NASTY_BYTES)) + data[at:]
    if op == "delete":
        return data[:at] + data[at + draw(st.integers(1, 200)):]
    if op == "truncate":
        return data[:at]
    if op == "repeat":
        span = data[at:at + draw(st.integers(1, 400))]
        return data[:at] + span * draw(st.integers(2, 5)) + data[at:]
    lines = data.split(b"\n")
    i = draw(st.integers(0, len(lines) - 1))
    lines[i] = draw(st.sampled_from([b" ", b"  ", b"\t", b""])) + (lines[i][draw(st.integers(0, 2)):])
    return b"\n".join(lines)
