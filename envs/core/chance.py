"""Seeded randomness owned by a game state.

A :class:`Chance` is two integers: the game's seed and how many random events it has produced. Each
random event (a shuffle, a draw) asks for :meth:`Chance.generator`, a fresh ``numpy.random.Generator``
seeded from ``(seed, events)``. That keeps clones and saved states exact and cheap (two ints instead of a
generator's internal state) while the same seed and the same actions always give the same game.
A single random index (a card picked at random from a hand) needs no generator: :meth:`Chance.below` hashes
``(seed, events)`` with SplitMix64 in about a microsecond, where building a generator costs ~100 µs.

>>> a = Chance(7)
>>> b = a.copy()
>>> bool((a.generator().permutation(10) == b.generator().permutation(10)).all())
True
>>> a.events
1
>>> Chance(7).below(10) == Chance(7).below(10), 0 <= Chance(3, 5).below(4) < 4
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment (odd), and a second odd constant for the event index
_ODD = 0xD1B54A32D192ED03


def arrange(xs: list[int], rng: np.random.Generator | None) -> list[int]:
    """``xs`` in a random order drawn from ``rng``, or sorted when ``rng`` is None: the canonical order a public
    copy gives what its seat cannot see (:meth:`StackState.public_copy`).

    The order and the draws are those of ``[xs[i] for i in rng.permutation(len(xs))]`` (numpy's Fisher-Yates
    makes the same swaps on a list as on ``arange``; ``tests/core/test_core_engine.py`` checks it), at a
    fifth of the cost."""
    if rng is None:
        return sorted(xs)
    out = list(xs)
    if len(out) > 1:
        rng.shuffle(out)
    return out


def arrange_bands(
    deck: list[int], band_of: Sequence[int], bands: Iterable[int], rng: np.random.Generator | None
) -> None:
    """Reorder ``deck`` in place within each of ``bands``, in that order: the cards of a band (``band_of[card]``)
    take :func:`arrange`'s order among the places they hold. For a deck whose backs show its bands, so that only
    the order inside each band is hidden; cards of other bands stay where they are."""
    places: dict[int, list[int]] = {}
    for i, card in enumerate(deck):
        places.setdefault(band_of[card], []).append(i)
    for band in bands:
        pos = places.get(band, ())
        if len(pos) < 2:
            continue
        start, stop = pos[0], pos[-1] + 1
        if stop - start == len(pos):  # one run of the deck (a stacked deck): a slice
            deck[start:stop] = arrange(deck[start:stop], rng)
        else:
            for i, card in zip(pos, arrange([deck[i] for i in pos], rng), strict=True):
                deck[i] = card


@dataclass(slots=True)
class Chance:
    """The random source of one game: a seed and the number of random events drawn so far."""

    seed: int
    events: int = 0

    def generator(self) -> np.random.Generator:
        """Return the generator of the next random event (each call is a new, independent event)."""
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([self.seed, self.events])))
        self.events += 1
        return rng

    def below(self, n: int) -> int:
        """One random event: an int uniform in ``[0, n)`` (``n >= 1``), a SplitMix64 hash of ``(seed, events)``
        (bias below ``n / 2**64``)."""
        x = (self.seed * _GOLDEN + (self.events + 1) * _ODD) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        self.events += 1
        return ((x ^ (x >> 31)) * n) >> 64

    def copy(self) -> Chance:
        return Chance(self.seed, self.events)

    @classmethod
    def fresh(cls, rng: np.random.Generator) -> Chance:
        """A new, independent source drawn from ``rng``: what a determinized copy gets, so that its future
        random events (reshuffles, random steals) are sampled afresh instead of repeating the real game's."""
        return cls(int(rng.integers(2**63 - 1)))

    def to_dict(self) -> dict[str, int]:
        return {"seed": self.seed, "events": self.events}

    @classmethod
    def from_dict(cls, data: object) -> Chance:
        from .errors import CorruptStateError

        if (
            not isinstance(data, dict)
            or set(data) != {"seed", "events"}
            or not all(type(data[k]) is int and data[k] >= 0 for k in data)  # (not a bool either)
        ):
            raise CorruptStateError(f"chance must be {{'seed': int>=0, 'events': int>=0}}, got {data!r}")
        return cls(data["seed"], data["events"])
