"""Finished matches, what they tell about each person, and team-aware ratings (issue 43).

- :mod:`.capture`: what a finished deal and a finished match leave behind, read from the table's state as the
  event that finished them is stored (pure, no I/O);
- :mod:`.rating`: openskill's Thurstone-Mosteller model over teams, computer players as fixed anchors;
- :mod:`.store`: the rows, written in the same transaction as the event that finished the deal or match;
- :mod:`.routes`: a person's history and profile over HTTP, and its page.
"""
