"""Compiling programs — statements that change the game state — into flat instruction lists,
then each program into one generated function (generate.py).

An instruction is Python source for the program's function; it goes on to the next, jumps,
or ends the run with a signal: SUSPEND (a decision is pending), PUSHED (a frame for a procedure,
action or trigger was pushed; this one resumes at frame[1]) or UNWIND (the frame stack was
replaced). Loops keep their counters in the frame's local variables under names starting with
'$', so a suspended program is plain data.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...lang.codegen.compiler import Compiler
from ...lang.check.scope import Scope
from ...model.rule_ids import RuleId
from ...text.origin import TextOrigin
from .assign import Assignments
from .control import Control
from .decisions import Decisions
from .generate import Ins, Program, generate
from .moves import Moves
from .signals import Signals


@dataclass
class Code:
    """One compiled program: its instructions and, per instruction, where it was written."""

    id: str
    instructions: list[Ins] = field(default_factory=list)
    positions: list = field(default_factory=list)


class Programs:
    """The programs of a game (actions' effects, triggers, phases, procedures), compiled once each."""

    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.codes: dict[str, Code] = {}
        # every `choose` that a player answers: (label, name, element type, optional), in the order
        # compiled — what a fixed action space (engine/action_space.py) enumerates besides the actions
        self.choose_sites: list[tuple] = []
        self.random = False  # whether a rule shuffles or chooses at random (the game has chance)
        self.draws = False  # whether a rule draws (from a bag: chance)
        self.passes = False  # whether some decision may be passed (an optional act or choose, `until pass`)
        # the events some trigger listens to (set before any program compiles; None: not known, so any):
        # a move or draw no trigger can hear runs without the means to stop and resume for one
        self.heard: frozenset[str] | None = None
        self.generated_count = 0
        self.files: dict[str, Program] = {}  # the generated programs by their source's file name (errors are located by it)
        self.asked: list[tuple[str, str, str]] = []  # (code id, label, name) of every `choose ... as LABEL` (engine/words.py)

    def generated(self, code_id: str) -> Program:
        """The program's generated function (made once its instructions are all compiled)."""
        code = self.codes[code_id]
        self.generated_count += 1
        program = generate(code_id, code.instructions, code.positions, self.c.namespace, self.generated_count,
                           plain=not self.c.optimise)
        self.files[program.filename] = program
        return program

    def parse_program(self, text, scope: Scope, code_id: str) -> str:
        tree = self.c.parse_tree(text)
        if tree is None:
            self.codes[code_id] = Code(code_id)
            return code_id
        return self.program(tree.body, scope, text.at.origin(), code_id)

    def program(self, body: list, scope: Scope, origin: TextOrigin, code_id: str) -> str:
        code = Code(code_id)
        self.codes[code_id] = code
        StatementCompiler(self, code, origin).block(body, scope)
        return code_id

    def procedure_code(self, decl, arg_types: list, me: bool) -> str:
        """The code of a procedure compiled for these argument types (compiled once per kind of call)."""
        signature = ",".join(str(t) for t in arg_types)
        code_id = str(RuleId("procedure", decl.id, signature=signature))
        if code_id not in self.codes:
            self.codes[code_id] = Code(code_id)  # registered first: a recursive call finds it
            scope = Scope(dict(zip(decl.params, arg_types)), me=me)
            self.parse_program(decl.body, scope, code_id)
        return code_id


class StatementCompiler(Assignments, Moves, Decisions, Signals, Control):
    """Compiles one program's statements into its `Code`: each family of statements in a module
    of its own (assign, moves, decisions, signals, control), the helpers in `statement.py`."""
