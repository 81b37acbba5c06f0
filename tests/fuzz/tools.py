"""Fuzz cases for the tools that copy, run or cache what a ruleset brings: `leges mutate`, `--dask`, the cache.

A case is Tic-Tac-Toe dressed as a stranger's mod, drawn by Hypothesis: Python planted in, beside
and above its folder (tests, conftest.py, a pytest.ini loading a plugin), traps in its folder
(links to devices, to system folders, to a secret outside, dangling or looping links, a FIFO, a
socket, an oversized file, too many files), then one tool run on it:

- mutate: `leges mutate` on a sample of one mutant, alone or with Leges' own tests named;
- dask: `leges simulate --dask ADDRESS`, a malformed address or (in the campaign) a local cluster
  with planted bundle folders in $TMPDIR under the names a bundle would take; its results must be
  those of one process;
- cache: `leges validate` and a short `leges simulate` twice, the cache folder damaged between
  (planted pickles and code that leave a mark when run, bytes, FIFOs, links, moved entries, a
  folder others may write in): the second run must say what the first said.

Each command runs in a fresh `python -m leges` with its own $TMPDIR and $LEGES_CACHE, capped in
time, memory and file size. Besides the usual judge (exit 0 or 2 with a located message, never a
traceback or an internal error), a case is a finding when a planted file left its mark, a
copying tool succeeded although the folder holds a way out (it followed a link or read a
device), the secret outside shows in any output, a planted bundle or cache entry changed what
was said, or a tool left files in $TMPDIR.
"""
from __future__ import annotations

import json
import os
import pickle
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

from .runner import Finding, Runner, Summary

ROOT = Path(__file__).resolve().parents[2]
RULESET = "mod/rulesets/tictactoe"  # where a case's ruleset lies inside its folder
SECRET = "LEGES-FUZZ-SECRET-6f1c2e"  # what lies outside the ruleset: never in any output
# where planted Python goes (inside the case folder) and what it is; each leaves a mark in marks/ when run
PYTHON_PLACES = [f"{RULESET}/conftest.py", f"{RULESET}/tests/test_tictactoe.py", f"{RULESET}/tests/conftest.py",
                 f"{RULESET}/tests/__init__.py", "mod/rulesets/conftest.py", "mod/tests/test_tictactoe.py",
                 "mod/conftest.py", f"{RULESET}/pytest.ini", "mod/pytest.ini", f"{RULESET}/scenarios/conftest.py"]
# traps in the ruleset's folder: a link (name → target, "@" standing for the case folder) or a special file
LINKS = {"zero": "/dev/zero", "random": "/dev/urandom", "environ": "/proc/self/environ", "host": "/etc/hostname",
         "system": "/usr/share", "secret.txt": "@/outside/secret.txt", "up.txt": "../../../outside/secret.txt",
         "loop": ".", "dangling": "nowhere/at/all", "outside": "@/outside", "same.yaml": "ruleset.yaml",
         "tests/test_tictactoe.py": "@/outside/planted.py"}
SPECIALS = ["fifo", "socket", "oversized", "crowded"]
INSIDE = {"same.yaml"}  # links that stay inside the folder: a copy may take them
ADDRESSES = ["nonsense://x", "tcp://::", "tcp://host:notaport", "tcp://[::1", "inproc://nothing", "tls://x:1"]
CACHE_PLANTS = ["pickle", "code", "bytes", "empty", "zero-tag", "fifo", "dev-zero", "swap", "oversized",
                "open-folder", "open-key"]
CAPS = {"mutate": 120.0, "dask": 120.0, "validate": 30.0, "simulate": 60.0}  # seconds a command may take
MEMORY_MB, FILE_MB = 4096, 64  # a command's address space and largest file it may write


