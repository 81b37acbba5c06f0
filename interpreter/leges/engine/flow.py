"""Running rules: the instruction loop and the phase/turn flow (boardgame.io's vocabulary).

A game is a sequence of phases. A phase may run `on_begin`, then turns — each turn runs the
phase's `turn` program for one player — until `end_if` holds or its list of players is used
up, then `on_end`, then the phase named by `next` (or by a `goto`). Everything the flow needs
to resume is in the state: the phase, where in it we are (`flow`), whose turn, the frames.
"""
from __future__ import annotations

from ..text.errors import Diagnostic, LegesError, Position, RuleError
from ..lang.optimise.memo import TURN_ID
from ..lang.codegen.runtime import RuleStopped
from .budget import SLICE, BudgetSpent
from .constants import SUSPEND
from .program.generate import DONE, failed_at
from .failures import describe_failure, failure_hint

MAX_FRAMES = 2000


class Flow:
    def __init__(self, game):
        self.game = game

    # ------------------------------------------------------------- running
    def run(self, st, until_empty: bool = False) -> None:
        """Execute rules until a decision is pending or the game is over (or, if asked, no frame is left).
        A game past its budget (engine/budget.py) ends unfinished, as at the turn limit."""
        meter = self.game.meter
        meter.begin(st)
        steps = None
        try:
            steps = self._run(st, until_empty)
        except BudgetSpent:
            pass  # the ending is the meter's
        finally:
            ending = meter.end(steps)
        if ending is not None and not st.terminal:
            st.unfinished = True
            st.ending = ending
            self.finish(st)

    def _run(self, st, until_empty: bool) -> int:
        """`run`; the statements it ran. Each frame's program runs as one generated function
        (program/generate.py) until it ends, asks, or pushes another frame."""
        programs = self.game.codes
        most = self.game.max_decisions
        budget = min(SLICE, self.game.max_steps)
        steps = 0
        frames = st.frames
        if len(st.memo) < self.game.memo_size:  # a scenario compiled more rules after the state began
            st.grow_memo()
        while True:
            if st.terminal:
                st.pending = None
                return steps
            if st.pending is not None:
                self.cap_decisions(st)
                return steps
            if not frames:
                if until_empty:
                    return steps
                self.advance_checked(st)
                continue
            fr = frames[-1]
            program = programs[fr[0]]
            try:
                signal, steps = program.run(st, fr, steps, budget)
            except LegesError:
                raise
            except RecursionError as exc:
                raise RuleError(Diagnostic(self.failed_at(exc), "rule failed: expression nested too deeply")) from None
            except Exception as exc:  # a rule did something impossible: report where, not how Python felt
                text = str(exc) if isinstance(exc, RuleStopped) else f"rule failed: {describe_failure(exc)}"
                raise RuleError(Diagnostic(self.failed_at(exc), text, failure_hint(exc))) from None
            if steps > budget:  # the statement that went past it asked, or pushed a frame
                budget = self.next_slice(steps, program.positions[fr[1]] if fr[1] < program.size else None)
            if signal == DONE:
                frames.pop()
            elif signal == SUSPEND:
                if most and len(st.history) >= most:
                    self.cap_decisions(st)
                return steps
            elif len(frames) > MAX_FRAMES:  # PUSHED (where this frame resumes is stored), or UNWIND (the stack replaced)
                raise RuleError(Diagnostic(Position(self.game.ruleset_file),
                                           f"rules nested more than {MAX_FRAMES} deep (a procedure or trigger calling itself?)"))

    def failed_at(self, exc: BaseException) -> Position:
        """Where the statement that raised `exc` was written."""
        return failed_at(self.game.programs.files, exc.__traceback__) or Position(self.game.ruleset_file)

    def next_slice(self, steps: int, where: Position | None) -> int:
        """The step count at which to look at the game's budget again, once it is looked at now; past
        limits.max_steps, the action's error."""
        limit = self.game.max_steps
        if steps > limit:
            raise RuleError(Diagnostic(where or Position(self.game.ruleset_file), f"rules ran more than {limit} steps for one action",
                                       "a loop that never ends? limits.max_steps raises the bound"))
        self.game.meter.check(steps)
        return min(steps + SLICE, limit)

    def cap_decisions(self, st) -> None:
        """A decision is asked for: past `limits.max_decisions` the game ends unfinished instead, as
        at the turn limit (a turn may ask again and again and never end)."""
        if st.pending is not None and self.game.max_decisions and len(st.history) >= self.game.max_decisions:
            st.unfinished = True
            st.ending = {"kind": "max_decisions", "decisions": len(st.history)}
            self.finish(st)

    # ---------------------------------------------------------------- flow
    def advance_checked(self, st) -> None:
        """Nothing left to run: move the flow on (start the game, next turn, next phase), with a failing
        `first`, `order` or `end_if` reported at the phase, not as a traceback."""
        try:
            if self.game.key_slots[TURN_ID]:  # values read from the phase, the player or the turn number
                st.changed(TURN_ID)
                self._advance(st)
                st.changed(TURN_ID)  # they changed (end_if may have read them)
            else:
                self._advance(st)
        except LegesError:
            raise
        except Exception as exc:
            phase = self.game.phases.get(st.phase) if st.phase else None
            where = phase.position if phase is not None else Position(self.game.ruleset_file)
            raise RuleError(Diagnostic(where, f"phase '{st.phase}': {describe_failure(exc)}",
                                       "check the phase's first, order and end_if expressions")) from None

    def _advance(self, st) -> None:
        flow = st.flow
        if flow == "setup":
            self.enter(st, self.game.first_phase)
            return
        phase = self.game.phases[st.phase]
        if flow == "begin":
            self.start_turns(st, phase)
        elif flow == "turn":
            if phase.next_turn is not None:
                phase.next_turn(st, self)
            else:
                self.after_turn(st, phase)
        elif flow == "end":
            nxt = st.next_phase or phase.next
            st.next_phase = None
            if nxt is None or nxt == "end":
                self.finish(st)
            else:
                self.enter(st, nxt)
        else:
            self.finish(st)

    def enter(self, st, phase_id: str) -> None:
        phase = self.game.phases[phase_id]
        st.phase = phase_id
        st.flow = "begin"
        st.turn_queue = None
        st.ending = None
        st.dropped = []  # every player takes part in a phase that begins
        self.reset(st, self.game.phase_vars)
        if phase.on_begin:
            st.frames.append([phase.on_begin, 0, {"me": None}])

    def start_turns(self, st, phase) -> None:
        if not phase.turn:
            self.end_phase(st)
            return
        st.flow = "turn"
        env = {"me": None}
        if phase.order_fn is not None:
            queue = list(phase.order_fn(st, env))
            if st.dropped:  # dropped out in on_begin
                queue = [p for p in queue if p not in st.dropped]
            if not queue:
                self.end_phase(st)
                return
            st.turn_player = queue[0]
            st.turn_queue = queue[1:]
        elif phase.first_fn is not None:
            st.turn_player = phase.first_fn(st, env)
        if not isinstance(st.turn_player, int) or isinstance(st.turn_player, bool) or not 0 <= st.turn_player < st.n:
            where = phase.first_position if phase.order_fn is None else phase.position
            raise RuleError(Diagnostic(where, f"phase '{phase.id}': the first player is {st.turn_player!r} (none, or no player)",
                                       "first: must give a player"))
        if st.dropped and st.turn_player in st.dropped:
            if not self.next_in(st, phase, st.turn_player):
                self.end_phase(st)
                return
        self.start_turn(st, phase)

    def start_turn(self, st, phase) -> None:
        if self.game.turn_vars:
            self.reset(st, self.game.turn_vars)
        st.frames.append([phase.turn, 0, {"me": st.turn_player}])

    @staticmethod
    def reset(st, scoped) -> None:
        """Variables declared with `scope: turn` (or `phase`) take their initial value again."""
        var_ids = st.game.var_ids
        for name, per_player, initial in scoped:
            st.changed(var_ids[name])
            if per_player:
                st.vars[name] = [list(initial) if isinstance(initial, list) else initial for _ in range(st.n)]
            else:
                st.vars[name] = list(initial) if isinstance(initial, list) else initial

    @staticmethod
    def next_in(st, phase, after: int) -> bool:
        """Make the turn player the next one after `after` who has not dropped out (in the phase's
        direction); False if every player has."""
        for k in range(1, st.n + 1):
            p = (after + k * phase.direction) % st.n
            if p not in st.dropped:
                st.turn_player = p
                return True
        return False

    def after_turn(self, st, phase) -> None:
        """A turn of the phase is over: the game out of turns, the phase's end, or the next turn.
        (Generated for each phase as `phase.next_turn`, turn_source; this is the reference build's.)"""
        st.turn_count += 1
        if self.game.max_turns and st.turn_count >= self.game.max_turns:
            self.out_of_turns(st)
            return
        if phase.end_if is not None and phase.end_if(st, {"me": None}):
            st.ending = {"kind": "end_if", "phase": phase.id}
            self.end_phase(st)
            return
        self.next_player(st, phase)

    def out_of_turns(self, st) -> None:
        """limits.max_turns: the game ends unfinished."""
        st.unfinished = True
        st.ending = {"kind": "max_turns", "turns": st.turn_count}
        self.finish(st)

    def next_player(self, st, phase) -> None:
        """The phase goes on: its next player (by its queue, or round the table past those who
        dropped out) begins a turn, or the phase ends when nobody is left."""
        if st.turn_queue is not None:
            while st.turn_queue and st.dropped and st.turn_queue[0] in st.dropped:
                st.turn_queue.pop(0)
            if not st.turn_queue:
                self.end_phase(st)
                return
            st.turn_player = st.turn_queue.pop(0)
        elif not st.dropped:
            st.turn_player = (st.turn_player + phase.direction) % st.n
        elif not self.next_in(st, phase, st.turn_player):  # every player has dropped out
            self.end_phase(st)
            return
        self.start_turn(st, phase)

    def end_phase(self, st) -> None:
        st.flow = "end"
        st.sealed.clear()  # secret commitments of the phase are revealed with its end
        phase = self.game.phases[st.phase] if st.phase else None
        if phase is not None and phase.on_end:
            st.frames.append([phase.on_end, 0, {"me": None}])

    def finish(self, st) -> None:
        if st.ending is None:  # the last phase ended otherwise: its turns used up, `end phase`, no turns
            st.ending = {"kind": "last_phase", "phase": st.phase}
        st.terminal = True
        st.flow = "over"
        st.frames.clear()
        st.pending = None


def turn_source(name: str, phase, game) -> str:
    """The source of `phase.next_turn(st, flow)`: Flow.after_turn for this phase, its end_if and
    direction written in, the variables of the turn reset and the next turn's frame pushed
    directly; the less common roads (a queue of players, players dropped out) through the flow."""
    lines = [f"def {name}(st, flow):", "    st.turn_count += 1"]
    lines += ["    most = st.game.max_turns", "    if most and st.turn_count >= most:", "        flow.out_of_turns(st)", "        return"]
    if phase.end_if_code is not None:
        lines += ["    env = {'me': None}", f"    if {phase.end_if_code}:",
                  f"        st.ending = {{'kind': 'end_if', 'phase': {phase.id!r}}}", "        flow.end_phase(st)", "        return"]
    lines += ["    if st.turn_queue is not None or st.dropped:",
              f"        flow.next_player(st, st.game.phases[{phase.id!r}])", "        return",
              f"    st.turn_player = (st.turn_player + {phase.direction}) % st.n"]
    if game.turn_vars:
        lines.append("    flow.reset(st, st.game.turn_vars)")
    lines.append(f"    st.frames.append([{phase.turn!r}, 0, {{'me': st.turn_player}}])")
    return "\n".join(lines) + "\n"
