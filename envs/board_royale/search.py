"""What IS-MCTS and ``az`` ask of Board Royale (its manifest names :data:`SEARCH`)."""

from __future__ import annotations

from ..core.manifest import SearchHooks
from .heuristic import ESTIMATE_SCALE, ESTIMATE_VARIANTS, estimate_scores, position_key
from .trade_guide import suggest, suggest_tools

SEARCH = SearchHooks(
    estimate=estimate_scores,
    scale=ESTIMATE_SCALE,
    variants=ESTIMATE_VARIANTS,
    position_key=position_key,
    guide=suggest,
    guides={"tools": suggest_tools},
)
