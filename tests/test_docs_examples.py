"""Every example of docs/language.md runs, so a doc example that stops working fails the suite.

The reference's fenced blocks are examples of these kinds (the info string after the fence):

- ```` ```leges-expr ````: expressions separated by blank lines; each must be true in a fresh
  game of the sample (docs/examples/sample, 2 players, seed 0), with `me` the player to move.
  A chunk with a `# error: TEXT` line must instead fail to compile with a message holding TEXT.
- ```` ```leges-program ````: statements run in that fresh game, like a scenario's `arrange`
  (no player acting; the first turn's pending decision is put aside), then directives:
  `# expect: EXPR`, `# options: A | B` (the pending decision's options, in order),
  `# decides: SEAT`, `# do: TEXT` (answer the pending decision), `# log: A | B` (the log
  since the program started) and `# error: TEXT` (running must fail with TEXT; last).
- ```` ```yaml ````: a fragment of a ruleset, merged into the sample (an item whose id the
  sample has replaces it, others are added); a whole ruleset (`leges: 1` and `phases`); a map
  (`leges_map: 1`, loaded by a minimal ruleset); a variant of the sample (`leges_variant: 1`,
  switched on, or as `# variant: NAME=VALUE` says); or a scenario (`leges_scenario: 1`, run
  against the sample). Directives at the end: `# players: N`, `# variant: ...`, `# expect:`,
  `# do:`, `# options:`, `# decides:`, `# log:`, `# error: TEXT` (loading or playing must fail
  with TEXT).
- ```` ```console ````: `$ leges ...` lines and the exact output, run in-process from the
  repository root.
- ```` ```python ````: run as is from the repository root.

The built-ins section is generated from the BUILTINS registry; after changing a built-in,
regenerate it with `python tests/test_docs_examples.py --write`.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import io
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

import leges
from helpers import dicts_in
from leges.text.errors import LegesError, Position
from leges.lang.codegen.builtins import BUILTINS
from leges.model.decl import At, Text
from leges.text.origin import TextOrigin
from leges.text.yaml_source import YamlDoc, load_yaml_text

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "language.md"
DOC_NAME = "docs/language.md"
SAMPLE = ROOT / "docs" / "examples" / "sample"
GRAMMAR = ROOT / "interpreter" / "leges" / "lang" / "syntax" / "grammar.lark"
PLAYERS, SEED = 2, 0
KINDS = ("leges-expr", "leges-program", "yaml", "console", "python")
DIRECTIVE = re.compile(r"^\s*# (expect|options|decides|do|log|error|players|variant):\s?(.*)$")


# ------------------------------------------------------------------ the document's blocks
@dataclass
class Block:
    info: str
    line: int  # line in language.md of the block's first line of content
    text: str

    @property
    def id(self) -> str:
        return f"{self.info}@{self.line}"


def read_blocks(text: str) -> list[Block]:
    found, info, start, lines = [], None, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        if info is None:
            m = re.match(r"^```(\S*)\s*$", line)
            if m:
                info, start, lines = m.group(1), number + 1, []
        elif line.rstrip() == "```":
            found.append(Block(info, start, "\n".join(lines) + "\n"))
            info = None
        else:
            lines.append(line)
    assert info is None, f"{DOC_NAME}:{start - 1}: a code block is not closed"
    return found


DOC_TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = read_blocks(DOC_TEXT)


def blocks_of(kind: str) -> list:
    return [pytest.param(b, id=b.id) for b in BLOCKS if b.info == kind]


def split_directives(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2).strip()) for m in map(DIRECTIVE.match, text.splitlines()) if m]


# ------------------------------------------------------------------ rule text placed in the doc
class _DocPlace(YamlDoc):
    """Where a piece of rule text sits in language.md, so that errors point there."""

    def __init__(self, line: int):
        super().__init__(file=DOC_NAME, data=None)
        self.first_line = line

    def text_origin(self, path) -> TextOrigin:
        return TextOrigin(DOC_NAME, self.first_line, 1, block=True, indent=0)

    def position(self, path, key=False) -> Position:
        return Position(DOC_NAME, self.first_line, 1)


def doc_text(text: str, line: int) -> Text:
    # the path makes each piece of text distinct (the compiler caches syntax trees by place)
    return Text(text, At(_DocPlace(line), ("docs", line)))


@pytest.fixture(scope="module")
def sample():
    return leges.load(str(SAMPLE))


def fresh(game, players: int = PLAYERS):
    return game.new_initial_state(players=players, seed=SEED)


def check(game, state, text: str, line: int, me=None, file: str = DOC_NAME) -> None:
    """The expression (written at `line` of the document) must be true in the state."""
    fn = game.compile_expression(doc_text(text, line), me=me is not None)
    value = fn(state, {"me": me})
    assert value is True, f"{file}:{line}: expected true, got {value!r}: {text.strip()}"


# ------------------------------------------------------------------ leges-expr
def expr_chunks(block: Block) -> list[tuple[int, str]]:
    chunks, current, first = [], [], 0
    for offset, line in enumerate(block.text.splitlines()):
        if line.strip():
            if not current:
                first = block.line + offset
            current.append(line)
        elif current:
            chunks.append((first, "\n".join(current)))
            current = []
    if current:
        chunks.append((first, "\n".join(current)))
    return chunks


@pytest.mark.parametrize("block", blocks_of("leges-expr"))
def test_expression_examples(block, sample):
    state = fresh(sample)
    me = state.current_player()
    for line, chunk in expr_chunks(block):
        directives = split_directives(chunk)
        source = "\n".join("" if DIRECTIVE.match(x) else x for x in chunk.splitlines())
        errors = [v for k, v in directives if k == "error"]
        where = f"{DOC_NAME}:{line}"
        if errors:
            with pytest.raises(LegesError) as caught:
                sample.compile_expression(doc_text(source, line), me=True)
            for message in errors:
                assert message in str(caught.value), f"{where}: expected an error with {message!r}, got {caught.value}"
        else:
            check(sample, state, source, line, me=me)


# ------------------------------------------------------------------ decisions and directives
def answer(game, state, text: str, where: str) -> None:
    """Answer the pending decision of a program run like an arrangement (the run stops when no frame is left)."""
    pending = state.pending
    assert pending is not None, f"{where}: no decision is pending"
    option = next((o for o in pending.options if o.text == text), None)
    assert option is not None, f"{where}: {text!r} is not an option: {[o.text for o in pending.options]}"
    state.pending = None
    frame = state.frames[-1]
    if pending.kind == "chance":
        frame[2]["$chance"] = option.params["value"]
    else:
        frame[2]["$answer"] = option
    game.flow.run(state, until_empty=True)


def follow(game, state, directives, line: int, arranged: bool, log_from: int = 0) -> None:
    """Check the directives in order against the state (arranged: a program's run, not a game's)."""
    for kind, value in directives:
        where = f"{DOC_NAME}:{line}"
        if kind == "expect":
            check(game, state, value, line)
        elif kind == "options":
            got = [o.text for o in state.pending.options] if state.pending else []
            want = [t.strip() for t in value.split("|")] if value else []
            assert got == want, f"{where}: options {got}, expected {want}"
        elif kind == "decides":
            got = state.player_name(state.current_player())
            assert got == value, f"{where}: {got} decides, expected {value}"
        elif kind == "do":
            if arranged:
                answer(game, state, value, where)
            else:
                state.apply_action(value)
        elif kind == "log":
            want = [t.strip() for t in value.split("|")] if value else []
            assert state.log[log_from:] == want, f"{where}: log {state.log[log_from:]}, expected {want}"
        elif kind in ("players", "variant"):
            pass
        else:
            raise AssertionError(f"{where}: '# {kind}:' must come last")


def directive_lines(block: Block) -> list[tuple[int, str, str]]:
    out = []
    for offset, line in enumerate(block.text.splitlines()):
        m = DIRECTIVE.match(line)
        if m:
            out.append((block.line + offset, m.group(1), m.group(2).strip()))
    return out


def run_checked(block: Block, steps, expected_error) -> None:
    """Run steps; an error is expected exactly when the block has an `# error:` directive."""
    try:
        steps()
    except LegesError as exc:
        if expected_error is None:
            raise
        assert expected_error in str(exc), f"{DOC_NAME}:{block.line}: expected an error with {expected_error!r}, got:\n{exc}"
        return
    assert expected_error is None, f"{DOC_NAME}:{block.line}: expected an error with {expected_error!r}, but none came"


def _errors(lines) -> str | None:
    errors = [v for _, k, v in lines if k == "error"]
    assert len(errors) <= 1
    return errors[0] if errors else None


# ------------------------------------------------------------------ leges-program
@pytest.mark.parametrize("block", blocks_of("leges-program"))
def test_program_examples(block, sample):
    lines = directive_lines(block)
    state = fresh(sample)
    state.frames.clear()  # the first turn's decision is put aside: the program runs on its own
    state.pending = None
    state.log.clear()

    # directive lines become empty lines (the line numbers stay those of the document)
    source = "\n".join("" if DIRECTIVE.match(x) else x for x in block.text.splitlines()) + "\n"

    def steps():
        code = sample.compile_program(doc_text(source, block.line), f"docs:{block.line}")
        state.frames.append([code, 0, {"me": None}])
        sample.flow.run(state, until_empty=True)
        for line, kind, value in lines:
            if kind != "error":
                follow(sample, state, [(kind, value)], line, arranged=True)
    run_checked(block, steps, _errors(lines))


# ------------------------------------------------------------------ yaml
@functools.lru_cache(maxsize=1)
def _sample_files() -> dict:
    return {path.name: load_yaml_text(path.read_text(encoding="utf-8"), path.name).data
            for path in sorted(SAMPLE.glob("*.yaml"))}


def merge(fragment: dict, folder: Path) -> None:
    """Add a fragment to the sample copied in `folder`: an item whose id the sample declares
    (in ruleset.yaml or an included file) replaces it, other items are added to ruleset.yaml,
    other keys replace the main file's."""
    files = copy.deepcopy(_sample_files())
    main = files["ruleset.yaml"]
    for key, value in fragment.items():
        if isinstance(value, list) and all(isinstance(item, dict) for item in value):
            for item in value:
                for data in files.values():
                    section = data.get(key) or []
                    found = [i for i, old in enumerate(section) if old.get("id") == item.get("id")]
                    if found:
                        section[found[0]] = item
                        break
                else:
                    main.setdefault(key, []).append(item)
        else:
            main[key] = value
    for name, data in files.items():
        if data != _sample_files()[name]:
            _dump(folder / name, data)


