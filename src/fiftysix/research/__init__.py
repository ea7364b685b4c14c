"""The research API: 56 and 55 as OpenSpiel games and PettingZoo environments (``pip install 'fiftysix[research]'``).

- :mod:`fiftysix.research.table`: what both adapters share: the fixed action space of a preset, the card-by-card
  deal, the 55 discard made one card at a time, and the tensors and strings built from a seat's :func:`view`.
- :mod:`fiftysix.research.openspiel` (also ``fiftysix.openspiel``): ``pyspiel.load_game("python_fiftysix",
  {"preset": "56-6"})``.
- :mod:`fiftysix.research.pettingzoo` (also ``fiftysix.pettingzoo``): ``env(preset="56-4")``, an AEC environment;
  ``vector_env("56-4")``, one table of the vector env as one.
- :mod:`fiftysix.research.vector`: ``VectorEnv("56-6", num_tables=256)``, N tables of 56 stepped at once from the
  engine, with the compact observation (``docs/research.md`` has its table).
- :mod:`fiftysix.research.train`: a numpy-only policy-gradient example on the vector env.

Nothing here is imported by the rules core; the submodules need numpy (and OpenSpiel or PettingZoo).
"""
