"""The ``rules`` bot's decisions for 56 as numba kernels (``@njit(cache=True)``): its calls and its cards, seat by
seat, read from the compiled env's arrays (:mod:`.vector_rules56` builds the tables from the bot's own code).

Each function mirrors one of :class:`fiftysix.bots.heuristic.rules56.Rules56Bot` or of its
:class:`~fiftysix.bots.heuristic.knowledge.Table`, in the same order of floating-point additions and with the
same tie-breaks (Python's ``min``/``max`` keep the first best in the legal moves' order: the hand's order, suits
S H D C, each strongest first).  The tests compare every decision with the Python bot's.  Every kernel lives in
this one file (numba's disk cache checks only the file of the function it loads).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# call kinds (as .vector_jit)
PASS, DOUBLE, REDOUBLE, BID = range(4)
NT = 4


@njit(cache=True, nogil=True)
def _know(i, me, n, k, hands, cards_played, m, card_kind, first_hand, trump, win_keys, kind_suit, strength, history,
          ncalls, c_kind, c_suit, c_lo_kind, c_lo_cnt, c_lo_len, c_hi0, c_exact, c_void_last, hand, played,
          played_by, voids, outstanding, shown, shown_seq, shown_cnt, denied, exact_on, exact, trick, held):
    """:class:`Table`'s knowledge of seat ``me`` at table ``i`` into the scratch arrays; returns (trick leader,
    cards in the trick)."""
    hand[:] = 0
    outstanding[:] = 0
    played[:] = 0
    played_by[:] = 0
    voids[:] = False
    shown[:] = 0
    shown_cnt[:] = 0
    denied[:] = False
    exact_on[:] = False
    exact[:] = 0
    for j in range(k):
        hand[j] = np.int64(hands[i, me, j])
    leader = first_hand
    in_trick = 0
    t0 = 0
    while t0 < m:
        cnt = min(n, m - t0)
        led = kind_suit[card_kind[cards_played[i, t0]]]
        best = -1
        best_at = 0
        for j in range(cnt):
            kd = card_kind[cards_played[i, t0 + j]]
            seat = (leader + j) % n
            played[kd] += 1
            played_by[seat, kd] += 1
            if kind_suit[kd] != led:
                voids[seat, led] = True
            key = win_keys[trump, led, kd]
            if key > best:
                best = key
                best_at = j
            trick[j] = kd
        if cnt < n:
            in_trick = cnt
            break
        leader = (leader + best_at) % n
        t0 += n
    for j in range(k):
        left = 2 - played[j] - hand[j]
        outstanding[j] = left if left > 0 else 0
        hand[k + kind_suit[j]] += hand[j]
        outstanding[2 * k + kind_suit[j]] += outstanding[j]
    top_out = np.zeros(4, np.int64)     # a master: no card of its suit above it is out (asked often: kept)
    for j in range(k):
        if outstanding[j] > 0 and strength[j] > top_out[kind_suit[j]]:
            top_out[kind_suit[j]] = strength[j]
    for j in range(k):
        outstanding[k + j] = 1 if top_out[kind_suit[j]] <= strength[j] else 0
    last_named = -1
    for ci in range(ncalls):
        a = history[i, ci]
        if c_kind[a] != BID:
            continue
        s = (first_hand + ci) % n
        if s != me:
            _fold(a, s, k, last_named, kind_suit, c_lo_kind, c_lo_cnt, c_lo_len, c_hi0, c_exact, c_void_last,
                  played_by, voids, outstanding, shown, shown_seq, shown_cnt, denied, exact_on, exact, held)
        if c_suit[a] >= 0:
            last_named = c_suit[a]
    return leader, in_trick


@njit(cache=True, nogil=True)
def _fold(a, s, k, last_named, kind_suit, c_lo_kind, c_lo_cnt, c_lo_len, c_hi0, c_exact, c_void_last, played_by,
          voids, outstanding, shown, shown_seq, shown_cnt, denied, exact_on, exact, held):
    """``Table._fold_claim``: seat ``s``'s claim by call ``a``, less the cards it has played since."""
    if c_void_last[a]:
        if last_named < 0:
            return      # no suit named yet: the form claims nothing
        some = False
        for j in range(k):
            if kind_suit[j] == last_named and played_by[s, j] > 0:
                some = True
        if not some:
            voids[s, last_named] = True
    for q in range(c_lo_len[a]):
        j = c_lo_kind[a, q]
        still = c_lo_cnt[a, q] - played_by[s, j]
        if still > 0 and outstanding[j] >= still:
            if shown[s, j] == 0:        # (a Counter keeps the order in which its keys came)
                shown_seq[s, shown_cnt[s]] = j
                shown_cnt[s] += 1
            if still > shown[s, j]:
                shown[s, j] = still
    for j in range(k):
        if c_hi0[a, j]:
            denied[s, j] = True
    if c_exact[a] >= 0:
        _fold_exact(a, s, k, c_exact[a], kind_suit, c_lo_kind, c_lo_cnt, c_lo_len, played_by, voids, outstanding,
                    exact_on, exact, held)


