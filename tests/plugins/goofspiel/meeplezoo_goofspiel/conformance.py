"""How MeepleZoo's conformance suite plays Goofspiel: every player count, with games of 18 decisions or more (the
suite's illegal-action tests step 17 decisions into a game), and saves that break its rules."""

from __future__ import annotations

from meeplezoo.envs.core.conformance import ConformanceCase, ConformanceSettings, Record, StallCheck


def a_point_from_nowhere(s: Record) -> None:
    s["points"][0] += 1


def a_card_held_twice(s: Record) -> None:
    s["hands"][1].append(s["hands"][1][0] if s["hands"][1] else 1)


def a_prize_played_and_still_in_the_deck(s: Record) -> None:
    s["prizes"].append(s["deck"][0] if s["deck"] else 1)


def a_later_seat_bid_first(s: Record) -> None:
    s["bids"][-1] = s["hands"][-1].pop() if s["hands"][-1] else 1


def a_round_not_played_by_every_seat(s: Record) -> None:
    s["played"][0].append(s["hands"][0].pop(0) if s["hands"][0] else 1)


#: saves a load must refuse: each breaks one rule of ``rules.md``
BROKEN_EDITS = (
    a_point_from_nowhere,
    a_card_held_twice,
    a_prize_played_and_still_in_the_deck,
    a_later_seat_bid_first,
    a_round_not_played_by_every_seat,
)


def shared_win(record: Record) -> Record:
    """A finished game where every seat bid the same card each round: every prize was discarded, all score 0."""
    return {
        **record,
        "played": [list(record["played"][0]) for _ in record["played"]],
        "points": [0] * len(record["points"]),
    }


SETTINGS = ConformanceSettings(
    cases=(
        ConformanceCase(),
        ConformanceCase(config={"num_players": 3, "cards": 6}),
        ConformanceCase(config={"num_players": 4, "cards": 5}),
    ),
    broken_edits=BROKEN_EDITS,
    shared_win=shared_win,
    bad_config=(("num_players", 1), ("num_players", 5), ("cards", 2), ("cards", 14), ("cards", "8")),
    random_events=False,  # the prize deck is shuffled once, at the setup
    # every bid spends a card: no game outlasts N rounds, and a fixed bidding rule (always the lowest card) may
    # fairly beat the greedy baseline, so only the length is checked (rules.md, "Stalling")
    stalling=StallCheck(rank_check=False),
)
