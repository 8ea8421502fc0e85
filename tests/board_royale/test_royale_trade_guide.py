"""The trade guide (``az:guide=W``): the offer it names, the moves that build it, and what it reads."""

from __future__ import annotations

import numpy as np
from royale_scenario import (
    P0,
    P1,
    action_phase,
    card_a,
    craft_a,
    fresh,
    give_item,
    hand,
    pending,
    seat_a,
    set_field,
    set_hand,
)

from meeplezoo.envs.board_royale.actions import PASS, TRADE, YES
from meeplezoo.envs.board_royale.heuristic import BoardRoyaleHeuristicAgent
from meeplezoo.envs.board_royale.search import SEARCH
from meeplezoo.envs.board_royale.steps import Step
from meeplezoo.envs.board_royale.trade_guide import DRAW_TOOLS, Offer, plan, suggest, suggest_tools

NO_TRADE_ITEMS = ("Bandage", "Axe", "Fishing Rod")  # a medicine and two tools: never worth a trade to the guide


def paddle_table(wood: int = 2, stone: int = 5, iron: int = 4, gold: int = 1):
    """P0 to act, one Wood short of the Paddle (3 Wood, 1 escape point); P1 holds Wood and Food."""
    s = fresh(2)
    d = s.d
    set_field(d, "Paddle", *NO_TRADE_ITEMS)
    set_hand(d, P0, wood=wood, stone=stone, iron=iron, gold=gold)
    set_hand(d, P1, food=2, wood=3, stone=1)
    action_phase(s, P0, round_no=3)
    return s, d


def follow(s, guide) -> list[int]:
    """Play ``guide``'s moves for P0 until the turn passes to another seat (each one legal); the moves played."""
    moves = []
    while pending(s)[1] == P0:
        move = guide(s, P0)
        assert move is not None and move in s.legal_actions()
        moves.append(move)
        s.apply(move)
    return moves


def test_the_guide_buys_the_missing_card_for_one_more_from_the_largest_spare_pile():
    """One Wood asked, two cards given from the kinds the Paddle does not need (Stone 5 before Iron 4)."""
    _, d = paddle_table()
    assert plan(d, P0) == Offer(P1, give=(0, 0, 2, 0, 0), ask=(0, 1, 0, 0, 0))
    _, d2 = paddle_table(stone=3, iron=4)  # Iron is the larger pile now; ties would go to the lower kind
    assert plan(d2, P0) == Offer(P1, give=(0, 0, 1, 1, 0), ask=(0, 1, 0, 0, 0))


def test_the_guides_moves_build_the_offer_the_heuristic_accepts_and_the_item_is_crafted():
    """From the Action Phase the guide starts the trade, names the partner, gives two Stone, asks one Wood and
    sends it; the heuristic accepts (it gains a card) and P0 can craft the Paddle it could not pay for."""
    s, d = paddle_table()
    assert craft_a(0) not in s.legal_actions()
    moves = follow(s, suggest)
    assert moves == [TRADE, seat_a(P1), card_a("stone"), card_a("stone"), YES, card_a("wood"), YES]
    assert pending(s) == (Step.TRADE_ANSWER, P1)
    assert suggest(s, P1) is None  # the answer is the partner's: the guide says nothing there
    s.apply(BoardRoyaleHeuristicAgent().choose(s))
    assert hand(d, P0)[:5] == [0, 3, 3, 4, 1] and hand(d, P1)[:5] == [2, 2, 3, 0, 0]
    assert pending(s) == (Step.ACTION, P0) and craft_a(0) in s.legal_actions()
    assert suggest(s, P0) is None  # nothing is short now
    s.validate()


def test_the_guide_names_nothing_where_no_trade_fits():
    """No suggestion: nothing short (the Paddle is paid for already), more than two cards short, too few spare
    cards, a partner at the hand limit, items that are not worth a trade, or an offer under way that is not the
    plan's. With ``begin`` False the Action Phase gets none, an offer under way its next card."""
    s, d = paddle_table(wood=3)
    assert plan(d, P0) is None and suggest(s, P0) is None
    s, d = paddle_table(wood=0)  # three Wood short
    assert plan(d, P0) is None
    s, d = paddle_table(stone=1, iron=1, gold=0)  # 1 spare card: a trade would leave too little
    assert plan(d, P0) is None
    s, d = paddle_table()
    set_hand(d, P1, food=10, wood=3, stone=7)  # 20 cards: no room for the card more it would get
    assert plan(d, P0) is None
    s, d = paddle_table()
    set_field(d, "Sail", *NO_TRADE_ITEMS)  # 2 Food 2 Wood: two Food short, P0 spares 10 cards
    assert plan(d, P0) == Offer(P1, give=(0, 0, 2, 1, 0), ask=(2, 0, 0, 0, 0))  # Stone 5, 4 (a tie: Stone), Iron 4
    set_field(d, "Bear Trap", *NO_TRADE_ITEMS)
    assert plan(d, P0) is None
    s, d = paddle_table()
    assert suggest(s, P0, begin=False) is None  # the Action Phase: only ``begin`` starts an offer
    s.apply(TRADE)
    s.apply(seat_a(P1))
    assert suggest(s, P0, begin=False) == card_a("stone")
    s.apply(card_a("iron"))  # not the plan's card: the guide has nothing more to say about this offer
    assert suggest(s, P0) is None and suggest(s, P0, begin=False) is None
    assert PASS in s.legal_actions()


