"""Pictures of a batch of games (`--plot FILE`): seat win rates with their intervals, how long games
last, how the scores spread — and for `compare`, A beside B with the differences.

matplotlib is an optional extra (`pip install 'leges[plot]'`); it draws off-screen (Agg) into
.svg or .png.
"""
from __future__ import annotations

from typing import Sequence

from ..text.errors import Diagnostic, LegesError, Position
from .metrics import summarise

COLOURS = ("#4878a8", "#e0803a")  # A, B


def _pyplot(path: str):
    if not path.lower().endswith((".svg", ".png")):
        raise LegesError(Diagnostic(Position("--plot"), f"'{path}' is neither .svg nor .png"))
    try:
        import matplotlib
    except ImportError:
        raise LegesError(Diagnostic(Position("--plot"), "drawing needs matplotlib",
                                    "pip install 'leges[plot]'")) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "leges"  # the same figure, the same file
    return plt


def _rates(ax, batches: list[tuple[str, dict]], keys: list[str], labels: list[str], fair: float, title: str) -> None:
    width = 0.8 / len(batches)
    for b, (name, measured) in enumerate(batches):
        xs = [i + (b - (len(batches) - 1) / 2) * width for i in range(len(keys))]
        values = [measured[k].value if k in measured else 0 for k in keys]
        errors = [[max(0, v - measured[k].low) if k in measured else 0 for k, v in zip(keys, values)],
                  [max(0, measured[k].high - v) if k in measured else 0 for k, v in zip(keys, values)]]
        ax.bar(xs, values, width, yerr=errors, capsize=3, label=name, color=COLOURS[b % 2])
    ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label=f"fair share {fair:.0%}")
    ax.set_xticks(range(len(keys)), [label.replace(":", "\n") for label in labels], fontsize="small")
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95 % interval)")
    ax.set_title(title)
    ax.legend(fontsize="small")


def _lengths(ax, batches: list[tuple[str, Sequence]]) -> None:
    data = [[r.length for r in results] for _, results in batches]
    ax.hist(data, bins=20, label=[name for name, _ in batches], color=list(COLOURS[:len(data)]), alpha=0.85)
    ax.set_xlabel("decisions in a game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    if len(batches) > 1:
        ax.legend(fontsize="small")


def _scores(ax, batches: list[tuple[str, Sequence]], seats: Sequence[str]) -> None:
    positions, data, colours = [], [], []
    step = len(batches) + 1
    for i, _ in enumerate(seats):
        for b, (_, results) in enumerate(batches):
            positions.append(i * step + b)
            data.append([r.scores[i] for r in results if isinstance(r.scores[i], (int, float))] or [0])
            colours.append(COLOURS[b % 2])
    parts = ax.boxplot(data, positions=positions, widths=0.7, patch_artist=True)
    for patch, colour in zip(parts["boxes"], colours):
        patch.set_facecolor(colour)
    ax.set_xticks([i * step + (len(batches) - 1) / 2 for i in range(len(seats))], list(seats))
    ax.set_ylabel("final score")
    ax.set_title("Scores by seat")


def plot_simulation(path: str, title: str, players: int, seats: Sequence[str], results: Sequence, measured: dict) -> None:
    plt = _pyplot(path)
    agents = [k for k in measured if k.startswith("agent_win_rate.")]
    panels = 4 if agents else 3
    fig, axes = plt.subplots(1, panels, figsize=(4.2 * panels, 4))
    keys = [f"seat_win_rate.{s}" for s in seats]
    _rates(axes[0], [("", measured)], keys, list(seats), 1 / players, "Seat win rate")
    axes[0].get_legend().remove()
    at = 1
    if agents:
        _rates(axes[1], [("", measured)], agents, [k.split(".", 1)[1] for k in agents], 1 / players, "Agent win rate")
        axes[1].get_legend().remove()
        at = 2
    _lengths(axes[at], [("", results)])
    _scores(axes[at + 1], [("", results)], seats)
    fig.suptitle(f"{title}: {len(results)} games, {players} players")
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)


