"""Running fuzz cases and judging them: exit status 0, or 2 with a located message; never a
traceback or an internal error; never past the time and memory caps.

Commands run in a worker process (worker.py) whose memory is capped; a command that overruns its
time cap gets its worker killed (and a new one started). Every finding keeps a copy of its case's
files, with the mutations and the output, so that it can be run again by hand.
"""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .mutate import Case

WORKER = Path(__file__).with_name("worker.py")
# what a located message looks like: a file (or an option) then, usually, line and column
LOCATED = re.compile(r"^(?P<where>(?:[^\s:]+/|--)[^:]*?|[^\s:]+\.(?:yaml|json))(?P<at>:\d+:\d+)?: error: ", re.M)
TIME_CAPS = {"load": 20.0, "validate": 30.0, "simulate": 60.0}  # processor seconds, the worker killed past them
# processor seconds: a ruleset is read, checked and compiled (`leges.load`) within this, or it is a
# finding. A rejection by `leges validate` is judged by it too (it stops at the first load); a
# ruleset it accepts is loaded once more alone, since validate also loads every variant set and
# runs the scenarios (that is only capped above).
SLOW = {"load": 2.0, "validate": 2.0}


@dataclass
class Finding:
    kind: str  # traceback, internal, status, unlocated, time cap, slow, memory, crash; accepted, misplaced (strict cases)
    base: str
    command: str
    detail: str
    mutations: list[str]
    folder: str = ""

    def format(self) -> str:
        return (f"[{self.kind}] {self.base}: leges {self.command}\n    mutations: {'; '.join(self.mutations)}\n"
                f"    {self.detail.strip()[:600]}" + (f"\n    files: {self.folder}" if self.folder else ""))


@dataclass
class Summary:
    cases: int = 0
    commands: int = 0
    statuses: Counter = field(default_factory=Counter)  # "validate 0", "simulate 2", ...
    without_line: int = 0  # status 2 whose messages name a file but no line (e.g. a missing file)
    without_line_seen: list = field(default_factory=list)  # a few of their first lines, distinct, to look at
    slowest: dict = field(default_factory=dict)  # command → seconds
    findings: list[Finding] = field(default_factory=list)


