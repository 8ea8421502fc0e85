"""What the game log shows the other seats of a Resafa decision (``public_log``), and Resafabot in the log and
on the table (solo)."""

from __future__ import annotations

import numpy as np
from resafa_scenario import P0, P1, fresh, play, start

from meeplezoo.envs.resafa import actions as A
from meeplezoo.envs.resafa import bot, names, public_log
from meeplezoo.envs.resafa.content import content
from meeplezoo.envs.resafa.game import ResafaGame
from meeplezoo.envs.resafa.solo import BOT, SOLO
from meeplezoo.envs.resafa.steps import Step
from meeplezoo.envs.resafa.table import table
from meeplezoo.envs.resafa.tracks import face_down

C = content()


def test_a_card_played_is_named_in_full_to_everyone_it_goes_face_up():
    s = fresh()
    action = A.SLOT0
    card = s.d.hand[P0][0]
    name = s.public_action_name(action, P1)
    assert name == s.describe_action(action) == s.public_action_name(action, None)
    assert name == f"play {names.action_card_text(card)}" and C.action_cards[card].id not in name
    play(s, action)
    assert table(s, P1)["view"]["turn"]["card"] == names.action_card_text(card)  # P1 sees it on the table


def test_a_searched_pick_is_named_by_the_card_not_by_its_place_among_the_face_down_ones():
    s = fresh()
    deck = next(k for k in range(12) if len(face_down(s.d, k)) >= 2)
    start(s, Step.SPECIAL, P0, a=deck)
    play(s, A.SEARCH)
    assert s.d.stack[-1][0] == Step.SEARCH_PICK
    hidden = sorted(face_down(s.d, deck))
    names = set()
    for i, card in enumerate(hidden):
        mine, theirs = s.public_action_name(A.PICK0 + i, P0), s.public_action_name(A.PICK0 + i, P1)
        assert mine == s.describe_action(A.PICK0 + i) == theirs  # the card taken is everyone's to see
        assert theirs == f"take {C.specials[card].name} from the searched face-down deck"
        names.add(theirs)
    assert len(names) == len(hidden)
    play(s, A.PICK0 + 1)
    assert s.d.spec_owner[hidden[1]] == P0  # the card taken is P0's, face up, for everyone to see
    assert C.specials[hidden[1]].name in [x["name"] for x in table(s, P1)["view"]["players"][P0]["specials"]]


def _with_sacks(*cards: int):
    s = fresh()
    for c in cards:
        s.d.sack_deck.remove(c)
        s.d.sack_hand[P0].append(c)
    start(s, Step.HAND_LIMIT, P0)
    return s


def test_a_sack_card_discarded_unused_is_not_named_to_the_others():
    s = _with_sacks(0, 8)  # sack-01 (1 stone) and sack-09 (1 marble)
    for c in (0, 8):
        action = A.DROP_SACK0 + c
        assert action in s.legal_actions()
        mine = s.public_action_name(action, P0)
        assert mine == f"discard a sack card unused: {names.effect_text(C.sack_cards[c])} (+1 VP)"
        assert s.public_action_name(action, P1) == "discard an unused sack card (+1 VP)"
    play(s, A.DROP_SACK0 + 8)
    assert table(s, P1)["board"]["sack_discard"] == {"hidden": 1}  # the discard pile: its size only


def test_a_sack_card_used_is_named_by_its_effect_cards_printed_alike_read_alike():
    s = _with_sacks(0, 1, 8)  # sack-01 and sack-02: 1 stone each; sack-09: 1 marble
    stone, stone2, marble = (s.public_action_name(A.USE_SACK0 + c, P1) for c in (0, 1, 8))
    assert stone == stone2 == "use a sack card: +1 stone" and marble == "use a sack card: +1 marble"
    assert s.public_action_name(A.USE_SACK0, P0) == "use a sack card: +1 stone"


def test_public_decisions_are_named_in_full_to_every_seat():
    """Everything but the sack cards and a searched pick: camel moves, display picks, tiles ... in full."""
    s = ResafaGame(num_players=3).new_state(2)
    rng = np.random.default_rng(2)
    secret = {"USE_SACK0", "DROP_SACK0", "PICK0"}
    seen = set()
    for _ in range(400):
        if s.is_terminal():
            break
        action = int(rng.choice(s.legal_actions()))
        kind, _ = A.action_range(action)
        if kind not in secret:
            seen.add(kind)
            for viewer in range(3):
                assert s.public_action_name(action, viewer) == s.describe_action(action), kind
        s.apply(action)
    assert {"SLOT0", "HALF0", "MOVE0", "CELL0", "BOX0"} <= seen


def test_resafabots_turns_in_the_log_are_the_turns_it_played(monkeypatch):
    """Each logged turn is the (revealed, read) solo card pair the bot's turn used, over a whole random game
    (two deck cycles and more, turns at the setup and two turns after one decision at a round's end)."""
    played = []
    real = bot.current

    def spy(d):
        out = real(d)
        if out is not None:
            played.append((d.bot_shown[-1], SOLO.cards.index(out[0])))
        return out

    monkeypatch.setattr(bot, "current", spy)
    for seed in range(3):
        played.clear()
        s = ResafaGame(num_players=1).new_state(seed)
        logged = public_log.bot_cards(None, s.d)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            before = s.clone()
            s.apply(int(rng.choice(s.legal_actions())))
            logged += public_log.bot_cards(before.d, s.d)
        assert logged == played and len(played) > 12
    texts = s.automa_turns(None)
    assert all(t.startswith("Resafabot reveals") for t in texts)


def test_resafabot_has_its_board_on_the_solo_table_and_is_named_as_owner():
    s = ResafaGame(num_players=1).new_state(4)
    rng = np.random.default_rng(4)
    for _ in range(120):
        s.apply(int(rng.choice(s.legal_actions())))
    v = table(s, 0)["view"]
    b = v["bot"]
    assert b["name"] == "Resafabot" and b["owner"] == BOT
    assert list(b["tracks"].values()) == s.d.bot_track
    assert b["below"] == len(s.d.bot_deck) - 1 and len(b["revealed"]) == len(s.d.bot_shown)
    posts = {names.centre_name(i // 4) for i, o in enumerate(s.d.post_owner) if o == BOT}
    assert set(b["posts"]) == posts and b["score"] == 0 and b["target"] == s.automa_score()
    assert sum(1 for x in v["canal"] if x["tile"] and x["tile"]["owner"] == BOT) >= 1  # its first tile
    two = fresh()
    assert table(two, 0)["view"]["bot"] is None