@dataclass
class ToolCase:
    """A stranger's mod and the tool to run on it; `mutations` says what was planted (for the report)."""

    tool: str  # mutate, dask, cache
    python: list[str] = field(default_factory=list)
    traps: list[str] = field(default_factory=list)
    plant: str = ""  # cache: how the cache is damaged between the runs
    address: str = ""  # dask
    own_tests: bool = False  # mutate: name Leges' own tests/test_tictactoe.py
    seed: int = 0
    base: str = "tictactoe"

    @property
    def mutations(self) -> list[str]:
        return [f"tool {self.tool}"] + [f"python {p}" for p in self.python] + [f"trap {t}" for t in self.traps] + \
            ([f"plant {self.plant}"] if self.plant else []) + ([f"address {self.address}"] if self.address else []) + \
            (["--tests tests/test_tictactoe.py"] if self.own_tests else [])

    def escapes(self) -> bool:
        """Does the folder hold a way out that a copy must refuse?"""
        return any(t not in INSIDE for t in self.traps)

    def write(self, folder: Path) -> None:
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(ROOT / "rulesets" / "tictactoe", folder / RULESET)
        (folder / "mod" / "maps").mkdir()
        shutil.copy(ROOT / "maps" / "tictactoe.yaml", folder / "mod" / "maps")
        for name in ("marks", "tmp", "outside"):
            (folder / name).mkdir()
        (folder / "cache").mkdir(mode=0o700)
        (folder / "outside" / "secret.txt").write_text(f"secret: {SECRET}\n")
        (folder / "outside" / "planted.py").write_text(_python(folder / "marks", "outside/planted.py"))
        for place in self.python:
            path = folder / place
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.name == "pytest.ini":  # an ini file that loads a planted plugin beside it
                path.write_text("[pytest]\npythonpath = .\naddopts = -p planted_plugin\n")
                path = path.with_name("planted_plugin.py")
            path.write_text(_python(folder / "marks", place))
        ruleset = folder / RULESET
        for trap in self.traps:
            if trap in LINKS:
                target = ruleset / trap
                target.parent.mkdir(parents=True, exist_ok=True)
                if target.exists() or target.is_symlink():
                    target.unlink()
                target.symlink_to(LINKS[trap].replace("@", str(folder)))
            elif trap == "fifo":
                os.mkfifo(ruleset / "fifo")
            elif trap == "socket":
                with socket.socket(socket.AF_UNIX) as s:
                    s.bind(str(ruleset / "socket"))
            elif trap == "oversized":  # sparse: no disk used
                with open(ruleset / "rulebook.txt", "wb") as handle:
                    handle.truncate(40_000_000)
            elif trap == "crowded":
                (ruleset / "many").mkdir()
                for i in range(2100):
                    (ruleset / "many" / f"{i}.txt").touch()


def _python(marks: Path, place: str) -> str:
    mark = marks / place.replace("/", "_")
    return f"open({str(mark)!r}, 'w').close()\n\ndef test_planted():\n    pass\n"


class _Planted:
    """A pickle that runs code when loaded: it makes the file `mark`."""

    def __init__(self, mark: str):
        self.mark = mark

    def __reduce__(self):
        return (os.mknod, (self.mark,))


@st.composite
def tool_cases(draw, tools: tuple[str, ...] = ("mutate", "dask", "cache"), local_dask: bool = True) -> ToolCase:
    tool = draw(st.sampled_from(tools))
    case = ToolCase(tool, seed=draw(st.integers(0, 40)))
    case.python = draw(st.lists(st.sampled_from(PYTHON_PLACES), max_size=4, unique=True))
    case.traps = draw(st.lists(st.sampled_from(sorted(LINKS) + SPECIALS), max_size=2, unique=True))
    if tool == "mutate":
        case.own_tests = draw(st.booleans())
    elif tool == "dask":
        case.address = draw(st.sampled_from(ADDRESSES + (["local"] if local_dask else [])))
    else:
        case.plant = draw(st.sampled_from(CACHE_PLANTS))
    return case


# ------------------------------------------------------------------ running a command
def _limits() -> None:
    import resource
    for kind, megabytes in ((resource.RLIMIT_AS, MEMORY_MB), (resource.RLIMIT_FSIZE, FILE_MB)):
        resource.setrlimit(kind, (megabytes << 20, megabytes << 20))


def command(argv: list[str], folder: Path, cap: float) -> dict | str:
    """`python -m leges ARGV` in the case folder with its own $TMPDIR and cache: an answer as worker.py gives."""
    env = dict(os.environ, TMPDIR=str(folder / "tmp"), LEGES_CACHE=str(folder / "cache"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("LEGES_DEBUG", None)
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "leges", *argv], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                            start_new_session=True, preexec_fn=_limits)
    try:
        out, err = proc.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)  # the command and whatever it started (a Dask cluster, a pytest child)
        proc.communicate()
        return "time cap"
    return {"status": proc.returncode, "out": out[-20_000:], "err": err[-20_000:], "seconds": time.monotonic() - start}


