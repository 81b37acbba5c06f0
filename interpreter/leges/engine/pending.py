"""The decision the rules ask for at a state, computed afresh from its rules rather than taken from it.

Apart from saved_state.py (which reads saved states and needs the State class) so that what asks
for it — the seat's explanations, the leak check — depends on nothing that depends back on it.
"""
from __future__ import annotations

from .constants import SUSPEND
from .decision import Pending


def recompute_pending(st) -> Pending | None:
    """The decision the rules ask for now, computed afresh by running again (on a copy) the instruction
    that suspended; None if no decision arises there. Raises what the instruction raises.

    This is how the engine itself recomputes a decision after an out-of-turn action: the waiting
    instruction runs again with the same locals. It is what makes a saved or resampled state's
    options the rules' own.
    """
    if not st.frames:
        return None
    trial = st.copy()
    trial.pending = None
    frame = trial.frames[-1]
    pc = frame[1]
    signal, _ = st.game.codes[frame[0]].run(trial, frame, 0, st.game.max_steps)
    return trial.pending if signal == SUSPEND and frame[1] == pc else None