@njit(cache=True, nogil=True)
def _fold_exact(a, s, k, x, kind_suit, c_lo_kind, c_lo_cnt, c_lo_len, played_by, voids, outstanding, exact_on, exact,
                held):
    """``Table._fold_exact_suit``: suit ``x`` of which call ``a`` names every card, less what ``s`` played since."""
    ok = True
    empty = True
    held[:] = 0
    for q in range(c_lo_len[a]):
        j = c_lo_kind[a, q]
        if kind_suit[j] == x:
            held[j] += c_lo_cnt[a, q]
    for j in range(k):
        if kind_suit[j] == x:
            h = held[j] - played_by[s, j]
            held[j] = h if h > 0 else 0
            if held[j] > 0:
                empty = False
                if outstanding[j] < held[j]:
                    ok = False
    if ok:
        exact_on[s, x] = True
        for j in range(k):
            if kind_suit[j] == x:
                exact[s, j] = held[j]
        if empty:
            voids[s, x] = True


@njit(cache=True, nogil=True)
def _may_hold_card(seat, me, j, n, kind_suit, outstanding, voids, denied, exact_on, exact, shown):
    if seat == me or outstanding[j] == 0:
        return False
    s = kind_suit[j]
    if voids[seat, s] or denied[seat, j]:
        return False
    if exact_on[seat, s]:
        return exact[seat, j] > 0
    elsewhere = 0
    for x in range(n):
        if x != seat:
            elsewhere += shown[x, j]
    for x in range(n):
        if x != seat and exact_on[x, s]:
            elsewhere += exact[x, j]
    return elsewhere < outstanding[j]


@njit(cache=True, nogil=True)
def _holds(suit, k, hand, kind_suit):
    for j in range(k):  # noqa: SIM110 - a loop: numba compiles no generator into any()
        if kind_suit[j] == suit and hand[j] > 0:
            return True
    return False


@njit(cache=True, nogil=True)
def _may_hold(seat, me, suit, n, k, hand, kind_suit, outstanding, voids, denied, exact_on, exact, shown):
    if voids[seat, suit] or seat == me:
        return seat == me and _holds(suit, k, hand, kind_suit)
    for j in range(k):
        if kind_suit[j] == suit and outstanding[j] > 0 and _may_hold_card(
                seat, me, j, n, kind_suit, outstanding, voids, denied, exact_on, exact, shown):
            return True
    return False


@njit(cache=True, nogil=True)
def _may_hold_higher(seat, me, card, n, k, kind_suit, strength, outstanding, voids, denied, exact_on, exact, shown):
    s = kind_suit[card]
    for j in range(k):
        if kind_suit[j] == s and strength[j] > strength[card] and outstanding[j] > 0 and _may_hold_card(
                seat, me, j, n, kind_suit, outstanding, voids, denied, exact_on, exact, shown):
            return True
    return False


@njit(cache=True, nogil=True)
def _outstanding_in(suit, k, kind_suit, outstanding):
    """``Table.outstanding_in``: the cards of ``suit`` still out (kept by :func:`_know` after the counts)."""
    return outstanding[2 * k + suit]


@njit(cache=True, nogil=True)
def _is_master(card, k, kind_suit, strength, outstanding):
    """``Table.is_master`` (kept by :func:`_know` after the counts)."""
    return outstanding[k + card] == 1


@njit(cache=True, nogil=True)
def _can_be_beaten(card, led, seats, n_seats, me, trump, n, k, hand, kind_suit, strength, outstanding, voids, denied,
                   exact_on, exact, shown):
    """``Table.can_be_beaten``: whether one of ``seats[:n_seats]`` might beat ``card`` as the trick's best."""
    if n_seats == 0:
        return False
    s = kind_suit[card]
    if s == trump:
        for m in range(n_seats):
            if _may_hold_higher(seats[m], me, card, n, k, kind_suit, strength, outstanding, voids, denied, exact_on,
                                exact, shown):
                return True
        return False
    if s != led:
        return True
    for m in range(n_seats):
        if _may_hold_higher(seats[m], me, card, n, k, kind_suit, strength, outstanding, voids, denied, exact_on,
                            exact, shown):
            return True
    if trump != NT and _outstanding_in(trump, k, kind_suit, outstanding) > 0:
        short = _outstanding_in(s, k, kind_suit, outstanding) < n_seats
        for m in range(n_seats):
            x = seats[m]
            if _may_hold(x, me, trump, n, k, hand, kind_suit, outstanding, voids, denied, exact_on, exact, shown) and (
                    not _may_hold(x, me, s, n, k, hand, kind_suit, outstanding, voids, denied, exact_on, exact, shown)
                    or short):
                return True
    return False