def test_the_guide_reads_only_what_the_seat_knows():
    """Every determinization of P0's view gets the same suggestion at each step, so the search's priors do not
    depend on the other hands dealt; the manifest's search hooks carry it."""
    s, _ = paddle_table()
    assert SEARCH.guide is suggest
    rng = np.random.default_rng(0)
    while pending(s)[1] == P0:
        want = suggest(s, P0)
        copies = [s.determinize(P0, rng) for _ in range(30)]
        assert len({tuple(c.d.hand[(P1) * 8 : (P1 + 1) * 8]) for c in copies}) > 1  # the other hand does vary
        assert all(suggest(c, P0) == want for c in copies)
        s.apply(want)


def rod_table():
    """P0 to act, one Food short of the Fishing Rod (2 Food 2 Wood; use: 1 Wood, draw 2); the rest of the field
    is a medicine and a tool that no guide trades for; P1 holds Food."""
    s = fresh(2)
    d = s.d
    set_field(d, "Fishing Rod", "Bandage", "Pickaxe", "Backpack")
    set_hand(d, P0, food=1, wood=3, stone=3, iron=6, gold=3)
    set_hand(d, P1, food=4, wood=5, stone=2, iron=1, gold=1)
    action_phase(s, P0, round_no=3)
    return s, d


def test_the_tools_guide_also_buys_a_draw_tool_the_seat_lacks():
    """``gname=tools``: the draw tools (Axe, Fishing Rod) count among the items worth a trade. One Food short of
    the Fishing Rod, the default guide names nothing and the tools guide buys the Food for two Iron (the largest
    spare pile); the heuristic accepts and P0 crafts the Rod. A seat that owns a Fishing Rod is offered none."""
    assert sorted(DRAW_TOOLS) == ["Axe", "Fishing Rod"]
    s, d = rod_table()
    assert plan(d, P0) is None and suggest(s, P0) is None
    assert plan(d, P0, tools=True) == Offer(P1, give=(0, 0, 0, 2, 0), ask=(1, 0, 0, 0, 0))
    assert craft_a(0) not in s.legal_actions()
    moves = follow(s, suggest_tools)
    assert moves == [TRADE, seat_a(P1), card_a("iron"), card_a("iron"), YES, card_a("food"), YES]
    s.apply(BoardRoyaleHeuristicAgent().choose(s))  # it gains a card: it accepts
    assert hand(d, P0)[:5] == [2, 3, 3, 4, 3] and hand(d, P1)[:5] == [3, 5, 2, 3, 1]
    assert craft_a(0) in s.legal_actions() and suggest_tools(s, P0) is None
    s.validate()
    s, d = rod_table()
    give_item(d, P0, "Fishing Rod")
    assert plan(d, P0, tools=True) is None  # one draw tool of a name is enough
    set_field(d, "Axe", "Bandage", "Pickaxe", "Backpack")  # 1 Wood 2 Stone 1 Iron, use 1 Food: P0 pays already
    set_hand(d, P0, food=3, wood=0, stone=3, iron=6, gold=3)
    assert plan(d, P0, tools=True) == Offer(P1, give=(0, 0, 0, 2, 0), ask=(0, 1, 0, 0, 0))
    assert SEARCH.guides == {"tools": suggest_tools}


def test_an_az_search_with_the_tools_guide_leans_its_root_to_the_offer():
    """``az:guide=0.3,gname=tools`` puts 0.3 of the root's prior on "make a trade offer" where the tools guide would
    begin one (P0 one Food short of the Fishing Rod); with the default guide the root's prior stays uniform."""
    from meeplezoo.agents import make_agent
    from meeplezoo.agents.view import view_of_state

    s, _ = rod_table()
    legal = s.legal_actions()
    spec = "az:sims=8,c_puct=0.5,mix=1,rollout=heuristic,cutoff=4,batch=1,prior=uniform,guide=0.3"
    _, leaned = make_agent(spec + ",gname=tools", "board_royale", seed=3).search(view_of_state(s, P0))
    _, plain = make_agent(spec, "board_royale", seed=3).search(view_of_state(s, P0))
    others = [a for a in legal if a != TRADE]
    np.testing.assert_allclose(leaned[TRADE], 0.7 / len(legal) + 0.3, rtol=1e-6)
    np.testing.assert_allclose(leaned[others], 0.7 / len(legal), rtol=1e-6)
    np.testing.assert_allclose(plain[legal], 1 / len(legal), rtol=1e-6)
