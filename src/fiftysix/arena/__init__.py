"""The arena: bots play duplicate deals against each other, so their strength can be measured
(``fiftysix arena``)."""

from __future__ import annotations

from .duplicate import ArenaConfig, BotFailure, ChunkResult, Play, Tally, check_bots, seatings
from .report import format_text, summarize, write_plot
from .run import run_arena

__all__ = ["ArenaConfig", "BotFailure", "ChunkResult", "Play", "Tally", "check_bots", "format_text", "run_arena",
           "seatings", "summarize", "write_plot"]
