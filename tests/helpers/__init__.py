"""Helpers shared by the tests, imported as ``helpers.<module>`` (``tests/`` is on the path through the
root conftest)."""
