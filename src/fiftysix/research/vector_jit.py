"""The vector env's compiled moves (numba, ``@njit(cache=True)``): one card, or one 56 call, at every table the
kernels hold.

The play reads its rules from tables the caller builds with each game's own play functions and tables
(:mod:`.vector_play`): per trump and card led, the cards that oblige a player and those it may then play (56:
follow suit if able; 55: follow or trump freely on a plain lead, trump on a trump lead with the renege privilege),
each card's trick key and points, a trick's bonus (55: 5), the key from which a trick's winner is a trump and the
highest trump's bonus (55), the scores of a made and a failed contract (56).  It holds the play's mechanics (the
highest key wins, a trick's points to the winner's team, the deal over when the winner's hand is empty), no table
of the rules.  The 56 auction (:mod:`.vector_auction`) holds the mechanics of ``Auction56`` for standard bidding
(who calls next, when the auction ends, the contract, a double and a redouble) and reads the rest from tables built
with the game's own functions: each call's kind, value or step and strain, the bank row of the legal calls of each
auction state (``calls.legal_bids``), every contract's scores (``deal_score``).

Every kernel the env's step calls lives in this one file on purpose: numba's disk cache checks only the file of the
function it loads, so a kernel calling one in another file could run a stale copy of it.  The reference is the
engine's ``Deal.push`` (``compiled=False``), and the tests compare the two step by step.
"""

from __future__ import annotations

from numba import njit

# the columns of a table's auction state (``auction``: (N, 7) int64)
VALUE, BIDDER, STRAIN, DOUBLED, PASSES, SUIT_NAMED, CALLS = range(7)
# call kinds
PASS, DOUBLE, REDOUBLE, BID = range(4)



@njit(cache=True, nogil=True)
def play_cards(acts, live, first_card, hands, pub, o_played, o_trick, o_points, trick, in_trick, leader, points,
               team_of, kind_suit, keys, trump, cards_of, played, n_played, team, value, scores, rewards, over,
               to_move, bits, oblige, allowed, trick_bonus, tricks, high, o_high, trump_min, high_bonus, scored):
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


@njit(cache=True, nogil=True)
def _apply_call(state, a, s, n, first_hand, min_bid, call_kind, call_value, call_step, call_strain, call_suit):
    """Seat ``s`` makes call ``a`` in the auction ``state`` (a row of ``make_calls``'s ``auction``): whether the
    auction is over."""
    kind = call_kind[a]
    if kind == PASS:
        state[PASSES] += 1
        if state[BIDDER] >= 0:
            return state[PASSES] == n - 1
        if state[PASSES] == n:       # all passed: first hand plays the least bid in no-trumps
            state[BIDDER] = first_hand
            state[VALUE] = min_bid
            state[STRAIN] = 4
            return True
        return False
    state[PASSES] = 0
    if kind == DOUBLE:
        state[DOUBLED] = 1
        return False
    if kind == REDOUBLE:
        state[DOUBLED] = 2
        return True
    state[VALUE] = call_value[a] if call_value[a] >= 0 else state[VALUE] + call_step[a]
    state[BIDDER] = s
    state[DOUBLED] = 0
    state[STRAIN] = call_strain[a]
    if call_suit[a] >= 0:
        state[SUIT_NAMED] = 1
    return False


@njit(cache=True, nogil=True)
def _legal_row(state, seat, team_of, closes, min_bid, state_rows, closed_rows, specials_over_bid):
    """The bank row of the calls ``seat`` may make in the auction ``state`` (not over; a call was made): pass, and
    double or redouble as the standing bid allows (``specials_over_bid``: the game's ``SPECIALS_OVER_BID``), then the
    bids."""
    bidder = state[BIDDER]
    if bidder < 0:
        return state_rows[state[VALUE] - min_bid + 1, 1, 1, 0]
    doubled = state[DOUBLED]
    specials = specials_over_bid[doubled, 1 if team_of[bidder] == team_of[seat] else 0]
    if doubled and closes:
        return closed_rows[specials]
    return state_rows[state[VALUE] - min_bid + 1, specials, 0, state[SUIT_NAMED]]