def _dump(path: Path, data) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


_GAMES: dict = {}


def _load(folder: Path, variants: list):
    """Load a ruleset folder; folders with the same files and variants share one loaded game."""
    key = (tuple(sorted((str(p.relative_to(folder)), p.read_bytes()) for p in folder.rglob("*.yaml"))), tuple(variants))
    if key not in _GAMES:
        _GAMES[key] = leges.load(str(folder), variants=variants)
    return _GAMES[key]


MINIMAL = {"leges": 1, "id": "map_check", "rulebooks": [{"id": "docs", "file": "language.md"}],
           "players": {"min": 2, "max": 2},
           "phases": [{"id": "only", "source": {"book": "docs", "section": "Maps"}}]}


@pytest.mark.parametrize("block", blocks_of("yaml"))
def test_yaml_examples(block, tmp_path):
    lines = directive_lines(block)
    doc = load_yaml_text(block.text, f"{DOC_NAME}:{block.line}")
    data = doc.data
    assert isinstance(data, dict), f"{DOC_NAME}:{block.line}: a YAML example is a mapping"
    players = next((int(v) for _, k, v in lines if k == "players"), PLAYERS)
    variants = [v for _, k, v in lines if k == "variant"]
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    if "leges_scenario" in data:
        from leges.authoring.scenario import run_file
        target = folder / "scenarios" / f"{data['id']}.yaml"
        target.parent.mkdir()
        target.write_text(block.text, encoding="utf-8")
        outcome = run_file(str(target))
        assert outcome.passed, f"{DOC_NAME}:{block.line}: " + "; ".join(outcome.failures)
        return
    if "leges_variant" in data:
        (folder / "variants").mkdir(exist_ok=True)
        (folder / "variants" / f"{data['id']}.yaml").write_text(block.text, encoding="utf-8")
        variants = variants or [data["id"]]
    elif "leges_map" in data:
        folder = tmp_path / "map_check"
        (folder / "maps").mkdir(parents=True)
        (folder / "maps" / f"{data['id']}.yaml").write_text(block.text, encoding="utf-8")
        _dump(folder / "ruleset.yaml", dict(MINIMAL, map=data["id"]))
    elif "leges" in data and "phases" in data:  # a whole ruleset
        (folder / "ruleset.yaml").write_text(block.text, encoding="utf-8")
    else:
        merge(data, folder)

    def steps():
        game = _load(folder, variants)
        state = fresh(game, players)
        for line, kind, value in lines:
            if kind != "error":
                follow(game, state, [(kind, value)], line, arranged=False)
    run_checked(block, steps, _errors(lines))


