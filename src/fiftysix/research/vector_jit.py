"""The vector env's compiled card play (numba, ``@njit(cache=True)``): one card at every table in compiled play.

The kernel reads its rules from tables the caller builds with each game's own play functions and tables
(:mod:`.vector_play`): per trump and card led, the cards that oblige a player and those it may then play (56:
follow suit if able; 55: follow or trump freely on a plain lead, trump on a trump lead with the renege privilege),
each card's trick key and points, a trick's bonus (55: 5), the key from which a trick's winner is a trump and the
highest trump's bonus (55), the scores of a made and a failed contract (56).  It holds the play's mechanics (the
highest key wins, a trick's points to the winner's team, the deal over when the winner's hand is empty), no table
of the rules.  It is one function on purpose: numba's disk cache checks only the file of the function it
loads, and every compile costs the tests seconds.

:class:`.vector_play.CompiledPlay` calls it; the reference is the engine's ``Deal.push`` (``compiled=False``), and
the tests compare the two step by step.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def play_cards(acts, live, first_card, hands, pub, o_played, o_trick, o_points, trick, in_trick, leader,
               points, team_of, kind_suit, keys, trump, cards_of, played, n_played, team, value, scores,
               rewards, over, to_move, bits, oblige, allowed, trick_bonus, tricks, high, o_high, trump_min,
               high_bonus, scored):
    """Apply ``acts[i]`` (a card, already checked legal) at every table ``i`` with ``live[i]``.

    Writes the observation (``hands``, ``pub``'s played cards, trick and points), the trick state (``trick``,
    ``in_trick``, ``leader``, ``points``, ``tricks`` won per team), the cards played in order (``played``,
    ``n_played``: the engine's card numbers, for the deal to catch up later), and per table the next seat
    ``to_move`` (-1 once over) and its legal card kinds ``bits``: of the hand's kinds, those of
    ``allowed[trump, led]`` if it holds one of ``oblige[trump, led]``, else all.  A trick is worth its cards'
    points and ``trick_bonus``.  With ``trump_min`` > 0 (55), ``high[i]`` (key, seat, kind) keeps the highest
    winning key of at least ``trump_min`` (its seat and kind one-hot in ``pub`` from ``o_high``: seats, then
    kinds), worth ``high_bonus`` to its team at the deal's end.  A deal that ends sets ``over[i]`` and, with
    ``scored``, ``rewards[i]`` (each seat's team score, ``scores[i, 0]`` made, ``scores[i, 1]`` failed);
    without, the caller scores it.
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
            held = 0
            for j in range(k):
                if hands[i, nxt, j] > 0.0:
                    held |= 1 << j
            first = trick[i, 0]
            b = held
            if held & oblige[trump[i], first]:
                b = held & allowed[trump[i], first]
            to_move[i] = nxt
            bits[i] = b
            continue
        # the trick's last card: the strictly highest key wins (of two identical cards the first)
        led = kind_suit[trick[i, 0]]
        best = -1
        best_at = 0
        got = trick_bonus
        for j in range(n):
            key = keys[trump[i], led, trick[i, j]]
            if key > best:
                best = key
                best_at = j
            got += key & 7
        winner = (leader[i] + best_at) % n
        points[i, team_of[winner]] += got
        tricks[i, team_of[winner]] += 1
        for j in range(n * k):
            pub[i, o_trick + j] = 0.0
        if trump_min > 0 and best >= trump_min and best > high[i, 0]:
            high[i, 0] = best
            high[i, 1] = winner
            high[i, 2] = trick[i, best_at]
            for j in range(n + k):
                pub[i, o_high + j] = 0.0
            pub[i, o_high + winner] = 1.0
            pub[i, o_high + n + trick[i, best_at]] = 1.0
        in_trick[i] = 0
        leader[i] = winner
        b = 0
        for j in range(k):
            if hands[i, winner, j] > 0.0:
                b |= 1 << j
        bits[i] = b
        to_move[i] = winner
        if b == 0:
            if high[i, 0] > 0:
                points[i, team_of[high[i, 1]]] += high_bonus
            if scored:
                made = 0 if points[i, team[i]] >= value[i] else 1
                for seat in range(n):
                    rewards[i, seat] = scores[i, made, seat]
            over[i] = True
            to_move[i] = -1
        for t in range(points.shape[1]):
            pub[i, o_points + t] = points[i, t]


__all__ = ["play_cards"]
