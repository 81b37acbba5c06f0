"""One program as one generated Python function, its program counter an integer in the frame.

A program is a flat list of instructions (what each statement family emits, `Ins`). Each is
Python source written for the body of the program's function, with markers for what moves
control (`Jump`, `Call`); the generator lays them one after another, each under a
header `if pc <= K:` — so a frame resumed at instruction K skips the ones before it, and one
instruction falls through to the next without a test that can fail. A jump sets `pc` and goes
round the loop again; a backward one looks at the action's step budget first, so a loop that
never ends stops at `limits.max_steps`. A `Call` pushes another program's frame and calls it at
once. The frame stays plain data: where it resumes is `frame[1]`, its locals `frame[2]`.

The function is `run(st, frame, steps, limit) -> (signal, steps)`: it runs from `frame[1]` until
the program ends (`DONE`), a decision is pending (`SUSPEND`, `frame[1]` the asking instruction),
a frame was pushed (`PUSHED`, `frame[1]` where this one resumes) or the frames were replaced
(`UNWIND`). `steps` counts the instructions run, as `limits.max_steps` counts statements.

The reference build (`leges.load(..., optimise=False)`) lays the same instructions out plainly:
one function an instruction, run one at a time by a loop that follows the pc they return, a
pushed frame left for the flow to run. What the fused function adds — falling through, jumps as
`continue`, direct calls — is then checked by the conformance harness (authoring/conformance.py)
against a build that has none of it.

Where a generated line failed says which instruction failed (`failed_at` reads the line of a
program's own source in the traceback), so nothing is spent on bookkeeping while all goes well.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from ...lang.optimise.python_passes import python_passes
from ...text import cache
from ...text.errors import Position

DONE = 0  # the program ran to its end: its frame is popped
DIRECT_DEPTH = 64  # frames deeper than this are pushed for the flow's loop to run, not called directly


@dataclass
class Jump:
    """A jump to the instruction a cell holds (filled once the target is compiled)."""

    target: list[int]
    indent: str = ""


@dataclass
class Call:
    """Run another program (an action's effect, a procedure) in a frame of its own, then go on at
    instruction `resume`. Fused: the frame is pushed, as the flow would run it, and its program
    called at once — when it ends this one goes on without a round through the flow's loop; when
    it asks or pushes, its frame stays on top and this one resumes later. Plain: pushed only."""

    code: str  # source of the code id
    local: str  # source of its locals
    resume: int
    indent: str = ""


def indented(lines: list, indent: str) -> list:
    """Lines (and markers) one block deeper."""
    return [indent + x if isinstance(x, str) else dataclasses.replace(x, indent=indent + x.indent) for x in lines]


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


def generate(code_id: str, instructions: list[Ins], positions: list, namespace: dict, number: int,
             plain: bool = False) -> Program:
    """The program's function (fused, or plain: the reference build's), compiled in the rules'
    namespace (the expressions' helpers and generated functions are there)."""
    name = f"P{number}"
    filename = f"<program:{number}:{code_id[:60]}>"
    pos_const = f"{name}_positions"
    namespace[pos_const] = positions
    out, owner = (_plain if plain else _fused)(name, instructions, pos_const)
    exec(cache.compiled("\n".join(out) + "\n", filename, None if plain else python_passes), namespace)  # our own generated source, from the checked tree
    run = namespace[name]
    return Program(code_id, run, positions, [ins.offers for ins in instructions], filename, owner)


def _fused(name: str, instructions: list[Ins], pos_const: str) -> tuple[list[str], list[int]]:
    out = [f"def {name}(st, fr, n, lim):", "    env = fr[2]", "    pc = fr[1]", "    while True:"]
    owner = [-1] * len(out)
    for k, ins in enumerate(instructions):
        head = [f"        if pc <= {k}:", "            n += 1"]
        body = _lines(ins, k, pos_const, plain=False)
        out += head + ["            " + line for line in body]
        owner += [k] * (len(head) + len(body))
    out.append("        return 0, n")
    owner.append(-1)
    return out, owner


def _plain(name: str, instructions: list[Ins], pos_const: str) -> tuple[list[str], list[int]]:
    """One function an instruction, returning the next pc (or a signal), and the loop running them."""
    out: list[str] = []
    owner: list[int] = []
    for k, ins in enumerate(instructions):
        body = _lines(ins, k, pos_const, plain=True)
        lines = [f"def {name}_{k}(st, fr, n, lim):", "    env = fr[2]", *("    " + line for line in body),
                 f"    return {k + 1}, n"]
        out += lines
        owner += [k] * len(lines)
    out += [f"{name}_code = [{', '.join(f'{name}_{k}' for k in range(len(instructions)))}]",
            f"def {name}(st, fr, n, lim):",
            "    pc = fr[1]",
            f"    while pc < {len(instructions)}:",
            "        n += 1",
            f"        r, n = {name}_code[pc](st, fr, n, lim)",
            "        if r < 0:",
            "            return r, n",
            "        if r <= pc and n > lim:",
            f"            lim = st.game.flow.next_slice(n, {pos_const}[pc])",
            "        pc = r",
            "    return 0, n"]
    owner += [-1] * 12
    return out, owner


def _lines(ins: Ins, k: int, pos_const: str, plain: bool) -> list[str]:
    """The instruction's lines with its markers written out for the build."""
    body: list[str] = []
    for line in ins.lines:
        if isinstance(line, Jump):
            body += _jump(line, k, pos_const, plain)
        elif isinstance(line, Call):
            body += [line.indent + x for x in _call(line, plain)]
        else:
            body.append(line)
    return body


def _jump(jump: Jump, k: int, pos_const: str, plain: bool) -> list[str]:
    target = jump.target[0]
    if plain:
        return [jump.indent + f"return {target}, n"]
    lines = [f"pc = {target}"]
    if target <= k:  # a loop: the action's step budget is looked at on the way round
        lines.append(_budget(k, pos_const))
    lines.append("continue")
    return [jump.indent + line for line in lines]


def _call(call: Call, plain: bool) -> list[str]:
    lines = [f"fr[1] = {call.resume}",
             f"f = [{call.code}, 0, {call.local}]",
             "st.frames.append(f)"]
    if plain:
        return lines + ["return -2, n"]
    return lines + [f"if len(st.frames) > {DIRECT_DEPTH}:",
                    "    return -2, n",
                    "s, n = st.game.codes[f[0]].run(st, f, n, lim)",
                    "if s:",
                    "    return s, n",
                    "st.frames.pop()",
                    f"pc = {call.resume}",
                    "continue"]


def _budget(k: int, pos_const: str) -> str:
    return f"if n > lim: lim = st.game.flow.next_slice(n, {pos_const}[{k}])"
