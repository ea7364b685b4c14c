"""The parts of a table's state, one concern each; :mod:`fiftysix.server.state` composes them."""
