"""The pictures of the docs (docs/images/), made by the test run's own tooling and checked by a test.

    python tests/screenshots.py --update     # play, screenshot, record and render them all again
    python tests/screenshots.py --check      # what tests/test_doc_pictures.py checks (no browser)

Why a tool and not pictures made by hand: a picture in the docs that no longer matches the rules
misleads more than no picture. So each is made the same way every time, from a seed, and the
cheap part of "is it current?" is a test of the default run.

Each bundled game is played **in the page** of `leges serve` (its Play tab, the server in this
process, Debian's chromium driven by Playwright exactly as tests/test_web_browser.py drives it:
its `new_game` and `play_moves`): the picture's seat is taken by the tool, whose moves a seeded
`random.Random` picks and makes by clicks (a space on the board, an action in the list, the
numbers of a share-out), the other seats by the page's random agents with the table's seed.
After `moves` moves (or the end), three files:

- `docs/images/NAME-page.png`: the page at 1280×800, as that seat sees it;
- `docs/images/records/NAME.json`: the game's record so far (every action and the seed, from the
  server's table) — what makes the position reproducible without a browser;
- `docs/images/NAME.svg`: `leges render RULESET --record that --step N --seat SEAT`, the same
  position (the last action marked).

A picture with `page=False` (the card game without a map) takes its record from `leges simulate`
and has no PNG. `--check` renders every SVG again from its stored record and compares bytes, and
checks that every PNG is a PNG of 1280×800; a change of the rules or of the renderer that moves a
picture fails it, and `--update` makes them again.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import struct
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
RECORDS = IMAGES / "records"
WIDTH, HEIGHT = 1280, 800
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Picture:
    name: str
    ruleset: str  # relative to the repository's top
    players: int
    seat: str
    seed: int
    moves: int  # the seat's moves made in the page (fewer when the game ends first)
    page: bool = True  # played in the page, with a screenshot; else a record of `leges simulate`
    step: int | None = None  # the step drawn (None: the record's last)

    @property
    def svg(self) -> Path:
        return IMAGES / f"{self.name}.svg"

    @property
    def png(self) -> Path | None:
        return IMAGES / f"{self.name}-page.png" if self.page else None

    @property
    def record(self) -> Path:
        return RECORDS / f"{self.name}.json"


PICTURES = (
    Picture("tictactoe", "rulesets/tictactoe", 2, "x", seed=0, moves=5),  # to its end: the winning line
    Picture("pompeii", "rulesets/pompeii", 3, "red", seed=7, moves=26),  # into the escape
    Picture("attika", "rulesets/attika", 3, "sparta", seed=5, moves=18),
    Picture("alexander", "rulesets/alexander", 4, "blue", seed=3, moves=14),
    Picture("open_draw", "tests/rulesets/open_draw", 3, "o", seed=3, moves=0, page=False, step=3),
)


# ------------------------------------------------------------------ checking (fast, no browser)
def shown(path: Path) -> str:
    """A path as the messages give it: from the repository's top where it lies inside."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def render(picture: Picture) -> str:
    """The SVG `leges render` draws of the picture's stored record, at its step, for its seat."""
    from leges.cli import main
    record = json.loads(picture.record.read_text(encoding="utf-8"))
    step = picture.step if picture.step is not None else len(record["actions"])
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "picture.svg"
        with contextlib.redirect_stderr(io.StringIO()) as err:
            code = main(["render", str(ROOT / picture.ruleset), "--record", str(picture.record), "--step", str(step),
                         "--seat", picture.seat, "-o", str(out)])
        if code != 0:
            raise RuntimeError(f"leges render of {picture.record} failed:\n{err.getvalue()}")
        return out.read_text(encoding="utf-8")


def png_size(path: Path) -> tuple[int, int] | None:
    """The width and height of a PNG file (its IHDR chunk), or None when it is not a PNG."""
    head = path.read_bytes()[:24]
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def referenced() -> dict[str, set[str]]:
    """Every picture under docs/images/ that README.md or docs/*.md shows or links: file → the docs."""
    import re
    found: dict[str, set[str]] = {}
    for doc in DOCS:
        for target in re.findall(r"\]\(((?:docs/)?images/[^)#\s]+)\)", doc.read_text(encoding="utf-8")):
            name = target.split("images/", 1)[1]
            found.setdefault(name, set()).add(doc.name)
    return found


