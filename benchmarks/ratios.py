"""How fast Leges is relative to games written by hand, and relative to itself across games.

    python benchmarks/ratios.py              # about a minute and a half of CPU time
    python benchmarks/ratios.py --quick      # about half a minute, rougher
    python benchmarks/ratios.py --json       # machine-readable
    python benchmarks/playouts.py --ratios   # the same

Absolute speeds depend on the machine and on what else runs on it; ratios measured side by
side do much less. So every case runs in this one process, pinned to one core, timed in CPU
time (`time.process_time`), and the cases take turns in short batches (about a quarter of a
second each, round after round), so that a busy spell on the machine falls on all of them
alike. Reported:

- Pompeii, 2/3/4 players: random play-outs per second of Leges ÷ those of the plain hand-written
  Pompeii in `../shared/bench/pompeii_ref.py` when it is beside the project (the honest yardstick:
  integer squares and counts, no texts; a measuring instrument, run from its own file, never
  copied; within 3 % as many decisions a game as the bundled ruleset), and ÷ those of the project's
  own reference (benchmarks/reference/pompeii.py: the same rules, decisions and action texts,
  checked by tests/test_reference_pompeii.py), which pays for texts at the edge.
- Tic-Tac-Toe: steps (applied actions) per second of Leges ÷ those of OpenSpiel's pure-Python
  `python_tic_tac_toe` when installed (`pip install -e '.[bench]'`), else of the hand-written
  reference (benchmarks/reference/tictactoe.py); the table says which. Leges takes a forced
  last move by itself, OpenSpiel counts it as a step, so play-outs per second are shown too.
  With OpenSpiel installed, also ÷ its C++ `tic_tac_toe` through pyspiel (the fastest honest
  yardstick: compiled rules, a Python loop choosing the moves, as Leges' own loop does).
- Attika and Alexander: Leges' actions per second ÷ Leges' Pompeii 3-player actions per second
  in the same run (how much dearer a step of those rules is), all counted ten actions at a time
  of a running game, so that Attika's slow games still take turns quickly.
- MCTS-style iterations per second for every bundled game: from a mid-game position, copy the
  state, apply a random legal action, play at random to the end.

Random play-outs choose uniformly among the options of the decision at hand (Leges' fast path,
`state.pending.options` and `apply_option`, when the interpreter has it; else
`legal_actions()`). The Pompeii reference also offers a four-joker declaration to the player
deciding, as `legal_actions()` does; random play almost never meets one.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:
    import leges
except ImportError:  # not installed: use the source tree
    sys.path.insert(0, str(ROOT / "interpreter"))
    import leges

BATCH_SECONDS = 0.25


SHARED_BENCH = ROOT.parent / "shared" / "bench" / "pompeii_ref.py"


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_reference(name: str):
    """A module of benchmarks/reference/, loaded from its file (benchmarks/ is not a package)."""
    return load_module(ROOT / "benchmarks" / "reference" / f"{name}.py", f"reference_{name}")


def shared_yardstick():
    """`../shared/bench/pompeii_ref.py`, run where it lies; None when it is not beside the project."""
    return load_module(SHARED_BENCH, "shared_pompeii_ref") if SHARED_BENCH.is_file() else None


# ------------------------------------------------------------------ playing at random
def _has_fast_path(game, players: int) -> bool:
    """Whether the interpreter still exposes its pending options and `apply_option`."""
    try:
        st = game.new_initial_state(players=players, seed=0)
        return isinstance(st.pending.options, list) and callable(st.apply_option)
    except (AttributeError, KeyError, TypeError):
        return False


def random_step(st, rng: random.Random, fast: bool) -> None:
    if fast:
        st.apply_option(rng.randrange(len(st.pending)))
    else:
        st.apply_action(rng.choice(st.legal_actions()))


def leges_playouts(game, players: int, fast: bool) -> Callable[[int], tuple[int, int]]:
    """fn(seed) -> (1 game, actions applied)."""
    def play(seed: int) -> tuple[int, int]:
        st = game.new_initial_state(players=players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not st.is_terminal():
            random_step(st, rng, fast)
            steps += 1
        return 1, steps
    return play


def leges_actions(game, players: int, fast: bool, chunk: int = 10) -> Callable[[int], tuple[int, int]]:
    """fn(seed) -> (actions, actions): `chunk` random actions of one long-running game (a new
    game when it ends), so that batches of slow games stay short."""
    live: dict = {}

    def play(seed: int) -> tuple[int, int]:
        if "state" not in live or live["state"].is_terminal():
            live["state"] = game.new_initial_state(players=players, seed=seed)
            live["rng"] = random.Random(seed)
        st, rng = live["state"], live["rng"]
        steps = 0
        while steps < chunk and not st.is_terminal():
            random_step(st, rng, fast)
            steps += 1
        return steps, steps
    return play


def reference_playouts(module, players: int) -> Callable[[int], tuple[int, int]]:
    """fn(seed) -> (1 game, actions applied); by index where the reference has that fast path
    (Pompeii's: the same random draws, so the same games, as choosing among its texts)."""
    def play(seed: int) -> tuple[int, int]:
        game = module.new_game(players, seed)
        rng = random.Random(seed)
        steps = 0
        if hasattr(game, "apply_index"):
            while not game.terminal:
                game.apply_index(rng.randrange(game.legal_count()))
                steps += 1
        else:
            while not game.terminal:
                game.apply(rng.choice(game.legal()))
                steps += 1
        return 1, steps
    return play


def yardstick_playouts(module, players: int) -> Callable[[int], tuple[int, int]]:
    """fn(seed) -> (1 game, its decisions), through the yardstick's own `run_games`."""
    def play(seed: int) -> tuple[int, int]:
        stats = module.run_games(players, 1, seed)
        return stats["games"], stats["decisions"]
    return play


def openspiel_playouts(spiel_game) -> Callable[[int], tuple[int, int]]:
    def play(seed: int) -> tuple[int, int]:
        state = spiel_game.new_initial_state()
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return 1, steps
    return play


def mid_game(game, players: int, fast: bool, seed: int = 1):
    """The position halfway through a random game (replayed with the same seed)."""
    play = leges_playouts(game, players, fast)
    _, length = play(seed)
    st = game.new_initial_state(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(length // 2):
        random_step(st, rng, fast)
    return st


def mcts_iterations(root, fast: bool) -> Callable[[int], tuple[int, int]]:
    """fn(seed) -> (1 iteration, actions applied): copy, one random action, random roll-out."""
    def iterate(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        st = root.copy()
        steps = 0
        while not st.is_terminal():
            random_step(st, rng, fast)
            steps += 1
        return 1, steps
    return iterate


# ------------------------------------------------------------------ measuring in turns
@dataclass
class Runner:
    """One thing to time: a function of a seed, run in batches; totals kept across batches."""
    name: str
    fn: Callable[[int], tuple[int, int]]
    seed: int = 0
    units: int = 0
    steps: int = 0
    seconds: float = 0.0
    batches: list = field(default_factory=list)  # (units, steps, seconds) of each batch

    def batch(self, seconds: float) -> None:
        units = steps = 0
        start = time.process_time()
        while True:
            u, s = self.fn(self.seed)
            self.seed += 1
            units += u
            steps += s
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                break
        self.units += units
        self.steps += steps
        self.seconds += elapsed
        self.batches.append((units, steps, elapsed))

    @property
    def per_second(self) -> float:
        return self.units / self.seconds if self.seconds else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def round_ratios(a: Runner, b: Runner, steps: bool = False) -> list[float]:
    """The ratio of a's rate to b's in each round (their batches ran side by side)."""
    k = 1 if steps else 0
    return [(x[k] / x[2]) / (y[k] / y[2]) for x, y in zip(a.batches, b.batches) if x[2] and y[2] and y[k]]


def pin_to_one_core() -> int | None:
    """Pin this process to the core it runs on now (Linux); None where that cannot be done."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:  # field 39 of /proc/self/stat: the CPU last run on (the scheduler's choice, likely idle)
        cpu = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[36])
    except (OSError, ValueError, IndexError):
        cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


# ------------------------------------------------------------------ the cases
def build() -> tuple[list[Runner], dict]:
    """Every runner, and how to read them (pairs to divide, MCTS runners)."""
    pompeii_ref = load_reference("pompeii")
    yardstick = shared_yardstick()
    ttt_ref = load_reference("tictactoe")
    games = {name: leges.load(str(ROOT / "rulesets" / name)) for name in ("pompeii", "attika", "alexander", "tictactoe")}
    fast = _has_fast_path(games["pompeii"], 3)
    runners: dict[str, Runner] = {}

    def add(name: str, fn) -> Runner:
        runners[name] = Runner(name, fn)
        return runners[name]

    for n in (2, 3, 4):
        add(f"leges pompeii {n}p", leges_playouts(games["pompeii"], n, fast))
        add(f"reference pompeii {n}p", reference_playouts(pompeii_ref, n))
        if yardstick is not None:
            add(f"yardstick pompeii {n}p", yardstick_playouts(yardstick, n))
    add("leges tictactoe", leges_playouts(games["tictactoe"], 2, fast))
    add("hand-written tictactoe", reference_playouts(ttt_ref, 2))
    spiel = _openspiel_tictactoe()
    if spiel is not None:
        add("openspiel tictactoe", openspiel_playouts(spiel[0]))
        add("openspiel c++ tictactoe", openspiel_playouts(spiel[1]))
    add("leges pompeii 3p actions", leges_actions(games["pompeii"], 3, fast))
    for name, n in (("attika", 2), ("attika", 4), ("alexander", 3), ("alexander", 5)):
        add(f"leges {name} {n}p", leges_actions(games[name], n, fast))
    mcts = []
    for name, game in games.items():
        n = 2 if name == "tictactoe" else min(max(3, game.min_players), game.max_players)
        mcts.append(add(f"mcts {name} {n}p", mcts_iterations(mid_game(game, n, fast), fast)))
    plan = {"fast_path": fast, "yardstick": yardstick is not None,
            "tictactoe_reference": "OpenSpiel python_tic_tac_toe" if spiel is not None else "hand-written",
            "mcts": mcts}
    return list(runners.values()), plan


def _openspiel_tictactoe() -> tuple | None:
    """OpenSpiel's Tic-Tac-Toe in pure Python and its C++ one through pyspiel, or None when
    OpenSpiel is not installed."""
    try:
        import open_spiel.python.games  # noqa: F401  (registers the pure-Python games)
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("python_tic_tac_toe"), pyspiel.load_game("tic_tac_toe")


def measure(runners: list[Runner], rounds: int, batch_seconds: float) -> None:
    for runner in runners:  # warm-up: caches, first compilations
        runner.batch(batch_seconds / 4)
        runner.units = runner.steps = 0
        runner.seconds = 0.0
        runner.batches.clear()
    for r in range(rounds):
        order = runners if r % 2 == 0 else list(reversed(runners))  # neither side always goes first
        for runner in order:
            runner.batch(batch_seconds)


def report(runners: list[Runner], plan: dict) -> dict:
    by = {r.name: r for r in runners}

    def ratio(a: str, b: str, steps: bool = False) -> dict:
        ra, rb = by[a], by[b]
        va = ra.steps_per_second if steps else ra.per_second
        vb = rb.steps_per_second if steps else rb.per_second
        per_round = round_ratios(ra, rb, steps)
        out = {"leges": va, "other": vb, "ratio": va / vb if vb else None}
        if per_round:
            out["round_min"], out["round_max"] = min(per_round), max(per_round)
            out["round_median"] = statistics.median(per_round)
        return out

    result: dict = {"fast_path": plan["fast_path"], "pompeii_vs_yardstick": {}, "pompeii": {}, "tictactoe": {}, "relative_to_pompeii_3p": {},
                    "mcts_iterations_per_second": {}}
    for n in (2, 3, 4):
        result["pompeii"][f"{n}p"] = ratio(f"leges pompeii {n}p", f"reference pompeii {n}p")
        if plan["yardstick"]:
            result["pompeii_vs_yardstick"][f"{n}p"] = ratio(f"leges pompeii {n}p", f"yardstick pompeii {n}p")
            result["pompeii_vs_yardstick"][f"reference {n}p"] = ratio(f"reference pompeii {n}p", f"yardstick pompeii {n}p")
    ttt_other = "openspiel tictactoe" if "openspiel tictactoe" in by else "hand-written tictactoe"
    result["tictactoe"] = {
        "reference": plan["tictactoe_reference"],
        "steps_per_second": ratio("leges tictactoe", ttt_other, steps=True),
        "playouts_per_second": ratio("leges tictactoe", ttt_other),
    }
    if ttt_other != "hand-written tictactoe":
        result["tictactoe"]["hand_written_steps_per_second"] = ratio("leges tictactoe", "hand-written tictactoe", steps=True)
    if "openspiel c++ tictactoe" in by:
        result["tictactoe"]["cpp_playouts_per_second"] = ratio("leges tictactoe", "openspiel c++ tictactoe")
    for name in ("attika 2p", "attika 4p", "alexander 3p", "alexander 5p"):
        result["relative_to_pompeii_3p"][name] = ratio(f"leges {name}", "leges pompeii 3p actions", steps=True)
    for runner in plan["mcts"]:
        result["mcts_iterations_per_second"][runner.name.removeprefix("mcts ")] = {
            "iterations_per_second": runner.per_second, "actions_per_second": runner.steps_per_second}
    return result


def print_table(result: dict, rounds: int, cpu: int | None) -> None:
    where = f"pinned to core {cpu}" if cpu is not None else "not pinned"
    path = "" if result["fast_path"] else "; no fast path: legal_actions/apply_action"
    print(f"Leges speed ratios: {rounds} round{'s' * (rounds != 1)} of interleaved batches, CPU time, one process {where}{path}")

    def head(title: str, a: str = "Leges", b: str = "other") -> None:
        print(f"\n{title}\n  {'':44} {a:>10} {b:>10} {'ratio':>7}   per round (min-max)")

    def row(label: str, r: dict) -> None:
        spread = f"{r['round_min']:.3f}-{r['round_max']:.3f}" if "round_min" in r else ""
        print(f"  {label:44} {r['leges']:10.1f} {r['other']:10.1f} {r['ratio']:7.3f}   {spread}")

    if result["pompeii_vs_yardstick"]:
        head("Pompeii play-outs/s, Leges / plain hand-written (../shared/bench/pompeii_ref.py)")
        for n, r in result["pompeii_vs_yardstick"].items():
            if not n.startswith("reference"):
                row(f"{n[:-1]} players", r)
        for n, r in result["pompeii_vs_yardstick"].items():
            if n.startswith("reference"):
                row(f"benchmarks/reference/pompeii.py, {n.split()[1][:-1]} players", r)
    else:
        print("\n(../shared/bench/pompeii_ref.py is not beside the project: the honest yardstick is left out)")
    head("Pompeii play-outs/s, Leges / hand-written with texts (benchmarks/reference/pompeii.py)")
    for n, r in result["pompeii"].items():
        row(f"{n[:-1]} players", r)
    ttt = result["tictactoe"]
    head(f"Tic-Tac-Toe, Leges / {ttt['reference']}")
    row("steps/s", ttt["steps_per_second"])
    row("play-outs/s", ttt["playouts_per_second"])
    if "hand_written_steps_per_second" in ttt:
        row("steps/s, Leges / hand-written", ttt["hand_written_steps_per_second"])
    if "cpp_playouts_per_second" in ttt:
        row("play-outs/s, Leges / OpenSpiel C++ tic_tac_toe", ttt["cpp_playouts_per_second"])
    head("Actions/s of Leges, game / Pompeii 3 players", "game", "Pompeii")
    for name, r in result["relative_to_pompeii_3p"].items():
        game, players = name.split()
        row(f"{game.capitalize()} {players[:-1]} players", r)
    print(f"\nMCTS-style iterations from mid-game (copy, random action, random roll-out)\n"
          f"  {'':44} {'iter/s':>10} {'actions/s':>10}")
    titles = {"pompeii": "Pompeii", "attika": "Attika", "alexander": "Alexander", "tictactoe": "Tic-Tac-Toe"}
    for name, r in result["mcts_iterations_per_second"].items():
        game, players = name.split()
        label = f"{titles.get(game, game)} {players[:-1]} players"
        print(f"  {label:44} {r['iterations_per_second']:10.1f} {r['actions_per_second']:10.0f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds (rougher)")
    parser.add_argument("--rounds", type=int, help="rounds of batches (default 12, quick 4)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one core")
    args = parser.parse_args(argv)
    cpu = None if args.no_pin else pin_to_one_core()
    rounds = args.rounds or (4 if args.quick else 12)
    batch = BATCH_SECONDS / 2 if args.quick else BATCH_SECONDS
    runners, plan = build()
    measure(runners, rounds, batch)
    result = report(runners, plan)
    result.update({"rounds": rounds, "batch_seconds": batch, "core": cpu})
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print_table(result, rounds, cpu)


if __name__ == "__main__":
    main()
