"""``python -m fiftysix ...``: the command line (the same as the ``fiftysix`` script)."""

from .cli.main import main

raise SystemExit(main())