def check() -> list[str]:
    """What is not current: each a line saying what to do."""
    problems = []
    docs_of = referenced()
    for name in sorted(docs_of):
        if not (IMAGES / name).is_file():
            problems.append(f"docs/images/{name} is shown in {', '.join(sorted(docs_of[name]))} but does not exist")
    for p in PICTURES:
        files = [p.svg] + ([p.png] if p.png else [])
        for f in files:
            if f.name not in docs_of:
                problems.append(f"docs/images/{f.name} is made by tests/screenshots.py but no doc shows it")
        if not p.record.is_file():
            problems.append(f"{shown(p.record)} is missing: run python tests/screenshots.py --update")
            continue
        try:
            svg = render(p)
        except Exception as exc:  # noqa: BLE001 - a record the rules no longer play is a picture to make again
            problems.append(f"{p.name}: {exc}")
            continue
        if not p.svg.is_file() or p.svg.read_text(encoding="utf-8") != svg:
            problems.append(f"docs/images/{p.svg.name} is not what `leges render` draws of {shown(p.record)}: "
                            "run python tests/screenshots.py --svg (or --update)")
        if p.png is not None and (not p.png.is_file() or png_size(p.png) != (WIDTH, HEIGHT)):
            problems.append(f"docs/images/{p.png.name} is not a PNG of {WIDTH}×{HEIGHT}: run python tests/screenshots.py --update")
    return problems


# ------------------------------------------------------------------ making them (the browser)
def write_svgs(pictures=PICTURES) -> None:
    for p in pictures:
        p.svg.write_text(render(p), encoding="utf-8")
        print(f"wrote {shown(p.svg)}")


def simulated_record(p: Picture) -> None:
    """The record of one game of `leges simulate` (random agents, the seed)."""
    from leges.cli import main
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        assert main(["simulate", str(ROOT / p.ruleset), "-p", str(p.players), "-g", "1", "--seed", str(p.seed),
                     "--records", tmp, "-q"]) == 0
        made = next(Path(tmp).glob("*.json"))
        record = json.loads(made.read_text(encoding="utf-8"))
    record["ruleset_path"] = p.ruleset
    p.record.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def played_in_the_page(p: Picture, browser) -> None:
    """The picture's game played in the page as its seat; the screenshot and the record written."""
    import leges
    from leges.lab.records import make_record
    from leges.web.server import Background, create_app
    from test_web_browser import TIMEOUT, new_game, play_moves
    server = Background(create_app(str(ROOT / p.ruleset)))
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT * 2)
        page.goto(server.url)
        new_game(page, p.players, p.seat, p.seed)
        play_moves(page, p.seat, random.Random(p.seed), p.moves)
        page.wait_for_function("() => state.view && (state.view.your_turn || state.view.terminal)")
        page.wait_for_selector("#busy", state="hidden")
        page.mouse.move(0, 0)  # no hover highlight in the picture
        page.screenshot(path=str(p.png))
        small_png(p.png)
        match = server.app.state.workspace.matches.values()[-1]
        game = leges.load(str(ROOT / p.ruleset))
        record = make_record(game, p.ruleset, match.players, match.seed, list(match.st.history))
        record["ruleset_path"] = p.ruleset
        p.record.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {shown(p.png)} ({p.png.stat().st_size // 1024} KB) and {shown(p.record)} "
              f"({len(record['actions'])} actions)")
    finally:
        context.close()
        server.stop()


def small_png(path: Path, colours: int = 128) -> None:
    """The screenshot with a palette of `colours` (Pillow, where installed): a quarter of the bytes, the
    text still crisp — the docs carry four of them. Without Pillow the PNG is kept as chromium wrote it."""
    try:
        from PIL import Image
    except ImportError:
        print("Pillow is not installed: the PNG is kept at full colour", file=sys.stderr)
        return
    with Image.open(path) as shot:
        image = shot.convert("RGB")
    image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def update(names: list[str]) -> None:
    pictures = [p for p in PICTURES if not names or p.name in names]
    RECORDS.mkdir(parents=True, exist_ok=True)
    for p in pictures:
        if not p.page:
            simulated_record(p)
    if any(p.page for p in pictures):
        from playwright.sync_api import sync_playwright
        from test_web_browser import CHROMIUM, FLAGS
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, timeout=60_000)
            try:
                for p in pictures:
                    if p.page:
                        played_in_the_page(p, browser)
            finally:
                browser.close()
    write_svgs(pictures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--update", action="store_true", help="play each game in the page again: PNGs, records, SVGs")
    what.add_argument("--svg", action="store_true", help="only draw the SVGs again from the stored records")
    what.add_argument("--check", action="store_true", help="say what is not current (exit 1 when something is not)")
    parser.add_argument("names", nargs="*", help="only these pictures (tictactoe, pompeii, ...)")
    args = parser.parse_args(argv)
    if args.update:
        update(args.names)
    elif args.svg:
        write_svgs([p for p in PICTURES if not args.names or p.name in args.names])
    problems = check()
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "interpreter"))
    sys.exit(main())