def plot_comparison(path: str, title: str, players: int, seats: Sequence[str], names: tuple[str, str],
                    studies: Sequence) -> None:
    """A beside B, and every difference, for every set of agents (compare.Study). One set: its four
    panels in a row. Several: the sets side by side, a column each titled with its agents, the same
    panel of every set on one row and the differences on one scale — so that a difference that holds
    under one set and not another shows at a glance (drawn for the first set alone, the others were
    studied and never seen). Each difference at its size (B - A over the spread of a pair's
    difference, so that rows of different units share one axis), labelled with its value and interval
    in the metric's own units; every significant row is drawn, then others to MAX_ROWS."""
    plt = _pyplot(path)
    shown = [_shown(s.diffs) for s in studies]
    tall = max(4.2, 0.32 * max(len(x) for x in shown) + 1.2)
    several = len(studies) > 1
    if several:  # a column a set: its panels one above another
        fig, grid = plt.subplots(4, len(studies), figsize=(7.5 * len(studies), 3 * 3.6 + tall), squeeze=False,
                                 gridspec_kw={"height_ratios": [3.6, 3.6, 3.6, tall]})
        columns = [grid[:, i] for i in range(len(studies))]
    else:
        fig, grid = plt.subplots(1, 4, figsize=(19, tall), squeeze=False, gridspec_kw={"width_ratios": [1, 1, 1, 2.2]})
        columns = [grid[0]]
    for axes, study, rows in zip(columns, studies, shown):
        who = f"agents {', '.join(study.specs)}: " if several else ""
        _comparison_panels(axes, study, rows, names, players, seats, who)
    if several:
        low = min(axes[3].get_xlim()[0] for axes in columns)
        high = max(axes[3].get_xlim()[1] for axes in columns)
        for axes in columns:
            axes[3].set_xlim(low, high)
    pairs = ", ".join(str(len(s.a)) for s in studies)
    fig.suptitle(f"{title}: A = {names[0]}, B = {names[1]}; {pairs} paired games"
                 + (f" under {len(studies)} sets of agents" if several else "") + f", {players} players")
    fig.tight_layout(rect=(0, 0, 1, 0.98) if several else None)  # (the title above the top panels' own)
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)


def _shown(diffs: dict) -> list[str]:
    """The differences drawn: every significant one, then others to MAX_ROWS."""
    significant = [k for k in diffs if diffs[k].significant]
    others = [k for k in diffs if not diffs[k].significant and diffs[k].spread == diffs[k].spread and diffs[k].spread > 0]
    return significant + others[:max(0, MAX_ROWS - len(significant))]


def _comparison_panels(axes, study, shown: list[str], names: tuple[str, str], players: int, seats: Sequence[str],
                    who: str) -> None:
    """One set of agents' four panels: win rates, lengths and scores under A and B, and the differences."""
    a, b, diffs, kinds = study.a, study.b, study.diffs, study.kinds
    ma, mb = summarise(a, seats, kinds), summarise(b, seats, kinds)
    agents = [k for k in ma if k.startswith("agent_win_rate.")]
    keys = agents or [f"seat_win_rate.{s}" for s in seats]
    labels = [k.split(".", 1)[1] for k in keys]
    _rates(axes[0], [(names[0], ma), (names[1], mb)], keys, labels, 1 / players,
           who + ("Agent win rate" if agents else "Seat win rate"))
    _lengths(axes[1], [(names[0], a), (names[1], b)])
    _scores(axes[2], [(names[0], a), (names[1], b)], seats)
    ax = axes[3]
    ys = list(range(len(shown)))[::-1]
    for y, k in zip(ys, shown):
        d = diffs[k]
        spread = d.spread if d.spread and d.spread == d.spread else 1.0
        colour = "#b03030" if d.significant else "grey"
        ax.errorbar([d.value / spread], [y], xerr=[[(d.value - d.low) / spread], [(d.high - d.value) / spread]],
                    fmt="o", color=colour, capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(ys, [f"{k if len(k) < 26 else k[:24] + '…'}  {_amount(diffs[k], k, kinds)}" for k in shown],
                  fontsize="small")
    ax.set_xlabel("B - A, in spreads of a pair's difference (red: significant)")
    left_out = len(diffs) - len(shown)
    ax.set_title(who + "Differences" + (f" ({left_out} not drawn)" if left_out else ""))


MAX_ROWS = 24  # rows of differences drawn (every significant one, whatever their number)


def _amount(d, name: str, kinds: dict | None = None) -> str:
    from .metrics import metric
    rate = metric(name, kinds).percent

    def f(x: float) -> str:
        return f"{x:+.1%}" if rate else f"{x:+.3g}"
    return f"{f(d.value)} [{f(d.low)}, {f(d.high)}]"