# ------------------------------------------------------------------ judging a case
class ToolRunner(Runner):
    """Runs tool cases; the judge of runner.py first, then what the tools promise."""

    def run(self, case: ToolCase) -> list[Finding]:  # type: ignore[override]
        folder = self.workdir / "tool-case"
        case.write(folder)
        self.summary.cases += 1
        found = [f for f in getattr(self, f"_{case.tool}")(case, folder) if f is not None]
        marks = sorted(p.name for p in (folder / "marks").iterdir())
        if marks:
            found.append(self._finding(case, case.tool, "ran python", f"planted Python ran: {', '.join(marks)}"))
        for finding in found:
            self.keep(case, finding)
        self.summary.findings.extend(found)
        return found

    def _finding(self, case: ToolCase, command: str, kind: str, detail: str) -> Finding:
        return Finding(kind, case.base, command, detail, case.mutations)

    def _ask(self, case: ToolCase, folder: Path, name: str, argv: list[str]) -> tuple[dict | None, Finding | None]:
        """Run one command: its answer (None past its cap) and the first thing wrong with it."""
        tmp = folder / "tmp"
        there = set(os.listdir(tmp))  # planted bundles
        answer = command(argv, folder, CAPS[name])
        left = sorted(n for n in set(os.listdir(tmp)) - there if not n.startswith("dask-"))  # Dask's own scratch
        shutil.rmtree(tmp)
        tmp.mkdir()
        self.summary.commands += 1
        text = " ".join(argv)
        if isinstance(answer, str):
            return None, self._finding(case, text, answer, f"past {CAPS[name]:.0f} s")
        self.summary.slowest[name] = max(self.summary.slowest.get(name, 0.0), answer["seconds"])
        if SECRET in answer["out"] + answer["err"]:
            return answer, self._finding(case, text, "read outside", "the secret outside the ruleset was shown")
        # processor time 0: a fresh interpreter's start is no slowness of Leges (the main campaign times that)
        judged = self.judge(case, [name, *argv[1:]], {**answer, "cpu": 0.0})  # type: ignore[arg-type]
        if judged is not None:
            return answer, judged
        if left:
            return answer, self._finding(case, text, "left in TMPDIR", ", ".join(left[:8]))
        return answer, None

    def _copying(self, case: ToolCase, text: str, answer: dict | None) -> Finding | None:
        """A copying tool must refuse a folder holding a way out (and say where), else it followed it."""
        if answer is not None and case.escapes() and answer["status"] == 0:
            return self._finding(case, text, "copied out", "succeeded although the folder holds a link out "
                                 "or a special file")
        return None

    def _mutate(self, case: ToolCase, folder: Path) -> list[Finding | None]:
        argv = ["mutate", RULESET, "--sample", "1", "--seed", str(case.seed), "--json", "-q"]
        if case.own_tests:
            argv += ["--tests", str(ROOT / "tests" / "test_tictactoe.py")]
        answer, finding = self._ask(case, folder, "mutate", argv)
        return [finding or self._copying(case, " ".join(argv), answer)]

    def _dask(self, case: ToolCase, folder: Path) -> list[Finding | None]:
        base = ["simulate", RULESET, "--games", "4", "--seed", str(case.seed), "--json", "-q"]
        if case.address == "local" and not case.escapes():
            self._plant_bundles(folder)
        answer, finding = self._ask(case, folder, "simulate", base + ["--dask", case.address, "-j", "2"])
        text = " ".join(base + ["--dask", case.address])
        finding = finding or self._copying(case, text, answer)
        if finding is not None or answer is None or answer["status"] != 0:
            return [finding]
        alone, finding = self._ask(case, folder, "simulate", base + ["-j", "1"])
        if finding is None and alone is not None and _results(alone["out"]) != _results(answer["out"]):
            finding = self._finding(case, text, "planted used", "the cluster's results differ from one process's")
        return [finding]

    def _plant_bundles(self, folder: Path) -> None:
        """Folders in $TMPDIR under the names a bundle of this ruleset takes (and took), holding another game."""
        from leges.lab.runner import bundle
        digest, _, inner = bundle(str(folder / RULESET))
        for name in (digest, digest[:16]):
            planted = folder / "tmp" / f"leges-bundle-{name}" / inner
            shutil.copytree(folder / RULESET, planted, symlinks=True)
            (planted / "ruleset.yaml").write_text("planted: [\n")

    def _cache(self, case: ToolCase, folder: Path) -> list[Finding | None]:
        commands = [("validate", ["validate", RULESET]),
                    ("simulate", ["simulate", RULESET, "--games", "2", "--seed", str(case.seed), "--json", "-q", "-j", "1"])]
        first = []
        for name, argv in commands:
            answer, finding = self._ask(case, folder, name, argv)
            if finding is not None or answer is None:
                return [finding]
            first.append(answer)
        _damage(folder / "cache", case.plant, folder / "marks")
        found: list[Finding | None] = []
        for (name, argv), before in zip(commands, first):
            answer, finding = self._ask(case, folder, name, argv)
            if finding is None and answer is not None and (answer["status"], _results(answer["out"])) != \
                    (before["status"], _results(before["out"])):
                finding = self._finding(case, " ".join(argv), "planted used",
                                        f"after the cache was damaged ({case.plant}) the command said otherwise")
            found.append(finding)
        return found


