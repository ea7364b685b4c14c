"""``fiftysix.openspiel``: 56 and 55 as an OpenSpiel game (see :mod:`fiftysix.research.openspiel`)."""

from __future__ import annotations

from .research.openspiel import *  # noqa: F403
from .research.openspiel import __all__ as __all__  # noqa: F401