@njit(cache=True, nogil=True)
def _estimates(hand, n, k, kind_suit, points, is_j, is_9, w_suit, w_nt, me, team_of, shown, shown_seq, shown_cnt,
               voids, played_by, history, ncalls, first_hand, c_kind, c_strain, w_j, w_9, share, est):
    """``Rules56Bot.estimates`` with the auction's adjustments, in ``est`` (S H D C NT)."""
    cnt = np.zeros(4, np.int64)
    jk = np.zeros(4, np.int64)
    nn = np.zeros(4, np.int64)
    hp = 0
    for j in range(k):
        c = hand[j]
        if c > 0:
            s = kind_suit[j]
            cnt[s] += c
            hp += c * points[j]
            if is_j[j]:
                jk[s] += c
            if is_9[j]:
                nn[s] += c
    feat = np.zeros(8)
    for strain in range(5):
        coef = w_nt if strain == NT else w_suit
        _features(strain, cnt, jk, nn, hp, feat)
        total = 0.0
        for f in range(8):
            total += coef[f] * feat[f]
        est[strain] = total
    out = _adjustments(n, k, kind_suit, is_j, is_9, me, team_of, shown, shown_seq, shown_cnt, voids, played_by,
                       history, ncalls, first_hand, c_kind, c_strain, w_j, w_9, share)
    for s in range(5):
        est[s] += out[s]


@njit(cache=True, nogil=True)
def _features(strain, cnt, jk, nn, hp, feat):
    """``hand_features``: the hand's features for declaring in ``strain`` (from its counts per suit)."""
    if strain == NT:
        jacks = 0
        backed = 0
        doubles = 0
        longest = 0
        for s in range(4):
            jacks += jk[s]
            if jk[s] > 0:
                backed += nn[s]
            if jk[s] == 2:
                doubles += 1
            if cnt[s] > longest:
                longest = cnt[s]
        feat[0], feat[1], feat[2], feat[3] = 1.0, float(jacks), float(backed), float(doubles)
        feat[4], feat[5], feat[6], feat[7] = float(hp), float(longest), 0.0, 0.0
        return
    side_j = 0
    side_9 = 0
    nvoid = 0
    for s in range(4):
        if s != strain:
            side_j += jk[s]
            if jk[s] > 0:
                side_9 += nn[s]
            if cnt[s] == 0:
                nvoid += 1
    length = cnt[strain]
    feat[0], feat[1], feat[2], feat[3] = 1.0, float(jk[strain]), float(nn[strain]), float(length)
    feat[4], feat[5], feat[6] = float(side_j), float(side_9), float(hp)
    feat[7] = float(nvoid * min(length, 3))


@njit(cache=True, nogil=True)
def _adjustments(n, k, kind_suit, is_j, is_9, me, team_of, shown, shown_seq, shown_cnt, voids, played_by, history,
                 ncalls, first_hand, c_kind, c_strain, w_j, w_9, share):
    """``auction_adjustments``: what the other seats showed, per strain (additions in the bot's order)."""
    out = np.zeros(5)
    for seat in range(n):
        if seat == me:
            continue
        sign = 1.0 if team_of[seat] == team_of[me] else -1.0
        for m in range(shown_cnt[seat]):
            j = shown_seq[seat, m]
            kk = shown[seat, j]
            s = kind_suit[j]
            if is_j[j]:
                out[s] += sign * share * w_j * kk
                out[NT] += sign * 0.5 * kk
            elif is_9[j]:
                out[s] += sign * share * w_9 * kk
        if sign > 0:
            none_played = True
            for j in range(k):
                if played_by[seat, j] > 0:
                    none_played = False
            for s in range(4):
                if voids[seat, s] and none_played:
                    out[s] -= 1.5
    for ci in range(ncalls):
        a = history[ci]
        seat = (first_hand + ci) % n
        if c_kind[a] != BID or seat == me or c_strain[a] == NT:
            continue
        out[c_strain[a]] += 1.0 if team_of[seat] == team_of[me] else -1.0
    return out


@njit(cache=True, nogil=True)
def _first_legal(row, bank, first, last, skip_specials, a_pass, a_x, a_xx):
    for a in range(first, last):
        if bank[row, a] and not (skip_specials and a in (a_pass, a_x, a_xx)):
            return a
    return -1


@njit(cache=True, nogil=True)
def _top_run(hand, suit_kinds, strain, n_ranks):
    """``top_run``: k if the hand's cards of the suit are exactly its k top cards (strongest first), else 0."""
    run = 0
    gap = False
    for r in range(n_ranks):
        c = hand[suit_kinds[strain, r]]
        if c > 0:
            if gap:
                return 0
            run += c
        if c < 2:
            gap = True
    return run