def _results(out: str):
    """What a command said, less its timings."""
    try:
        data = json.loads(out)
    except ValueError:
        return out
    return {k: v for k, v in data.items() if "second" not in k} if isinstance(data, dict) else data


def _damage(cache: Path, plant: str, marks: Path) -> None:
    """Damage every entry of a filled cache folder the way `plant` says, as someone who may write there would."""
    import marshal
    entries = sorted(p for p in cache.rglob("*") if p.is_file() and p.name != "key")
    if plant == "open-folder":  # a folder others may write in is no cache: what is planted there is not read
        cache.chmod(0o777)
        plant = "pickle"
    elif plant == "open-key":
        (cache / "key").chmod(0o644)
        plant = "code"
    contents = [p.read_bytes() for p in entries]
    for i, path in enumerate(entries):
        mark = str(marks / f"cache-{plant}-{i}")
        path.unlink()
        if plant == "pickle":
            path.write_bytes(pickle.dumps(_Planted(mark)))
        elif plant == "code":
            path.write_bytes(marshal.dumps(compile(f"open({mark!r}, 'w').close()", "<planted>", "exec")))
        elif plant == "bytes":
            path.write_bytes(os.urandom(200))
        elif plant == "empty":
            path.touch()
        elif plant == "zero-tag":  # a tag of the right length, wrong
            path.write_bytes(b"\0" * 32 + pickle.dumps(_Planted(mark)))
        elif plant == "fifo":
            os.mkfifo(path)
        elif plant == "dev-zero":
            path.symlink_to("/dev/zero")
        elif plant == "swap":  # a signed entry under another entry's name
            path.write_bytes(contents[(i + 1) % len(contents)])
        elif plant == "oversized":
            with open(path, "wb") as handle:
                handle.truncate(100_000_000)


def fuzz_tools(count: int, workdir: Path, findings_dir: Path | None = None, seed: int | None = None,
               tools: tuple[str, ...] = ("mutate", "dask", "cache"), local_dask: bool = True,
               progress=None) -> Summary:
    """Run `count` tool cases drawn by Hypothesis (reproducibly when `seed` is given)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    runner = ToolRunner(workdir, findings_dir)
    start = time.monotonic()

    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=tool_cases(tools, local_dask))
    def one(case: ToolCase) -> None:
        runner.run(case)
        if progress is not None:
            progress(runner.summary, time.monotonic() - start)

    if seed is not None:
        one = hypothesis_seed(seed)(one)
    try:
        one()
    finally:
        shutil.rmtree(workdir / "tool-case", ignore_errors=True)
    return runner.summary


def main(argv: list[str] | None = None) -> int:
    """`python -m tests.fuzz.tools --cases 200`: the campaign of tool cases (from the repository's top folder)."""
    import argparse
    import tempfile

    from .runner import report
    p = argparse.ArgumentParser(prog="python -m tests.fuzz.tools", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=100, help="how many cases (default 100)")
    p.add_argument("--seed", type=int, help="Hypothesis seed, to draw the same cases again")
    p.add_argument("--tools", nargs="*", choices=["mutate", "dask", "cache"], help="the tools to try (default: all)")
    p.add_argument("--no-local-dask", action="store_true", help="no local Dask cluster (it takes seconds a case)")
    p.add_argument("--out", type=Path, default=Path("fuzz-findings"), help="where findings are kept")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="leges-fuzz-tools-") as work:
        summary = fuzz_tools(args.cases, Path(work), args.out, args.seed, tuple(args.tools or ("mutate", "dask", "cache")),
                             not args.no_local_dask)
    print(report(summary, time.monotonic() - start))
    return 1 if summary.findings else 0


if __name__ == "__main__":
    sys.exit(main())