@njit(cache=True, nogil=True)
def make_calls(acts, in_auction, auction, history, call_kind, call_value, call_step, call_strain, call_suit, call_rows,
               pub, o_last, width, o_calls, o_bid, first_hand, team_of, closes, min_bid, state_rows, closed_rows,
               specials_over_bid, to_move, rows, bits, phase, play_code, live, hands, in_trick, leader, team_points,
               tricks, trump_at, trump, declarer, team, value, scores, score_table, n_played):
    """Apply ``acts[i]`` (a call, already checked legal) at every table ``i`` with ``in_auction[i]``.

    Writes the observation's auction pieces (the seat's last call from ``call_rows``, the number of calls, the
    standing bid from ``o_bid``: value, bidder, strain, multiplier), the auction state and ``history`` (the calls in
    order, for the engine deal to catch up later), and per table the next seat ``to_move`` and its legal moves
    (``rows``: the bank row of ``state_rows[value - min_bid + 1, specials, no bid yet, a suit named]``, or of
    ``closed_rows[specials]`` after a double that closes, the specials from ``specials_over_bid``; ``bits`` 0). An
    auction that ends (every seat passed: first hand's ``min_bid`` no-trumps; the others passed a bid; a redouble)
    starts the play: ``live``, the trump (``trump_at`` and ``trump``: the strain, 4 no-trumps), the declarer, the
    contract's team, value and ``scores`` (``score_table[team, value - min_bid, doubled]``: made, failed, per seat),
    first hand to lead with all its cards legal.
    """
    n = hands.shape[1]
    k = hands.shape[2]
    for i in range(acts.shape[0]):
        if not in_auction[i] or acts[i] < 0:
            continue
        a = acts[i]
        s = to_move[i]
        for j in range(width):
            pub[i, o_last + s * width + j] = call_rows[a, j]
        pub[i, o_calls] += 1.0
        history[i, auction[i, CALLS]] = a
        auction[i, CALLS] += 1
        done = _apply_call(auction[i], a, s, n, first_hand, min_bid, call_kind, call_value, call_step, call_strain,
                           call_suit)
        bidder = auction[i, BIDDER]
        for j in range(1 + n + 5 + 3):
            pub[i, o_bid + j] = 0.0
        if bidder >= 0:
            pub[i, o_bid] = auction[i, VALUE]
            pub[i, o_bid + 1 + bidder] = 1.0
            pub[i, o_bid + 1 + n + auction[i, STRAIN]] = 1.0
            pub[i, o_bid + 1 + n + 5 + auction[i, DOUBLED]] = 1.0
        if not done:
            nxt = (s + 1) % n
            to_move[i] = nxt
            bits[i] = 0
            rows[i] = _legal_row(auction[i], nxt, team_of, closes, min_bid, state_rows, closed_rows, specials_over_bid)
            continue
        # the contract: the play begins, first hand to lead
        strain = auction[i, STRAIN]
        t = team_of[bidder]
        in_auction[i] = False
        live[i] = True
        phase[i] = play_code
        trump_at[i] = strain
        trump[i] = strain
        declarer[i] = bidder
        team[i] = t
        value[i] = auction[i, VALUE]
        for m in range(2):
            for seat in range(n):
                scores[i, m, seat] = score_table[t, auction[i, VALUE] - min_bid, auction[i, DOUBLED], m, seat]
        in_trick[i] = 0
        leader[i] = first_hand
        n_played[i] = 0
        for t2 in range(team_points.shape[1]):
            team_points[i, t2] = 0
            tricks[i, t2] = 0
        b = 0
        for j in range(k):
            if hands[i, first_hand, j] > 0.0:
                b |= 1 << j
        to_move[i] = first_hand
        rows[i] = 0
        bits[i] = b


__all__ = ["make_calls", "play_cards"]