@njit(cache=True, nogil=True)
def _bid_text(strain, value, limit, av, bidder, last_suit, hand, k, kind_suit, suit_kinds, n_ranks, row, bank,
              a_num_suit, a_suit_num, a_nt, a_noes, a_plus):
    """``Rules56Bot.bid_text`` (standard bidding): the first legal of the candidate forms, or -1."""
    if value >= a_nt.shape[0]:
        return -1
    if strain == NT:
        if last_suit >= 0:
            has = False
            for j in range(k):
                if kind_suit[j] == last_suit and hand[j] > 0:
                    has = True
            if not has:
                a = a_noes[value]
                if a >= 0 and bank[row, a]:
                    return a
        a = a_nt[value]
        return a if a >= 0 and bank[row, a] else -1
    kr = _top_run(hand, suit_kinds, strain, n_ranks)
    if kr and bidder >= 0 and av + kr <= limit and av + kr >= 28 and kr < a_plus.shape[0]:
        a = a_plus[kr, strain]
        if a >= 0 and bank[row, a]:
            return a
    has_j = hand[suit_kinds[strain, 0]] > 0
    a = a_num_suit[value, strain] if has_j else a_suit_num[value, strain]
    return a if a >= 0 and bank[row, a] else -1


@njit(cache=True, nogil=True)
def _auction_state(hist, ncalls, first_hand, n, me, team_of, c_kind, c_abs, c_step, c_strain, c_suit):
    """``AuctionState``: (value, bidder, strain, doubled, last suit named, a partner bid)."""
    value = 27
    bidder = -1
    strain_bid = -1
    doubled = 0
    last_suit = -1
    partner_bid = False
    for ci in range(ncalls):
        a = hist[ci]
        seat = (first_hand + ci) % n
        kd = c_kind[a]
        if kd != BID:
            doubled = 1 if kd == DOUBLE else 2 if kd == REDOUBLE else doubled
            continue
        value = c_abs[a] if c_abs[a] >= 0 else value + c_step[a]
        bidder = seat
        strain_bid = c_strain[a]
        doubled = 0
        if c_suit[a] >= 0:
            last_suit = c_suit[a]
        if seat != me and team_of[seat] == team_of[me]:
            partner_bid = True
    return value, bidder, strain_bid, doubled, last_suit, partner_bid


@njit(cache=True, nogil=True)
def _call(i, me, n, k, hand, bank, row, num_calls, history, ncalls, first_hand, team_of, kind_suit, points, is_j, is_9,
          suit_kinds, n_ranks, w_suit, w_nt, w_j, w_9, share, margin0, allowance, closes, c_kind, c_abs, c_step,
          c_strain, c_suit, a_pass, a_x, a_xx, a_num_suit, a_suit_num, a_nt, a_noes, a_plus, shown, shown_seq,
          shown_cnt, voids, played_by, est):
    """``Rules56Bot.call`` (standard bidding), then ``choose``'s safe default: the call's action."""
    hist = history[i]
    value, bidder, strain_bid, doubled, last_suit, partner_bid = _auction_state(hist, ncalls, first_hand, n, me,
                                                                                team_of, c_kind, c_abs, c_step,
                                                                                c_strain, c_suit)
    closed = doubled > 0 and closes
    _estimates(hand, n, k, kind_suit, points, is_j, is_9, w_suit, w_nt, me, team_of, shown, shown_seq, shown_cnt,
               voids, played_by, hist, ncalls, first_hand, c_kind, c_strain, w_j, w_9, share, est)
    strain = 0
    for s in range(1, 5):
        if est[s] > est[strain] or (est[s] == est[strain] and s == NT):
            strain = s
    margin = margin0 + (1.0 if n >= 8 else 0.0)
    limit = est[strain] - margin
    if partner_bid:
        limit += allowance / (2.0 if n >= 8 else 1.0)
    p_ok = a_pass >= 0 and bank[row, a_pass]
    move = -2
    if bidder >= 0 and team_of[bidder] == team_of[me]:
        move = _partners_contract(est[strain], margin, allowance, value, doubled, p_ok, strain, bidder, last_suit,
                                  hand, k, kind_suit, suit_kinds, n_ranks, row, bank, num_calls, a_pass, a_x, a_xx,
                                  a_num_suit, a_suit_num, a_nt, a_noes, a_plus)
    if move == -2 and bidder >= 0 and team_of[bidder] != team_of[me] and a_x >= 0 and bank[row, a_x] and \
            _should_double(hand, k, kind_suit, points, is_j, is_9, n, strain_bid, value):
        move = a_x
    if move == -2 and closed:
        move = a_pass if p_ok else _first_legal(row, bank, 0, num_calls, False, a_pass, a_x, a_xx)
    if move == -2:
        move = _raise(strain, value, limit, p_ok, bidder, last_suit, hand, k, kind_suit, suit_kinds, n_ranks, row, bank,
                      num_calls, a_pass, a_x, a_xx, a_num_suit, a_suit_num, a_nt, a_noes, a_plus)
    if move < 0 or not bank[row, move]:     # choose's safe default
        move = a_pass if p_ok else _first_legal(row, bank, 0, num_calls, False, a_pass, a_x, a_xx)
    return move


