"""What a seat of a MeepleZoo OpenSpiel game observes, as OpenSpiel's Python observer (tensor and string).

* The **tensor** is the env's observation vector of the seat (``State.observe``), in the sections the game's
  ``observation_layout`` names: the same for the observation and the information state. It is all zeros before
  the deal.
* The **observation string** is the seat's table (``meeplezoo.web.tables.table_of``) as compact JSON: the
  board, the player boards with the other seats' hidden holdings as counts, whose turn and which decision.
* The **information state string** (perfect recall) adds the seat's log: every decision so far, by whom, named as
  the seat may read it (``public_action_name``), then the table.

None of them holds what the seat may not know: the tests check that ``resample_from_infostate`` (hidden parts
resampled) leaves them equal. OpenSpiel's factored observations (public-only, private-only) are not provided.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

if TYPE_CHECKING:
    from .game import MeepleZooGame, MeepleZooState


class Observer:
    """OpenSpiel's PyObserver for one MeepleZoo game: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, game: MeepleZooGame, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"{game.get_type().short_name}: observation parameters are not supported, got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        factored = not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(kind.perfect_recall)
        self.provided = not factored
        if factored:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
            return
        engine_game = game.engine_game
        self.tensor = np.zeros(engine_game.observation_size, np.float32)
        self.dict = {name: self.tensor[part] for name, part in engine_game.observation_layout().items()}

    def set_from(self, state: MeepleZooState, player: int) -> None:
        """Write what ``player`` observes of ``state`` into ``tensor``."""
        if self.tensor is None:
            return
        engine = state.core.engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            engine.observe(player, out=self.tensor)

    def string_from(self, state: MeepleZooState, player: int) -> str | None:
        """What ``player`` observes of ``state`` as text (None for a factored observation, not provided)."""
        if not self.provided:
            return None
        from ..web.tables import table_of

        core = state.core
        if core.engine is None:
            table = "before the deal"
        else:
            table = json.dumps(table_of(core.engine, player), separators=(",", ":"), sort_keys=True)
        if not self.perfect_recall:
            return table
        return "\n".join([f"seat {player}", *core.read_log(player), table])