# ------------------------------------------------------------------ console and python
@pytest.mark.parametrize("block", blocks_of("console"))
def test_console_examples(block, monkeypatch):
    from leges.cli import main
    monkeypatch.chdir(ROOT)
    runs, current = [], None
    for line in block.text.splitlines():
        if line.startswith("$ "):
            current = (shlex.split(line[2:]), [])
            runs.append(current)
        else:
            assert current is not None, f"{DOC_NAME}:{block.line}: a console example starts with '$ leges ...'"
            current[1].append(line.rstrip())
    for argv, expected in runs:
        assert argv[0] == "leges"
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            main(argv[1:])
        got = [x.rstrip() for x in out.getvalue().splitlines()]
        assert got == expected, f"{DOC_NAME}:{block.line}: `{' '.join(argv)}` printed:\n" + "\n".join(got)


@pytest.mark.parametrize("block", blocks_of("python"))
def test_python_examples(block, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = compile("\n" * (block.line - 1) + block.text, DOC_NAME, "exec")
    exec(code, {"__name__": "docs_example"})


# ------------------------------------------------------------------ completeness
def test_every_block_is_an_example():
    unknown = [b.id for b in BLOCKS if b.info not in KINDS]
    assert not unknown, f"code blocks the tests do not run (use one of {KINDS}): {unknown}"


def _code_words() -> set[str]:
    """Words written as code in the document: in code spans and code blocks."""
    parts = re.findall(r"`([^`\n]+)`", DOC_TEXT) + [b.text for b in BLOCKS]
    return {w for p in parts for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", p)}


def grammar_keywords() -> set[str]:
    grammar = GRAMMAR.read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z]+)"', grammar))
    return words