@njit(cache=True, nogil=True)
def _partners_contract(best, margin, allowance, value, doubled, p_ok, strain, bidder, last_suit, hand, k, kind_suit,
                       suit_kinds, n_ranks, row, bank, num_calls, a_pass, a_x, a_xx, a_num_suit, a_suit_num, a_nt,
                       a_noes, a_plus):
    """Partner holds the contract: redouble, let it stand, or -2 (the hand is much better on its own)."""
    if doubled == 1 and a_xx >= 0 and bank[row, a_xx] and best + allowance >= value + 8:
        return a_xx
    if best - margin < value + 6:
        if p_ok:
            return a_pass
        return _cheapest(strain, value, bidder, last_suit, hand, k, kind_suit, suit_kinds, n_ranks, row, bank,
                         num_calls, a_pass, a_x, a_xx, a_num_suit, a_suit_num, a_nt, a_noes, a_plus)
    return -2


@njit(cache=True, nogil=True)
def _raise(strain, value, limit, p_ok, bidder, last_suit, hand, k, kind_suit, suit_kinds, n_ranks, row, bank,
           num_calls, a_pass, a_x, a_xx, a_num_suit, a_suit_num, a_nt, a_noes, a_plus):
    """The end of ``call``: the cheapest bid within the limit (or forced), else pass."""
    target = max(value + 1, 28)
    if target <= limit or not p_ok:
        bid = _bid_text(strain, target, limit, value, bidder, last_suit, hand, k, kind_suit, suit_kinds, n_ranks,
                        row, bank, a_num_suit, a_suit_num, a_nt, a_noes, a_plus)
        if bid >= 0:
            return bid
        if not p_ok:
            return _cheapest(strain, value, bidder, last_suit, hand, k, kind_suit, suit_kinds, n_ranks, row,
                             bank, num_calls, a_pass, a_x, a_xx, a_num_suit, a_suit_num, a_nt, a_noes, a_plus)
    return a_pass


@njit(cache=True, nogil=True)
def _cheapest(strain, value, bidder, last_suit, hand, k, kind_suit, suit_kinds, n_ranks, row, bank, num_calls, a_pass,
              a_x, a_xx, a_num_suit, a_suit_num, a_nt, a_noes, a_plus):
    bid = _bid_text(strain, max(value + 1, 28), 56.0, value, bidder, last_suit, hand, k, kind_suit, suit_kinds,
                    n_ranks, row, bank, a_num_suit, a_suit_num, a_nt, a_noes, a_plus)
    if bid >= 0:
        return bid
    a = _first_legal(row, bank, 0, num_calls, True, a_pass, a_x, a_xx)
    return a if a >= 0 else _first_legal(row, bank, 0, num_calls, False, a_pass, a_x, a_xx)


@njit(cache=True, nogil=True)
def _should_double(hand, k, kind_suit, points, is_j, is_9, n, strain, value):
    jacks = 0
    hp = 0
    tj = 0
    t9 = 0
    for j in range(k):
        jacks += hand[j] if is_j[j] else 0
        hp += hand[j] * points[j]
        if kind_suit[j] == strain:
            tj += hand[j] if is_j[j] else 0
            t9 += hand[j] if is_9[j] else 0
    fair = 56.0 / n
    if strain != NT:
        if tj == 2 and t9 >= 1 and value >= 32:
            return True
        if tj == 2 and value >= 38:
            return True
        return tj >= 1 and hp >= 2.2 * fair and value >= 42
    return jacks >= 3 and hp >= 2 * fair and value >= 36


@njit(cache=True, nogil=True)
def _low(cards, nc, trump, k, hand, kind_suit, strength, points, outstanding):
    """``Rules56Bot._low``: fewest points, no trump, no master, low, from a long suit (the first such)."""
    best = -1
    best_key = 0
    for m in range(nc):
        c = cards[m]
        s = kind_suit[c]
        slen = hand[k + s]
        key = (((points[c] * 2 + (1 if s == trump else 0)) * 2 + (1 if _is_master(c, k, kind_suit, strength,
                                                                                  outstanding) else 0)) * 16
               + strength[c]) * 64 + (63 - slen)
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


