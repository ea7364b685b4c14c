"""A learned policy (the linear one of :mod:`.train`, the network of :mod:`.a2c`) as a bot: in process, or as an
outside program of the bot protocol, so the arena can measure it like any other bot (``docs/research.md``)::

    fiftysix arena --rules 56-4 --bot "cmd:python -m fiftysix.research.policy_bot POLICY.npz" --bot rules ...

It reads its seat's JSON view into the compact observation (:func:`.vector.encode_view`, what the env gives the
learner) and plays the legal move of highest probability.  56 only: 55's discard is made card by card in the env,
a whole move in a view.
"""

from __future__ import annotations

import sys

import numpy as np

from ..bots.base import Seen, legal_moves, view_json
from ..bots.protocol import run_bot
from .mlp import Net
from .table import Encoding
from .train import Policy
from .vector import encode_view


class PolicyBot:
    """Plays ``policy`` greedily among the legal moves of the view."""

    name = "linear"

    def __init__(self, policy: Policy | Net, rules: object) -> None:
        self.policy = policy
        self.enc = Encoding(rules)      # type: ignore[arg-type]
        if self.enc.kitty:
            raise ValueError("the linear policy bot plays 56 only (55's discard is a whole move in a view)")

    def choose(self, seen: Seen) -> str:
        v = dict(view_json(seen))
        legal = legal_moves(v)
        actions = [self.enc.text_action(t, str(v["phase"])) for t in legal]
        mask = np.zeros((1, self.enc.num_actions), np.bool_)
        mask[0, actions] = True
        p = self.policy.probabilities(self.policy.features(encode_view(self.enc, v)[None]), mask)[0]
        return str(legal[actions.index(int(p.argmax()))])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python -m fiftysix.research.policy_bot POLICY.npz\n")
        return 2
    policy, rules = Policy.load(args[0])
    return run_bot(PolicyBot(policy, rules), sys.stdin, sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
