"""``fiftysix.pettingzoo``: 56 and 55 as PettingZoo AEC environments (see :mod:`fiftysix.research.pettingzoo`)."""

from __future__ import annotations

from .research.pettingzoo import *  # noqa: F403
from .research.pettingzoo import __all__ as __all__  # noqa: F401