@njit(cache=True, nogil=True)
def _play(i, me, n, k, hand, bits, order, trump, declarer, team_of, kind_suit, strength, points, keys, leader,
          in_trick, trick, history, ncalls, first_hand, c_kind, c_psuits, outstanding, voids, denied, exact_on, exact,
          shown, cards, pool, seats):
    """``Rules56Bot.play`` (a public trump: no ``?``): the card's kind."""
    nc = 0
    for m in range(k):
        j = order[m]
        if (bits >> j) & 1:
            cards[nc] = j
            nc += 1
    if in_trick == 0:
        return _lead(me, n, k, hand, cards, nc, trump, declarer, team_of, kind_suit, strength, points, history,
                     ncalls, first_hand, c_kind, c_psuits, outstanding, voids, denied, exact_on, exact, shown)
    # _TrickSoFar
    led = kind_suit[trick[0]]
    best_at = 0
    for j in range(1, in_trick):
        if keys[trump, led, trick[j]] > keys[trump, led, trick[best_at]]:
            best_at = j
    best = trick[best_at]
    n_opp = 0
    still = 0
    for p in range(in_trick + 1, n):
        x = (leader + p) % n
        still += 1
        if team_of[x] != team_of[me]:
            seats[n_opp] = x
            n_opp += 1
    tpoints = 0
    for j in range(in_trick):
        tpoints += points[trick[j]]
    following = False
    for m in range(nc):
        if kind_suit[cards[m]] == led:
            following = True
    if team_of[(leader + best_at) % n] == team_of[me]:
        return _partner_winning(cards, nc, pool, best, led, seats, n_opp, trump, tpoints, following, keys, points,
                                me, n, k, hand, kind_suit, strength, outstanding, voids, denied, exact_on, exact, shown)
    if following:
        return _against_opponent(cards, nc, best, led, seats, n_opp, trump, tpoints, keys, points, me, n, k, hand,
                                 kind_suit, strength, outstanding, voids, denied, exact_on, exact, shown)
    return _void_in_led(cards, nc, pool, best, led, seats, n_opp, trump, tpoints + still, keys, points,
                        me, n, k, hand, kind_suit, strength, outstanding, voids, denied, exact_on, exact, shown)


@njit(cache=True, nogil=True)
def _partner_winning(cards, nc, pool, best, led, seats, n_opp, trump, tpoints, following, keys, points,
                     me, n, k, hand, kind_suit, strength, outstanding, voids, denied, exact_on, exact, shown):
    """``_with_partner_winning``: a gift if partner holds the trick, else win it safely or play low."""
    if not _can_be_beaten(best, led, seats, n_opp, me, trump, n, k, hand, kind_suit, strength, outstanding, voids,
                          denied, exact_on, exact, shown):
        npool = 0
        for m in range(nc):
            if kind_suit[cards[m]] != trump or following:
                pool[npool] = cards[m]
                npool += 1
        if npool == 0:
            pool[:nc] = cards[:nc]
            npool = nc
        return _gift(pool, npool, led, trump, k, kind_suit, strength, points, outstanding)
    best_key = keys[trump, led, best]
    got = -1
    got_key = 0
    for m in range(nc):
        c = cards[m]
        if keys[trump, led, c] > best_key and not _can_be_beaten(
                c, led, seats, n_opp, me, trump, n, k, hand, kind_suit, strength, outstanding, voids, denied,
                exact_on, exact, shown):
            key = (strength[c] + (16 if kind_suit[c] == trump else 0)) * 8 + points[c]
            if got < 0 or key < got_key:
                got, got_key = c, key
    if got >= 0 and (following or tpoints + 2 >= 4):
        return got
    return _low(cards, nc, trump, k, hand, kind_suit, strength, points, outstanding)


@njit(cache=True, nogil=True)
def _against_opponent(cards, nc, best, led, seats, n_opp, trump, tpoints, keys, points,
                      me, n, k, hand, kind_suit, strength, outstanding, voids, denied, exact_on, exact, shown):
    """``_against_opponent``: following to a trick an opponent wins: win it safely, or dearly when it is rich."""
    best_key = keys[trump, led, best]
    got = -1
    got_key = 0
    high = -1
    for m in range(nc):
        c = cards[m]
        if keys[trump, led, c] > best_key:
            if high < 0 or strength[c] > strength[high]:
                high = c
            if not _can_be_beaten(c, led, seats, n_opp, me, trump, n, k, hand, kind_suit, strength, outstanding,
                                  voids, denied, exact_on, exact, shown):
                key = strength[c] * 8 + (7 - points[c])
                if got < 0 or key < got_key:
                    got, got_key = c, key
    if got >= 0:
        return got
    if high >= 0 and tpoints >= 4:
        return high
    return _low(cards, nc, trump, k, hand, kind_suit, strength, points, outstanding)


