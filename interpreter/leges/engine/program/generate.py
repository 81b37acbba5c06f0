"""One program as one generated Python function, its program counter an integer in the frame.

A program is a flat list of instructions (what each statement family emits, `Ins`). Each is
Python source written for the body of the program's function; the generator lays them one after
another, each under a header `if pc <= K:` — so a frame resumed at instruction K skips the ones
before it, and one instruction falls through to the next without a test that can fail. A jump
sets `pc` and goes round the loop again; a backward one looks at the action's step budget first,
so a loop that never ends stops at `limits.max_steps`. The frame stays plain data: where it
resumes is `frame[1]`, its locals `frame[2]`.

The function is `run(st, frame, steps, limit) -> (signal, steps)`: it runs from `frame[1]` until
the program ends (`DONE`), a decision is pending (`SUSPEND`, `frame[1]` the asking instruction),
a frame was pushed (`PUSHED`, `frame[1]` where this one resumes) or the frames were replaced
(`UNWIND`). `steps` counts the instructions run, as `limits.max_steps` counts statements.

Where a generated line failed says which instruction failed: `Program.position_of` reads the
line of the program's own frame in the traceback, so nothing is spent on bookkeeping while all
goes well.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from ...text import cache
from ...text.errors import Position

DONE = 0  # the program ran to its end: its frame is popped
DIRECT_DEPTH = 64  # frames deeper than this are pushed for the flow's loop to run, not called directly


def call_frame(code: str, local: str, resume: int) -> list[str]:
    """The lines of an instruction that runs another program (an action's effect, a procedure) in a
    frame of its own, then goes on at instruction `resume`. The frame is pushed, as the flow would
    run it, and its program called at once: when it ends, this one goes on without a round through
    the flow's loop; when it asks or pushes, its frame stays on top and this one resumes later."""
    return [f"fr[1] = {resume}",
            f"f = [{code}, 0, {local}]",
            "st.frames.append(f)",
            f"if len(st.frames) > {DIRECT_DEPTH}:",
            "    return -2, n",
            "s, n = st.game.codes[f[0]].run(st, f, n, lim)",
            "if s:",
            "    return s, n",
            "st.frames.pop()",
            f"pc = {resume}",
            "continue"]


@dataclass
class Jump:
    """A jump to the instruction a cell holds (filled once the target is compiled)."""

    target: list[int]
    indent: str = ""


@dataclass
class Budget:
    """A look at the action's step budget (on the way round a loop), located at its instruction."""

    indent: str = ""


@dataclass
class Ins:
    """One instruction: its lines of Python (strings, or `Jump`s), written as if at the start of the
    body; `offers`: the actions an `act` offers (explanations read them, engine/explain.py)."""

    lines: list = field(default_factory=list)
    offers: tuple | None = None


@dataclass
class Program:
    """A compiled program: its function, and per instruction where it was written."""

    id: str
    run: Callable[[Any, list, int, int], tuple[int, int]]
    positions: list[Position | None]
    offers: list[tuple | None]
    filename: str
    lines: list[int]  # per line of the generated source, the instruction it belongs to (-1: none)

    @property
    def size(self) -> int:
        return len(self.positions)

    def position_at(self, line: int) -> Position | None:
        """Where the instruction holding this line of the generated source was written."""
        index = self.lines[line - 1] if 0 < line <= len(self.lines) else -1
        return self.positions[index] if 0 <= index < len(self.positions) else None


def failed_at(files: dict[str, Program], tb: TracebackType | None) -> Position | None:
    """Where the instruction that raised was written: the innermost line of a generated program's
    source in the traceback (`files`: the programs by their source's file name)."""
    found = None
    while tb is not None:
        program = files.get(tb.tb_frame.f_code.co_filename)
        if program is not None:
            found = program.position_at(tb.tb_lineno)
        tb = tb.tb_next
    return found


def generate(code_id: str, instructions: list[Ins], positions: list, namespace: dict, number: int) -> Program:
    """The program's function, compiled in the rules' namespace (the expressions' helpers and
    generated functions are there)."""
    name = f"P{number}"
    filename = f"<program:{number}:{code_id[:60]}>"
    out = [f"def {name}(st, fr, n, lim):", "    env = fr[2]", "    pc = fr[1]", "    while True:"]
    owner = [-1] * len(out)
    pos_const = f"{name}_positions"
    for k, ins in enumerate(instructions):
        head = [f"        if pc <= {k}:", "            n += 1"]
        body: list[str] = []
        for line in ins.lines:
            if isinstance(line, Jump):
                body += _jump(line, k, pos_const)
            elif isinstance(line, Budget):
                body.append(line.indent + _budget(k, pos_const))
            else:
                body.append(line)
        out += head + ["            " + line for line in body]
        owner += [k] * (len(head) + len(body))
    out.append("        return 0, n")
    owner.append(-1)
    source = "\n".join(out) + "\n"
    namespace[pos_const] = positions
    exec(cache.compiled(source, filename), namespace)  # our own generated source, from the checked tree
    run = namespace[name]
    return Program(code_id, run, positions, [ins.offers for ins in instructions], filename, owner)


def _jump(jump: Jump, k: int, pos_const: str) -> list[str]:
    target = jump.target[0]
    lines = [f"pc = {target}"]
    if target <= k:  # a loop: the action's step budget is looked at on the way round
        lines.append(_budget(k, pos_const))
    lines.append("continue")
    return [jump.indent + line for line in lines]


def _budget(k: int, pos_const: str) -> str:
    return f"if n > lim: lim = st.game.flow.next_slice(n, {pos_const}[{k}])"
