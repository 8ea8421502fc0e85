"""What the terminal tables of every command share: the console they print to, the rank column's header, short
labels for agent specs and the legend that maps each back to its full spec.

A spec such as ``mcts:iters=200,rollout=heuristic,cutoff=20,forced=true,bias=5.0`` does not fit a table
column at 80 columns. In a table an agent is called by its name (``mcts``), or by its name and a number when
several specs share that name (``mcts#1``, ``mcts#2``); a spec that is just a name keeps it. The legend under
the table gives every shortened spec in full. Databases and reports keep full specs.

>>> short_labels(["random", "mcts:iters=200", "mcts:iters=400", "ppo:runs/x/final.zip"])
{'random': 'random', 'mcts:iters=200': 'mcts#1', 'mcts:iters=400': 'mcts#2', 'ppo:runs/x/final.zip': 'ppo'}
>>> legend({"random": "random", "mcts:iters=200": "mcts"})
['mcts = mcts:iters=200']
>>> players_text((2, 3, 4, 5)), players_text((2,)), players_text((1, 3))
('2-5', '2', '1,3')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.console import Console

#: the header of every rank column: ranks count from 0, the winner's
RANK = "rank (0 = won)"


def table_console() -> Console:
    """A console for tables, made per call so that output goes to the ``sys.stdout`` of the moment (tests capture
    it); not a terminal (a pipe, a file, a test): 120 columns, where rich would assume 80 and squeeze them."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=120)


def _name(spec: str) -> str:
    """The agent name of a spec (the text before ``:``) or of a match entrant's label (``random#2``)."""
    return spec.partition(":")[0].strip() or spec


def short_labels(specs: Iterable[str]) -> dict[str, str]:
    """A unique short label for each distinct spec, in order of first appearance."""
    distinct = list(dict.fromkeys(specs))
    taken = {s for s in distinct if ":" not in s}  # plain names label themselves
    labels = {s: s for s in taken}
    long = [s for s in distinct if ":" in s]
    for spec in long:
        name = _name(spec)
        sharing = [s for s in long if _name(s) == name]
        if len(sharing) == 1 and name not in taken:
            label = name
        else:
            number = sharing.index(spec) + 1
            label = f"{name}#{number}"
            while label in taken:
                number += 1
                label = f"{name}#{number}"
        taken.add(label)
        labels[spec] = label
    return labels


def legend(labels: Mapping[str, str]) -> list[str]:
    """``label = full spec`` for every spec its label shortens (none when every spec is its own label)."""
    return [f"{label} = {spec}" for spec, label in labels.items() if label != spec]


def players_text(counts: Sequence[int]) -> str:
    """A game's player counts in a column: a range when there is no gap, else each count."""
    counts = sorted(counts)
    if counts == list(range(counts[0], counts[-1] + 1)):
        return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    return ",".join(map(str, counts))