@njit(cache=True, nogil=True)
def _void_in_led(cards, nc, pool, best, led, seats, n_opp, trump, expected, keys, points,
                 me, n, k, hand, kind_suit, strength, outstanding, voids, denied, exact_on, exact, shown):
    """``_void_in_the_suit_led``: ruff a trick worth it (with a trump nobody after beats, if any), else discard."""
    if trump != NT:
        best_key = keys[trump, led, best]
        ruff = -1
        held = -1
        for m in range(nc):
            c = cards[m]
            if kind_suit[c] == trump and keys[trump, led, c] > best_key:
                if ruff < 0 or strength[c] < strength[ruff]:
                    ruff = c
                if (held < 0 or strength[c] < strength[held]) and not _can_be_beaten(
                        c, led, seats, n_opp, me, trump, n, k, hand, kind_suit, strength, outstanding, voids, denied,
                        exact_on, exact, shown):
                    held = c
        if ruff >= 0 and expected >= 3:
            return held if held >= 0 else ruff
    npool = 0
    for m in range(nc):
        if kind_suit[cards[m]] != trump:
            pool[npool] = cards[m]
            npool += 1
    if npool == 0:
        pool[:nc] = cards[:nc]
        npool = nc
    return _low(pool, npool, trump, k, hand, kind_suit, strength, points, outstanding)


@njit(cache=True, nogil=True)
def _gift(cs, nc, led, trump, k, kind_suit, strength, points, outstanding):
    """``Rules56Bot._gift``: the most points that would not win a trick on their own later (the first such)."""
    best = -1
    best_key = 0
    for m in range(nc):
        c = cs[m]
        twice = 2 * points[c] if (not _is_master(c, k, kind_suit, strength, outstanding)
                                  or kind_suit[c] == led) else 2 * points[c] - 5
        key = ((twice + 8) * 2 + (1 if kind_suit[c] != trump else 0)) * 16 + (15 - strength[c])
        if best < 0 or key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True, nogil=True)
def _lead(me, n, k, hand, cards, nc, trump, declarer, team_of, kind_suit, strength, points, history, ncalls,
          first_hand, c_kind, c_psuits, outstanding, voids, denied, exact_on, exact, shown):
    """``Rules56Bot.lead``: draw trumps, cash a master, or a low card from a good suit."""
    declaring = team_of[declarer] == team_of[me]
    if declaring and trump != NT:
        top = _drawing_trump(me, n, k, cards, nc, trump, team_of, kind_suit, strength, outstanding, voids)
        if top >= 0:
            return top
    best = _master_lead(me, n, k, hand, cards, nc, trump, team_of, kind_suit, strength, points, outstanding, voids,
                        denied, exact_on, exact, shown)
    if best >= 0:
        return best
    psuits = 0
    for ci in range(ncalls):
        seat = (first_hand + ci) % n
        if seat != me and team_of[seat] == team_of[me]:
            psuits |= c_psuits[history[ci]]
    return _low_lead(k, hand, cards, nc, trump, declaring, psuits, kind_suit, strength, points)


@njit(cache=True, nogil=True)
def _drawing_trump(me, n, k, cards, nc, trump, team_of, kind_suit, strength, outstanding, voids):
    """The declaring team's master trump to draw trumps with (two trumps at least, an opponent may hold one), or
    -1."""
    n_tr = 0
    top = -1
    for m in range(nc):
        c = cards[m]
        if kind_suit[c] == trump:
            n_tr += 1
            if top < 0 or strength[c] > strength[top]:
                top = c
    opp_may = False
    if _outstanding_in(trump, k, kind_suit, outstanding) > 0:
        for o in range(n):
            if team_of[o] != team_of[me] and not voids[o, trump]:
                opp_may = True
    if n_tr > 0 and opp_may and _is_master(top, k, kind_suit, strength, outstanding) and n_tr >= 2:
        return top
    return -1


@njit(cache=True, nogil=True)
def _master_lead(me, n, k, hand, cards, nc, trump, team_of, kind_suit, strength, points, outstanding, voids, denied,
                 exact_on, exact, shown):
    """A side-suit master no opponent can ruff (the most points, the suit with fewest out), or -1."""
    hand_size = 0
    for j in range(k):
        hand_size += hand[j]
    best = -1
    best_key = 0
    for m in range(nc):
        c = cards[m]
        s = kind_suit[c]
        if s == trump or not _is_master(c, k, kind_suit, strength, outstanding):
            continue
        ruff = False
        if trump != NT and hand_size > 2:
            for o in range(n):
                if team_of[o] != team_of[me] and voids[o, s] and _may_hold(
                        o, me, trump, n, k, hand, kind_suit, outstanding, voids, denied, exact_on, exact, shown):
                    ruff = True
        if not ruff:
            key = points[c] * 64 + (63 - _outstanding_in(s, k, kind_suit, outstanding))
            if best < 0 or key > best_key:
                best, best_key = c, key
    return best


