"""Weights of the 56 contract model (:func:`fiftysix.bots.simulate56.team_estimate`), per table shape
``(players, deck size, teams)``: expected card points of the declaring team from the features of its
combined hands (``SUIT_FEATURES`` and ``NT_FEATURES`` of :mod:`.simulate56`), and the rms error.

Fitted by ``bench/fit_pimc56.py`` on deals played out by the ``rules`` bot with a fixed contract.
"""

from __future__ import annotations

from typing import TypedDict


class ContractWeights(TypedDict):
    """One table shape's model: the weights of the suit and no-trumps features and each one's rms error."""

    suit: tuple[float, ...]
    nt: tuple[float, ...]
    rms_suit: float
    rms_nt: float


WEIGHTS: dict[tuple[int, int, int], ContractWeights] = {
    (6, 48, 2): {  # 56-6, 4000 deals, 421 s
        "suit": (4.095, 1.110, 5.701, 3.314, 0.740, 2.609, 0.036, -0.325, 1.290, 1.615, 1.286, 0.098, -2.123),
        "nt": (1.791, 5.184, 0.949, -0.096, -0.543, 0.895, 1.126, 0.265, 0.588),
        "rms_suit": 6.99, "rms_nt": 8.25,
    },
    (4, 48, 2): {  # 56-4, 4000 deals, 355 s
        "suit": (5.073, 0.931, 4.096, 2.552, 0.415, 3.450, 0.532, -0.292, 1.531, 1.323, 0.903, -0.000, -1.526),
        "nt": (4.327, 4.335, 1.508, -0.149, -1.009, 0.871, -0.652, 0.416, 0.721),
        "rms_suit": 4.94, "rms_nt": 6.12,
    },
    (4, 32, 2): {  # 56-4-32, 1500 deals, 70 s
        "suit": (30.148, 2.381, 3.945, 0.201, -1.765, 1.373, -1.765, -1.989, 1.803, 1.257, 2.603, 0.243, -1.915),
        "nt": (36.654, 3.996, -1.482, -2.513, -0.555, 0.603, 4.134, -0.326, 1.354),
        "rms_suit": 6.64, "rms_nt": 9.30,
    },
    (8, 64, 2): {  # 56-8, 1500 deals, 247 s
        "suit": (-0.178, 0.984, 5.223, 3.595, 1.280, 2.396, 0.186, -0.083, 1.083, 1.998, 0.360, 0.046, -2.064),
        "nt": (-1.702, 4.752, 1.492, 0.267, -0.167, -0.029, 0.277, 0.431, 0.465),
        "rms_suit": 7.21, "rms_nt": 7.09,
    },
    (8, 48, 2): {  # 56-8-48, 1500 deals, 196 s
        "suit": (1.479, 0.737, 7.569, 4.534, 1.368, 1.509, 0.064, -0.045, 1.107, 2.116, 0.356, 0.001, -2.422),
        "nt": (1.328, 5.763, 0.717, -0.227, -0.698, 0.849, 2.524, -0.336, 0.927),
        "rms_suit": 8.12, "rms_nt": 10.12,
    },
    (6, 48, 3): {  # 56-pairs-6, 1500 deals, 158 s
        "suit": (1.015, 0.782, 6.333, 4.200, 1.189, 2.522, -0.150, -0.145, 1.441, 1.666, 1.535, -0.438, -1.292),
        "nt": (-1.181, 6.208, 0.969, 0.119, -1.317, 1.997, 0.601, -0.356, 1.590),
        "rms_suit": 6.46, "rms_nt": 8.44,
    },
    (8, 64, 4): {  # 56-pairs-8, 1500 deals, 157 s
        "suit": (0.162, 0.842, 6.549, 4.828, 1.756, 1.565, -0.035, -0.064, 1.154, 1.163, 1.029, -0.301, -0.955),
        "nt": (0.305, 5.748, 0.888, 0.017, -1.517, 3.106, -0.399, -0.037, 0.954),
        "rms_suit": 6.00, "rms_nt": 7.29,
    },
    (8, 48, 4): {  # 56-pairs-8-48, 1500 deals, 117 s
        "suit": (0.691, 0.258, 8.445, 5.565, 1.410, 1.112, -0.034, -0.103, 1.226, 1.945, 0.450, -0.709, -1.089),
        "nt": (0.927, 6.082, 0.583, -0.164, 0.418, 0.756, 0.831, -0.585, 1.380),
        "rms_suit": 6.62, "rms_nt": 9.45,
    },
}


SOLVER_WEIGHTS: dict[tuple[int, int, int], ContractWeights] = {
    (6, 48, 2): {  # 56-6, 800 deals, solver labels, 3556 s
        "suit": (-20.751, 2.208, 10.829, 3.256, 0.402, 4.721, 0.160, -0.275, 1.862, 1.932, 11.554, 0.148, -2.139),
        "nt": (-23.783, 9.826, 0.734, 0.180, -0.357, 0.235, 13.967, 0.269, 0.339),
        "rms_suit": 7.08, "rms_nt": 8.24,
    },
}
"""The same model fitted on double-dummy values of the deals (``bench/fit_pimc56.py --labels solver``): best
play by every seat with every hand known.  Only 56-6 is fitted: a whole 56-4 deal (twelve cards a hand)
takes seconds to minutes to solve.  ``pimc,contract_model=solver`` uses it; shapes not here use
:data:`WEIGHTS`."""

MODELS: dict[str, dict[tuple[int, int, int], ContractWeights]] = {"rules": WEIGHTS, "solver": SOLVER_WEIGHTS}
"""The contract models by name (the bots' ``contract_model`` option)."""