def test_every_keyword_is_documented():
    missing = sorted(grammar_keywords() - _code_words())
    assert not missing, f"keywords of grammar.lark that language.md never shows as code: {missing}"


def test_every_statement_has_a_section():
    grammar = GRAMMAR.read_text(encoding="utf-8")
    rules = [r for r in re.findall(r"^(\w+)_stmt:", grammar, re.M) if not r.startswith("_")]
    assert len(rules) > 10
    headings = re.findall(r"^#+ (.*)$", DOC_TEXT, re.M)
    words = {w for h in headings for w in re.findall(r"[a-z]+", h.lower())}
    shown = {"assign": "=" in "".join(headings), "call": "procedure" in words}
    missing = [r for r in rules if not shown.get(r, r in words)]
    assert not missing, f"statements without a section heading in language.md: {missing}"


def test_every_builtin_is_documented():
    words = _code_words()
    missing = [name for name in BUILTINS if name not in words]
    assert not missing, f"built-ins missing from language.md: {missing}"


def test_sample_cites_sections_of_the_reference():
    headings = {h.strip().strip("`") for h in re.findall(r"^#+ (.*)$", DOC_TEXT, re.M)}
    cited = []
    for path in SAMPLE.glob("*.yaml"):
        for d in dicts_in(load_yaml_text(path.read_text(encoding="utf-8"), str(path)).data):
            source = d.get("source")
            if isinstance(source, dict) and source.get("book") == "docs":
                cited.append(source["section"])
    assert cited
    missing = sorted({s for s in cited if s not in headings})
    assert not missing, f"the sample cites sections that language.md does not have: {missing}"