def _cpu(pid: int) -> float | None:
    """Processor seconds a live process has used (Linux /proc), or None where that is not known.

    The machine may be shared: a command is judged by the time it took, not by the time it waited.
    """
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Worker:
    def __init__(self, memory_mb: int):
        self.memory_mb = memory_mb
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ, LEGES_FUZZ_MEMORY_MB=str(self.memory_mb))
        env.pop("LEGES_DEBUG", None)
        self.proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=env)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def ask(self, argv: list[str], cwd: Path, cap: float) -> dict | str:
        """The command's answer, or "time cap" / "crash" when the worker overran or died (it is restarted)."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps({"argv": argv, "cwd": str(cwd)}) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.stop()
            return "crash"
        start, cpu = time.monotonic(), _cpu(self.proc.pid)
        while True:  # a command is past its cap when it used `cap` processor seconds (or ten times that in all)
            ready, _, _ = select.select([self.proc.stdout], [], [], 1.0)
            if ready:
                break
            used = _cpu(self.proc.pid)
            waited = time.monotonic() - start
            if (used is not None and cpu is not None and used - cpu > cap) or waited > 10 * cap \
                    or (used is None and waited > cap):
                self.stop()
                return "time cap"
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            self.proc = None
            return f"crash (exit {code})"
        return json.loads(line)


class Runner:
    def __init__(self, workdir: Path, findings_dir: Path | None = None, memory_mb: int = 2048):
        self.workdir = workdir
        self.findings_dir = findings_dir
        self.worker = Worker(memory_mb)
        self.summary = Summary()

    def close(self) -> None:
        self.worker.stop()

    def run(self, case: Case) -> list[Finding]:
        folder = self.workdir / "case"
        case.write(folder)
        found: list[Finding] = []
        self.summary.cases += 1
        for argv in case.commands():
            name = argv[0]
            answer = self.worker.ask(argv, folder, TIME_CAPS[name])
            if answer == "time cap" and name != "simulate":  # once more in a fresh worker: a hang repeats,
                # a busy machine need not (a simulation past its cap is not run twice: that costs minutes)
                answer = self.worker.ask(argv, folder, TIME_CAPS[name])
            self.summary.commands += 1
            finding = self.judge(case, argv, answer)
            if finding is not None and finding.kind == "slow" and name == "validate":
                finding = self._confirm_slow(case, argv, folder, finding)
            if finding is not None:
                found.append(finding)
            if name == "validate" and (not isinstance(answer, dict) or answer["status"] != 0):
                break  # a ruleset that does not validate is not simulated
        for finding in found:
            self.keep(case, finding)
        self.summary.findings.extend(found)
        return found

    def _confirm_slow(self, case: Case, argv: list[str], folder: Path, finding: Finding) -> Finding | None:
        """A slow rejection by validate may have come after its variant sets: time `leges.load` alone."""
        answer = self.worker.ask(["load", argv[1]], folder, TIME_CAPS["load"])
        again = self.judge(case, ["load", argv[1]], answer)
        return again if again is not None and again.kind == "slow" else None

    def judge(self, case: Case, argv: list[str], answer: dict | str) -> Finding | None:
        name = argv[0]
        command = " ".join(argv)

        def finding(kind: str, detail: str) -> Finding:
            return Finding(kind, case.base, command, detail, list(case.mutations))

        if isinstance(answer, str):
            return finding("time cap" if answer == "time cap" else "crash",
                           f"{answer} (cap {TIME_CAPS[name]:.0f} s)")
        status, out, err, seconds = answer["status"], answer["out"], answer["err"], answer["seconds"]
        self.summary.statuses[f"{name} {status}"] += 1
        self.summary.slowest[name] = max(self.summary.slowest.get(name, 0.0), answer.get("cpu", seconds))
        text = out + err
        if "Traceback" in text:
            return finding("traceback", err[-1500:])
        if "internal error" in text or status == 70:
            return finding("internal", err[-1500:])
        if status == -9 or "MemoryError" in text:  # the memory cap was reached, even if reported in place
            return finding("memory", err[-800:])
        if status not in (0, 2):
            return finding("status", f"exit status {status}\n{err[-800:]}")
        if name == "validate" and getattr(case, "refuse_at", None) is not None:  # a strict case: refused, there
            if status == 0:
                return finding("accepted", f"a strict input at {case.refuse_at} was accepted")
            if f"{case.refuse_at}: error: " not in err:
                return finding("misplaced", f"no error at {case.refuse_at}:\n{err[-800:]}")
        if status == 2:
            located = list(LOCATED.finditer(err))
            if not located:
                return finding("unlocated", err[-800:])
            if not any(m.group("at") for m in located):
                self.summary.without_line += 1
                first = err.strip().splitlines()[0][:160] if err.strip() else ""
                if first not in self.summary.without_line_seen and len(self.summary.without_line_seen) < 8:
                    self.summary.without_line_seen.append(first)
                    self.keep_unlocated(case, command, err)
        cpu = answer.get("cpu", seconds)  # processor time: a busy shared machine does not make a case slow
        if name in SLOW and cpu > SLOW[name] and not (name == "validate" and status == 0):
            return finding("slow", f"{cpu:.2f} s of processor time, {seconds:.2f} s in all "
                                   f"(the promise: {SLOW[name]:.0f} s)")
        return None

    def keep_unlocated(self, case: Case, command: str, err: str) -> None:
        """A rejection naming a file but no line is not a finding, but its message may be poor: keep
        the case (the first of each distinct message) to look at."""
        if self.findings_dir is None:
            return
        target = self.findings_dir / f"file-only-{len(self.summary.without_line_seen):02d}"
        case.write(target)
        (target / "MESSAGE.txt").write_text(f"mutations: {'; '.join(case.mutations)}\n\n{err}\n\nrun again: cd "
                                            f"{target} && leges {command}\n", encoding="utf-8")

    def keep(self, case: Case, finding: Finding) -> None:
        if self.findings_dir is None:
            return
        index = len(self.summary.findings) + 1
        target = self.findings_dir / f"{index:04d}-{finding.kind.replace(' ', '_')}"
        case.write(target)
        (target / "FINDING.txt").write_text(finding.format() + "\n\nrun again: cd " + str(target) + " && leges "
                                           + finding.command + "\n", encoding="utf-8")
        finding.folder = str(target)


def report(summary: Summary, seconds: float) -> str:
    lines = [f"{summary.cases} cases, {summary.commands} commands in {seconds:.0f} s",
             "exit statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(summary.statuses.items())),
             f"rejections located at a file only (no line): {summary.without_line}"
             + "".join(f"\n    e.g. {line}" for line in summary.without_line_seen),
             "slowest (processor time): " + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(summary.slowest.items())),
             f"findings: {len(summary.findings)}"]
    kinds = Counter(f.kind for f in summary.findings)
    if kinds:
        lines.append("  by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))
    lines.extend("  " + f.format().replace("\n", "\n  ") for f in summary.findings[:50])
    return "\n".join(lines)


def fuzz(count: int, workdir: Path, findings_dir: Path | None = None, seed: int | None = None,
         bases: tuple[str, ...] | None = None, memory_mb: int = 2048, progress=None) -> Summary:
    """Run `count` cases drawn by Hypothesis (reproducibly when `seed` is given)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    from .mutate import cases

    runner = Runner(workdir, findings_dir, memory_mb)
    start = time.monotonic()

    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=cases(bases))
    def one(case: Case) -> None:
        runner.run(case)
        if progress is not None:
            progress(runner.summary, time.monotonic() - start)

    if seed is not None:
        one = hypothesis_seed(seed)(one)
    try:
        one()
    finally:
        runner.close()
        shutil.rmtree(workdir / "case", ignore_errors=True)
    return runner.summary
