"""The vector env's compiled card play (numba, ``@njit(cache=True)``): one card at every table in compiled play.

The kernel reads its rules from tables the caller builds with the engine's own functions
(:mod:`fiftysix.games.fifty_six.play`: each kind's suit, its trick key and points; the scores of a made and a
failed contract from :mod:`fiftysix.games.fifty_six.scoring`): it holds the play's mechanics (follow suit if able,
the highest key wins, a trick's points to the winner's team, the deal over when the winner's hand is empty), no
table of the rules.  It is one function on purpose: numba's disk cache checks only the file of the function it
loads, and every compile costs the tests seconds.

:class:`.vector_play.CompiledPlay` calls it; the reference is the engine's ``Deal.push`` (``compiled=False``), and
the tests compare the two step by step.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def play_cards(acts, live, first_card, hands, pub, o_played, o_trick, o_points, trick, in_trick, leader,
               points, team_of, kind_suit, keys, trump, cards_of, played, n_played, team, value, scores,
               rewards, over, to_move, bits):
    """Apply ``acts[i]`` (a card, already checked legal) at every table ``i`` with ``live[i]``.

    Writes the observation (``hands``, ``pub``'s played cards, trick and points), the trick state (``trick``,
    ``in_trick``, ``leader``, ``points``), the cards played in order (``played``, ``n_played``: the engine's
    card numbers, for the deal to catch up later), and per table the next seat ``to_move`` (-1 once over) and
    its legal card kinds ``bits``; a deal that ends sets ``over[i]`` and ``rewards[i]`` (each seat's team score,
    ``scores[i, 0]`` made, ``scores[i, 1]`` failed).
    """
    n = hands.shape[1]
    k = hands.shape[2]
    for i in range(acts.shape[0]):
        if not live[i]:
            continue
        s = to_move[i]
        kind = acts[i] - first_card
        hands[i, s, kind] -= 1.0
        pub[i, o_played + s * k + kind] += 1.0
        pub[i, o_trick + s * k + kind] = 1.0
        played[i, n_played[i]] = cards_of[kind]
        n_played[i] += 1
        trick[i, in_trick[i]] = kind
        in_trick[i] += 1
        if in_trick[i] < n:
            nxt = (s + 1) % n
            led = kind_suit[trick[i, 0]]
            b = 0
            for j in range(k):
                if hands[i, nxt, j] > 0.0 and kind_suit[j] == led:
                    b |= 1 << j
            if b == 0:
                for j in range(k):
                    if hands[i, nxt, j] > 0.0:
                        b |= 1 << j
            to_move[i] = nxt
            bits[i] = b
            continue
        # the trick's last card: the strictly highest key wins (of two identical cards the first)
        led = kind_suit[trick[i, 0]]
        best = -1
        best_at = 0
        got = 0
        for j in range(n):
            key = keys[trump[i], led, trick[i, j]]
            if key > best:
                best = key
                best_at = j
            got += key & 7
        winner = (leader[i] + best_at) % n
        points[i, team_of[winner]] += got
        for j in range(n * k):
            pub[i, o_trick + j] = 0.0
        for t in range(points.shape[1]):
            pub[i, o_points + t] = points[i, t]
        in_trick[i] = 0
        leader[i] = winner
        b = 0
        for j in range(k):
            if hands[i, winner, j] > 0.0:
                b |= 1 << j
        bits[i] = b
        to_move[i] = winner
        if b == 0:
            made = 0 if points[i, team[i]] >= value[i] else 1
            for seat in range(n):
                rewards[i, seat] = scores[i, made, seat]
            over[i] = True
            to_move[i] = -1


__all__ = ["play_cards"]