def test_sample_is_clean(sample):
    assert sample.warnings == []
    for players in (2, 3):
        assert fresh(sample, players).legal_actions()


# ------------------------------------------------------------------ the built-ins section
CATEGORIES = {
    "Lists and numbers": ("count", "sum", "max", "min", "maxima", "minima", "any", "all", "filter", "map", "sort",
                          "reverse", "first", "last", "take", "drop", "unique", "flatten", "index_of", "range", "abs",
                          "text", "components", "table", "product"),
    "Players": ("next_player", "previous_player", "players_from"),
    "Zones": ("top", "bottom"),
    "The board": ("neighbors", "adjacent", "distance", "distances", "reachable", "groups", "connected", "lines",
                  "areas", "area", "edge"),
}

# More about some built-ins, in the sample game: (a note, an example), either may be None.
MORE = {
    "count": (None, "count(deck) == 9 and count(r1c1) == 1 and count(hand(x), c => c.number > 0) == 3"),
    "max": ("Items are compared as they are: to find a component, give `by`.",
            "max(hand(x), by=c => c.number).number == max([c.number for c in hand(x)])"),
    "sort": (None, "sort(players, by=p => -p.seat) == [o, x]"),
    "flatten": ("Its items must be lists: to gather the items of several zones, make lists of them first.",
                "count(flatten([[c for c in hand(p)] for p in players])) == 6"),
    "range": ("At most 1,000,000 numbers: more is an error (see [Bounds](#bounds)).", None),
    "first": (None, 'text(first(hand(x), c => c.colour == "blue")) == "blue3" and first(hand(x), c => c.number > 6) == none'),
    "last": (None, "last(spaces, s => s.bonus > 0) == r2c2"),
    "index_of": ("With a predicate it stops at the first item that satisfies it, as `first` does.",
                 "index_of(spaces, s => s.bonus > 0) == 0 and index_of(players, p => p.colour == \"blue\") == 1"),
    "table": ("A table by player is what `map(players, f)` gives, indexed by player instead of by seat number; "
              "it goes through its players as `players` does.",
              "table(players, p => count(hand(p)))[o] == 3 and text(table(players, p => score[p])) == \"{x:0,o:0}\""),
    "product": (None, "count(product(players, spaces)) == 18 and product([x], [r0c0]) == [(x, r0c0)]"),
    "payments": ("Each way can be offered as a choice (`choose pay from payments(...)`); `payable` asks only whether "
                 "there is one, much faster. The ways are found by how many items of each kind they take, not by trying "
                 "every item for every need, so a pool of many alike items is quick; but there may be very many ways "
                 "(every 20 of 40 different items, for a need that 20 items of any kinds stand for): listing them is "
                 "charged to `limits.max_work`, which stops them. Two cards of any colour standing for a missing one:",
                 'payments([c.colour for c in hand(x)], ["red", "blue"], substitute=2) == [["blue", "green", "green"]]'),
    "payable": ("With a rate per kind, and a wild item:",
                'payable(["gold", "wood"], ["stone"], substitute=k => if k == "stone" then 2 else 3) '
                'and payable(["wild", "wood"], ["stone", "wood"], wild="wild") and not payable(["wood"], ["stone"])'),
    "text": (None, 'text(x) == "x" and text(r0c0.region) == "north" and text(hand(x)) == "hand.x" '
                   'and text([1, 2]) == "[1,2]" and text(none) == "none"'),
    "components": ("In the order they were created.", 'count(components("card")) == 18 and first(components("gem")).colour == "red"'),
    "next_player": (None, "next_player(o) == x and next_player(x, 2) == x and previous_player(x) == o"),
    "top": ("Any zone or space has a top: the item put there last. For a list, `last(xs)` is its last item and "
            "`take(xs, n)` its first n.",
            "top(deck) == deck[-1] and top(deck, 2) == [deck[-1], deck[-2]] and top(pouch(x)) == none"),
    "bottom": (None, "bottom(deck) == deck[0] and bottom(deck, 2) == [deck[0], deck[1]]"),
    "neighbors": ("A list, in the board's order of adjacency (on a grid: up, right, down, left), so "
                  "`neighbors(r0c0) == [r0c1, r1c0]` holds; compare through `sort()` when the order does not matter.",
                  "neighbors(r1c1) == [r0c1, r1c2, r2c1, r1c0] and sort(neighbors(r1c1)) == [r0c1, r1c0, r1c2, r2c1] "
                  "and r1c0 in neighbors(r0c0)"),
    "distances": ("The start is at distance 0.", "distances(r0c0)[r0c0] == 0 and count(distances(r0c0, steps=1)) == 3"),
    "reachable": (None, "sort(reachable(r0c0, 2, blocked=[r0c1])) == [r1c0, r1c1, r2c0]"),
    "groups": (None, "groups([r0c0, r1c0, r2c2, r2c1]) == [[r0c0, r1c0], [r2c1, r2c2]]"),
    "lines": ("On a `grid` (the sample's board) lines run across and down; on a `grid8` board along both "
              "diagonals too; on a hex board along its three axes.",
              "lines(3)[0] == [r0c0, r0c1, r0c2] and [r0c0, r1c1, r2c2] not in lines(3) and count(lines(2)) == 12"),
    "areas": (None, '[a.value for a in areas("region")] == [3, 2]'),
}


