"""A compiled game: what the interpreter runs, built once per ruleset (and set of variants)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..lang.optimise import memo as memo_keys
from . import rng as R
from .board_index import board_index
from .budget import DEFAULT_BUDGET, GameBudget, Meter
from .flow import Flow
from .program.generate import Program
from .state import State

Fn = Callable[[Any, dict], Any]


@dataclass
class CompiledAction:
    id: str
    code_id: str
    options: Callable  # generated: fn(st, player, args) -> every legal choice as [text, id, params, args]
    anytime: bool
    decl: Any = None
    secret: bool = False
    param_types: dict = field(default_factory=dict)  # parameter → the static type of its values, in order


@dataclass
class CompiledTrigger:
    id: str
    event: str
    condition: Fn | None
    code_id: str


@dataclass
class CompiledPhase:
    id: str
    first_fn: Fn | None
    order_fn: Fn | None
    direction: int
    on_begin: str | None
    turn: str | None
    end_if: Fn | None
    on_end: str | None
    next: str | None
    position: Any = None
    first_position: Any = None
    end_if_code: str | None = None  # end_if's Python source (the generated turn-to-turn step inlines it)
    next_turn: Callable[[Any, Any], None] | None = None  # after a turn, generated (flow.py turn_source); None: Flow.after_turn


@dataclass
class Setup:
    """What depends on the number of players: the components, the zones, the seats."""

    n: int
    seat_names: list[str]
    seat_props: list[dict]
    ctype: list[str] = field(default_factory=list)
    cowner: list = field(default_factory=list)
    cstatic: list[dict] = field(default_factory=list)
    clabel: list[str] = field(default_factory=list)
    # each component's kind: one number for the components alike in type, owner and fixed properties
    # (the cache key of a function reading only fixed properties of it; traded with them by a re-deal)
    ckind: list[int] = field(default_factory=list)
    zkeys: dict[str, list[str]] = field(default_factory=dict)
    zrow: dict[str, int] = field(default_factory=dict)  # a row of zones for each player: its length
    zone_owner: dict[str, int] = field(default_factory=dict)
    zone_kind: dict[str, str] = field(default_factory=dict)
    zone_visibility: dict[str, str] = field(default_factory=dict)
    zone_order: list[str] = field(default_factory=list)
    zone_read: dict[str, memo_keys.Read] = field(default_factory=dict)  # zone → its read key (lang/optimise/memo.py: zone:NAME)
    # zone or board space → the id of its read key (memo.UNREAD's for a space): what a move there changes
    zone_ids: dict[str, int] = field(default_factory=dict)
    initial: dict[str, list[int]] = field(default_factory=dict)
    by_type: dict[str, list[int]] = field(default_factory=dict)
    by_owner: dict[tuple, list[int]] = field(default_factory=dict)  # (type, owner) → components
    spaces: frozenset = frozenset()  # the board's spaces, which are zones too
    unseen: dict[int, tuple] = field(default_factory=dict)  # player → the zones it may not see all of (resample.py)


class Game:
    """A playable game: `new_initial_state(players, seed)` starts one."""

    def __init__(self):
        self.id = ""
        self.version = ""
        self.title = ""
        self.variants: tuple = ()  # the ids of the variants applied
        self.variant_requests: tuple = ()  # ... as requested, with their parameters' values: a record replays them
        self.optimised = True  # False: the reference build (leges.load(..., optimise=False))
        self.ruleset = None
        self.board = None
        self.ruleset_file = ""
        self.min_players = 1
        self.max_players = 1
        self.codes: dict[str, Program] = {}  # every compiled program by its code id (engine/program/generate.py)
        self.actions: dict[str, CompiledAction] = {}
        self.words = None  # the phrases and display names (engine/words.py), set when built
        self.anytime: list[CompiledAction] = []
        self.index_board = False  # whether states keep the components on the board (engine/board_index.py)
        self.ask_alone: frozenset[str] = frozenset()  # actions asked even as a decision's only option (`ask_alone: true`)
        self.secret_actions: frozenset[str] = frozenset()  # actions whose choice is sealed (`secret: true`)
        self.listeners: dict[str, list[CompiledTrigger]] = {}
        self.phases: dict[str, CompiledPhase] = {}
        self.first_phase: str | None = None
        self.setup_code: str | None = None
        self.score_fn: Fn | None = None
        self.score_position = None
        self.tiebreak_fns: list[Fn] = []
        self.variables: dict[str, tuple[bool, Any]] = {}  # id → (per player, initial)
        self.variable_visibility: dict[str, str] = {}
        self.turn_vars: list = []  # (id, per player, initial) of the variables reset at every turn, and every phase
        self.phase_vars: list = []
        self.max_steps = 1_000_000
        self.max_loop = 10_000
        self.max_turns = 0
        self.max_decisions = 0
        self.max_work = 10_000_000
        self.max_options = 100_000  # options one action or choose may offer at a decision
        self.work = self.max_work  # what is left of the current action's work budget (lang/runtime.each)
        self.meter = Meter(self)  # hands it out, and looks at the game's budget (engine/budget.py)
        # the budget of a state whose maker names none: a new game, a loaded one and the replays that
        # check it, a resampled world replayed from its seed (authoring/conformance.py sets one
        # without seconds, so that no equivalence check depends on the machine's load)
        self.budget: GameBudget = DEFAULT_BUDGET
        self.flow = Flow(self)
        self._setups: dict[int, Setup] = {}
        self._prototypes: dict[int, State] = {}  # per number of players: the state before its set-up (_initial)
        self._started_states: dict[tuple[int, bool], State | None] = {}  # ... and at its first decision (_keep_started)
        self.setup_builder: Callable[[int], Setup] | None = None
        self.approximations: list = []
        self.invariants: list = []  # (id, fn, declaration)
        self.heuristics: dict[str, Fn] = {}  # id → fn(st, {"p": player}) — a player's estimated value
        self.statistics: list = []  # (id, per player, fn) — figures measured at the end of a game
        self.measures: list = []  # measures.Measure — statistics measured along a game
        self.highlights: list = []  # (id, fn, shape, when, colour) — spaces the pictures mark (render/highlights.py)
        self.positions: dict = {}  # "heuristic:ID", "statistic:ID": where its value is written
        # memoised functions (lang/optimise/memo.py): how many, and which a change of the state invalidates
        self.memo_size = 0
        self.place_slots: dict[str, tuple[tuple, tuple]] = {}  # component type → (off the board, on it)
        # read key's id (memo.MemoTable.ids: var:NAME, zone:NAME, turn, ...) → the slots reading it
        self.key_slots: list[tuple] = []
        self.var_ids: dict[str, int] = {}  # game variable → the id of its read key (var:NAME)
        self.cprop_ids: dict[str, int] = {}  # changing property of components → the id of cprop:NAME
        self.sprop_ids: dict[str, int] = {}  # changing property of spaces → the id of sprop:NAME
        self.prop_near_slots: dict[str, tuple] = {}  # space property → its near slots (memo.py)
        # slots of functions reading nothing that changes: one cache for all states with the same
        # number of players (the components, hence their ids, depend on it)
        self.constant_slots: set[int] = set()
        self.shared_memo: dict[int, dict[int, dict]] = {}  # players → slot → values
        self.compiler = None  # kept to compile scenarios' expressions and programs
        self.programs = None
        self.warnings: list = []

    # ------------------------------------------------- extra rules (scenarios, checks)
    def compile_expression(self, text, me: bool = False, player: bool = False):
        """Check and compile one more expression against this game's names (e.g. a scenario's);
        `player`: of a player `p`, as a heuristic is (a `Text`, or plain text of no file)."""
        from ..text.errors import Collector
        from ..lang.check import types as T
        from ..lang.check.scope import Scope
        if isinstance(text, str):
            text = _plain_text(text)
        errors = Collector()
        self.compiler.errors = errors
        scope = Scope({"p": T.PLAYER}, me=me) if player else Scope(me=me)
        ty, fn = self.compiler.parse_expr(text, scope)
        if player and not T.numeric(ty):
            errors.error(text.at.position(), f"a player's value must be a number, not {ty}")
        errors.raise_if_errors()
        if not self.memo_grew():
            return fn
        self.index_memo()  # the expression called functions no rule had called with such arguments

        def grown(st, env):
            st.grow_memo()
            return fn(st, env)
        return grown

    def shared_slots(self, players: int) -> dict[int, dict]:
        """The caches of the functions reading nothing that changes, for games of `players` players."""
        shared = self.shared_memo.setdefault(players, {})
        for i in self.constant_slots:
            shared.setdefault(i, {})
        return shared

    def memo_grew(self) -> bool:
        """Whether rules compiled since `index_memo` (a scenario's, an explanation's) added memoised
        functions, or read keys a change names at run time: then it must run again."""
        table = self.compiler.memo
        return len(table.keys) != self.memo_size or len(table.ids) != len(self.key_slots)

    def index_memo(self) -> None:
        """Which memoised functions each change of the state invalidates (see lang/optimise/memo.py)."""
        table = self.compiler.memo
        sym = self.compiler.symbols
        self.memo_size = len(table.keys)
        # functions that read nothing that changes: one cache for every state of this game
        # (fixed properties of components never change in a game: only a resampled world trades them)
        self.constant_slots = {i for i, keys in enumerate(table.keys)
                               if all(k.kind in (memo_keys.ME_READ, memo_keys.STATIC) for k in keys)}
        types = set(self.place_slots) | set(self.compiler.symbols.component_types)
        self.place_slots = table.place_slots(sorted(types))
        # an id for every key a change names at run time (the turn's and UNREAD's are the table's first)
        reads = {k for ks in table.keys for k in ks}
        self.var_ids = {name: table.id_of(memo_keys.var(name)) for name in sym.variables}
        for name in sym.zones:
            table.id_of(memo_keys.zone(name))
        cprops = sym.dynamic_component_props | {k.what for k in reads if k.kind == memo_keys.CPROP}
        self.cprop_ids = {name: table.id_of(memo_keys.cprop(name)) for name in sorted(cprops)}
        sprops = set(self.compiler.dynamic_space_props) | {k.what for k in reads if k.kind == memo_keys.SPROP}
        self.sprop_ids = {name: table.id_of(memo_keys.sprop(name)) for name in sorted(sprops)}
        self.key_slots = [table.slots_reading(k) for k in table.ids]  # (ids count from 0 in the dict's order)
        self.slot_reads = list(table.keys)
        self.redeal_slots: dict[frozenset[memo_keys.Read], frozenset[int]] = {}
        props = {k.what for k in reads if k.kind == memo_keys.NEAR_PROP}
        self.prop_near_slots = {name: table.near_slots(memo_keys.NEAR_PROP, name) for name in props}

    def slots_reading(self, keys: frozenset[memo_keys.Read]) -> frozenset[int]:
        """The memo slots whose functions read any of `keys`: what a re-deal changing those forgets
        (kept per set of keys: the re-deals of one search change the same things again and again)."""
        found = self.redeal_slots.get(keys)
        if found is None:
            found = self.redeal_slots[keys] = frozenset(i for i, read in enumerate(self.slot_reads) if read & keys)
        return found

    def compile_program(self, text, code_id: str) -> str:
        from ..text.errors import Collector
        from ..lang.check.scope import Scope
        errors = Collector()
        self.compiler.errors = errors
        self.programs.parse_program(text, Scope(me=False), code_id)
        errors.raise_if_errors()
        if self.memo_grew():
            self.index_memo()  # running it grows the states' memo (Flow.run)
        for cid in self.programs.codes:  # with the procedures it compiled for new kinds of call
            if cid == code_id or cid not in self.codes:
                self.codes[cid] = self.programs.generated(cid)
        return code_id

    def check_invariants(self, st) -> list[str]:
        """Ids of the declared invariants that do not hold in `st`."""
        return [inv_id for inv_id, fn, _ in self.invariants if not fn(st, {"me": None})]

    def setup_for(self, n: int) -> Setup:
        if n not in self._setups:
            builder = self.setup_builder
            assert builder is not None, "the game is built (engine/builder) before its set-ups are asked for"
            self._setups[n] = builder(n)
        return self._setups[n]

    def new_initial_state(self, players: int | None = None, seed: int = 0, explicit_chance: bool = False,
                          run: bool = True, forced_moves: bool = False, budget: GameBudget | None = None) -> State:
        """A game at its start. `explicit_chance`: every shuffle, draw from a bag and random choice is a
        chance node; `forced_moves`: a decision with a single option is asked too (by default it is
        taken at once and appears neither in `legal_actions` nor in the history); `budget`: the most
        its rules may spend in all (engine/budget.py; default the game's `budget`), past which it ends
        unfinished — a copy of the state spends on from what the original had spent."""
        n = self.min_players if players is None else players
        if not self.min_players <= n <= self.max_players:
            from ..text.errors import Diagnostic, LegesError, Position
            raise LegesError(Diagnostic(Position(self.ruleset_file),
                                        f"{self.title} is for {self.min_players} to {self.max_players} players, not {n}"))
        budget = budget or self.budget
        key = (n, forced_moves)
        if run and not explicit_chance:
            started = self._started_states.get(key)
            if started is not None and started.spent[0] <= budget.work and started.spent[1] <= budget.seconds:
                st = started.copy()
                st.game, st.seed, st.rng = self, seed, R.seed_state(seed)
                st.budget, st.spent = budget, list(started.spent)
                st.forget_cached()  # each game its own cached values, as when its set-up runs
                return st
        st = self._initial(n).copy()  # its lists shared until written (State.writable)
        st.game = self  # (a table's private copy of the game shares the prototypes: engine/private_copy.py)
        st.seed = seed
        st.rng = R.seed_state(seed)
        st.explicit_chance, st.forced_moves = explicit_chance, forced_moves
        st.budget, st.spent = budget, [0, 0.0]
        st.forget_cached()
        if run:
            self.flow.run(st)
            if not explicit_chance and key not in self._started_states:
                self._keep_started(key, st)
        return st

    def _keep_started(self, key: tuple[int, bool], st: State) -> None:
        """Keep the state every game of this number of players stands in at its first decision, when
        its set-up drew nothing at random (an abstract game's empty board): then the seed changed
        nothing before that decision, and a new game is a copy of it rather than its set-up run
        again, which cost as much as an action (a tenth of a Tic-Tac-Toe play-out). Nothing kept
        where the set-up drew (shuffled, dealt at random), nor in the reference build, which runs
        every set-up; a set-up its budget cut short leaves the question to the next game's. Read
        off the first game's own set-up: no set-up is run for the asking."""
        if st.unfinished:
            return
        drew = st.rng != R.seed_state(st.seed)
        self._started_states[key] = None if drew or not self.optimised else st.copy()

    def _initial(self, n: int) -> State:
        """The state every game of n players begins from, before its set-up rules run (made once:
        a new game is a copy of it, which costs less than laying out its zones and variables)."""
        found = self._prototypes.get(n)
        if found is not None:
            return found
        setup = self.setup_for(n)
        st = State.__new__(State)
        st.game, st.setup, st.n = self, setup, n
        st.zones = {k: list(v) for k, v in setup.initial.items()}
        st.owned = set(st.zones)
        st.where = [""] * len(setup.ctype)
        for key, items in st.zones.items():
            for c in items:
                st.where[c] = key
        st.aboard = board_index(st)
        st.vars = {}
        for name, (per_player, initial) in self.variables.items():
            if per_player:
                st.vars[name] = [list(initial) if isinstance(initial, list) else initial for _ in range(n)]
            else:
                st.vars[name] = list(initial) if isinstance(initial, list) else initial
        st.cprops, st.sprops = {}, {}
        st.phase, st.flow = None, "setup"
        st.turn_player, st.turn_queue, st.turn_count, st.dropped = 0, None, 0, []
        st.frames = [[self.setup_code, 0, {"me": None}]] if self.setup_code else []
        st.pending = None
        st.seed, st.rng = 0, R.seed_state(0)
        st.terminal, st.unfinished, st.next_phase = False, False, None
        st.history, st.sealed, st.fired, st.log = [], [], [], []
        st.explicit_chance = False
        st.forced_moves, st.forced, st.ending, st.at_once = False, 0, None, []
        st.budget, st.spent = self.budget, [0, 0.0]
        st.memo, st.private = [], set()
        self._prototypes[n] = st
        return st

    def fresh_work(self) -> None:
        """Begin a new work budget (`limits.max_work`): each action, listing of options, heuristic,
        statistic or check spends from its own, so one heavy rule cannot starve the next."""
        self.work = self.max_work

    def state_from_json(self, text: str, name: str = "state", edited: bool = False) -> State:
        """A state saved by `to_json()`, checked against this game (engine/saved_state.py): its shape,
        ruleset, components, players; the pending options recomputed, never trusted; the invariants;
        that replaying its history from its seed gives it — unless `edited`: the caller takes a
        position set up by a program, not reached by its history (every other check still holds).
        Problems raise LegesError located in the JSON text (`name` is how the text is called)."""
        from .saved_state import load_state
        return load_state(self, text, name, edited)


def _plain_text(text: str):
    """Rule-language text written by Leges itself (a learned heuristic's feature), located in no file."""
    import json

    from ..model.decl import At, Text
    from ..text.yaml_source import load_yaml_text
    return Text(text, At(load_yaml_text(json.dumps(text), "<generated>"), ()))
