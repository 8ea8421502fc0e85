"""Goofspiel for MeepleZoo, a plugin game: every player bids secretly with cards 1..N for prize cards 1..N.

The engine is :mod:`.game`, the AEC env :mod:`.env`, the agents and IS-MCTS hooks :mod:`.heuristic`; the
manifest (:mod:`.manifest`) tells MeepleZoo all of it.
"""