@njit(cache=True, nogil=True)
def _low_lead(k, hand, cards, nc, trump, declaring, psuits, kind_suit, strength, points):
    """The lowest card of the best suit: long, partner's, not trumps when defending (suits C D H S, first best)."""
    got = -1
    got_score = 0.0
    for s in (3, 2, 1, 0):
        low = -1
        slen = 0
        for m in range(nc):
            c = cards[m]
            if kind_suit[c] == s and (low < 0 or points[c] * 16 + strength[c] < points[low] * 16 + strength[low]):
                low = c
        if low < 0:
            continue
        slen = hand[k + s]
        score = float(slen)
        if (psuits >> s) & 1:
            score += 3
        if s == trump and not declaring:
            score -= 5
        score = score - 1.5 * points[low]
        if got < 0 or score > got_score:
            got, got_score = low, score
    return got


@njit(cache=True, nogil=True)
def rules_moves(movers, out, margins, allowances, n, hands, to_move, in_auction, live, bank, rows, bits, history,
                auction, calls_col, cards_played, n_played, card_kind, first_hand, trump_at, declarer, team_of,
                win_keys, keys, kind_suit, strength, points, is_j, is_9, suit_kinds, n_ranks, order, w_suit, w_nt,
                w_j, w_9, share, closes, num_calls, c_kind, c_abs, c_step, c_strain, c_suit, c_psuits, c_lo_kind,
                c_lo_cnt, c_lo_len, c_hi0, c_exact, c_void_last, a_pass, a_x, a_xx, a_num_suit, a_suit_num, a_nt,
                a_noes, a_plus, first_card):
    """``out[i]``: the action of the ``rules`` bot of seat ``to_move[i]`` at every table with ``movers[i]`` (a call
    in the compiled auction, a card in the compiled play), with that seat's ``margins`` and ``allowances``."""
    k = hands.shape[2]
    hand = np.zeros(k + 4, np.int64)         # (then each suit's length: _know)
    played = np.zeros(k, np.int64)
    played_by = np.zeros((n, k), np.int64)
    voids = np.zeros((n, 4), np.bool_)
    outstanding = np.zeros(2 * k + 4, np.int64)     # (then each card's master flag, each suit's count: _know)
    shown = np.zeros((n, k), np.int64)
    shown_seq = np.zeros((n, k), np.int64)
    shown_cnt = np.zeros(n, np.int64)
    denied = np.zeros((n, k), np.bool_)
    exact_on = np.zeros((n, 4), np.bool_)
    exact = np.zeros((n, k), np.int64)
    trick = np.zeros(n, np.int64)
    held = np.zeros(k, np.int64)
    est = np.zeros(5)
    cards = np.zeros(k, np.int64)
    pool = np.zeros(k, np.int64)
    seats = np.zeros(n, np.int64)
    for i in range(movers.shape[0]):
        if not movers[i]:
            continue
        me = to_move[i]
        ncalls = auction[i, calls_col]
        trump = NT
        m_played = 0
        if live[i]:
            trump = trump_at[i]
            m_played = n_played[i]
        leader, in_trick = _know(i, me, n, k, hands, cards_played, m_played, card_kind, first_hand, trump, win_keys,
                                 kind_suit, strength, history, ncalls, c_kind, c_suit,
                                 c_lo_kind, c_lo_cnt, c_lo_len, c_hi0, c_exact, c_void_last, hand, played, played_by,
                                 voids, outstanding, shown, shown_seq, shown_cnt, denied, exact_on, exact, trick, held)
        if in_auction[i]:
            out[i] = _call(i, me, n, k, hand, bank, rows[i], num_calls, history, ncalls, first_hand, team_of,
                           kind_suit, points, is_j, is_9, suit_kinds, n_ranks, w_suit, w_nt, w_j, w_9, share,
                           margins[me], allowances[me], closes, c_kind, c_abs, c_step, c_strain, c_suit, a_pass, a_x,
                           a_xx, a_num_suit, a_suit_num, a_nt, a_noes, a_plus, shown, shown_seq, shown_cnt, voids,
                           played_by, est)
        else:
            out[i] = first_card + _play(i, me, n, k, hand, bits[i], order, trump, declarer[i], team_of, kind_suit,
                                        strength, points, keys, leader, in_trick, trick, history[i], ncalls,
                                        first_hand, c_kind, c_psuits, outstanding, voids, denied, exact_on, exact,
                                        shown, cards, pool, seats)


__all__ = ["rules_moves"]