def builtin_section() -> str:
    out = ["<!-- builtins:begin: generated from the BUILTINS registry (interpreter/leges/lang/codegen/builtins/)"
           " by `python tests/test_docs_examples.py --write`; do not edit by hand -->", ""]
    placed = set()
    groups = list(CATEGORIES.items())
    others = tuple(n for n in BUILTINS if not any(n in names for _, names in groups))
    if others:
        groups.append(("Other built-ins", others))
    for title, names in groups:
        out += [f"### {title}", ""]
        for name in names:
            b = BUILTINS.get(name)
            if b is None:
                continue
            placed.add(name)
            more_note, more_example = MORE.get(name, (None, None))
            out += [f"#### `{b.signature}`", "", b.doc, ""]
            if more_note:
                out += [more_note, ""]
            out += ["```leges-expr", b.example, "```", ""]
            if more_example:
                out += ["```leges-expr", more_example, "```", ""]
    out.append("<!-- builtins:end -->")
    return "\n".join(out)


def _current_section() -> str:
    m = re.search(r"<!-- builtins:begin.*?<!-- builtins:end -->", DOC_TEXT, re.S)
    assert m, "language.md has no generated built-ins section"
    return m.group(0)


def test_builtins_section_matches_the_registry():
    assert _current_section() == builtin_section(), \
        "the built-ins section of language.md differs from the registry; run `python tests/test_docs_examples.py --write`"


@pytest.mark.parametrize("name", list(BUILTINS))
def test_registry_examples(name, sample):
    state = fresh(sample)
    check(sample, state, BUILTINS[name].example, 1, me=state.current_player(), file="builtins.py")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        text = DOC.read_text(encoding="utf-8")
        new = re.sub(r"<!-- builtins:begin.*?<!-- builtins:end -->", lambda m: builtin_section(), text, flags=re.S)
        DOC.write_text(new, encoding="utf-8")
        print(f"{DOC_NAME}: built-ins section regenerated")
    else:
        print(builtin_section())
