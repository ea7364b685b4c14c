"""How far thrown matches lift a rating under the "who is rated" rule (issue 43): "main + a club computer against
alt + a club computer", alt losing every match, through the store's own update (``matches.store._new_ratings``).

Two starts: main new (mu 25, sigma 25/3), and main established (mu 25, sigma 3, 10 rated matches).  Prints main's
and alt's ``mu``, ``sigma``, rated matches and shown rating (mu - 3 sigma) after each tenth match.  No clock is read:
the figures are the same on every machine.

    .venv/bin/python bench/rating_farming.py [--matches 30]
"""

from __future__ import annotations

import argparse

from fiftysix.server.matches import rating
from fiftysix.server.matches.store import _new_ratings


def farm(main: rating.Entry, matches: int) -> list[tuple[int, rating.Entry, rating.Entry]]:
    alt = rating.new_entry("alt")
    bot = rating.anchor("56", "pimc")
    out = []
    for n in range(1, matches + 1):
        new = _new_ratings([[main, bot], [alt, bot]], [0, 1])
        if "main" in new:
            main = rating.Entry("main", *new["main"], main.matches + 1)
        if "alt" in new:
            alt = rating.Entry("alt", *new["alt"], alt.matches + 1)
        if n % 10 == 0:
            out.append((n, main, alt))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    args = parser.parse_args()
    starts = {"new": rating.new_entry("main"), "established": rating.Entry("main", 25.0, 3.0, rating.PROVISIONAL)}
    for label, start in starts.items():
        shown = rating.shown(start.mu, start.sigma)
        print(f"main {label}: mu {start.mu:.2f} sigma {start.sigma:.2f} shown {shown:.2f}")
        for n, m, a in farm(start, args.matches):
            print(f"  after {n:3d}: main mu {m.mu:.2f} sigma {m.sigma:.2f} rated {m.matches:3d} "
                  f"shown {rating.shown(m.mu, m.sigma):.2f} | alt mu {a.mu:.2f} rated {a.matches:3d}")


if __name__ == "__main__":
    main()
