from __future__ import annotations

from pathlib import Path

import pytest

from helpers.examples import EXAMPLES


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
