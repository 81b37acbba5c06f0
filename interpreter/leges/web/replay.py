"""A record stepped through in the page: the states along it, kept every CHECKPOINT steps."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..text.errors import Diagnostic, LegesError, Position
from .match import OBJECT_BYTES

CHECKPOINT = 25  # a replay keeps every 25th state, and replays forward from the nearest


@dataclass
class Replay:
    id: str
    record: dict
    name: str = "record"
    checkpoints: dict = field(default_factory=dict)  # step → state
    steps: int = 0  # the steps that can be shown (all, unless an action is not legal)
    error: str | None = None
    game: Any = None  # the workspace's: played on under Workspace.engine
    base_weight: int = 0
    told: dict = field(default_factory=dict)  # steps → the log lines written by the last of them (render/view.told_view)

    def weight(self) -> int:
        return self.base_weight * len(self.checkpoints) + 64 * len(self.record["actions"])

    def current(self, game) -> Replay:
        if game is not None and game is not self.game:
            self.rebuild(game)
        return self

    def rebuild(self, game) -> None:
        self.game = game
        record = self.record
        if record.get("ruleset") != game.id:
            raise LegesError(Diagnostic(Position(self.name), f"the record is of '{record.get('ruleset')}', not of '{game.id}'"))
        if not game.min_players <= record["players"] <= game.max_players:
            raise LegesError(Diagnostic(Position(self.name), f"the record's game has {record['players']} players; "
                                        f"{game.title} is for {game.min_players} to {game.max_players}"))
        st = game.new_initial_state(players=record["players"], seed=record["seed"],
                                    explicit_chance=bool(record.get("explicit_chance", False)))
        self.checkpoints = {0: st.copy()}
        from ..render.view import new_lines
        self.told = {0: list(st.log)} if st.log else {}
        self.base_weight = OBJECT_BYTES * len(st.to_json())
        self.error = None
        actions = record["actions"]
        for i, text in enumerate(actions):
            before = list(st.log)
            try:
                st.apply_action(text)
            except LegesError as exc:
                self.error = f"action {i + 1} of the record cannot be replayed: {exc.diagnostics[0].message}"
                self.steps = i
                return
            lines = new_lines(before, st.log)
            if lines:
                self.told[i + 1] = lines
            if (i + 1) % CHECKPOINT == 0:
                self.checkpoints[i + 1] = st.copy()
        self.steps = len(actions)
        from ..lab.records import check_result
        try:  # a result its actions do not give: the record was edited, or is of other rules
            check_result(record, st, self.name)
        except LegesError as exc:
            self.error = exc.diagnostics[0].message

    def state_at(self, step: int):
        step = max(0, min(step, self.steps))
        base = max(k for k in self.checkpoints if k <= step)
        st = self.checkpoints[base].copy()
        for text in self.record["actions"][base:step]:
            st.apply_action(text)
        return st


def read_record_text(text: str, name: str) -> dict:
    """A record sent to the page, checked field by field as a record file is (records.py)."""
    from ..lab.records import record_from_text
    return record_from_text(text, name)


