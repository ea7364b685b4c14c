"""The fast double-dummy search, compiled with numba (``@njit(cache=True, nogil=True)``: a search in a thread
leaves the GIL to the others, so the server's event loop and other computers run meanwhile).

A position is encoded by :mod:`fiftysix.solver.encode` as integer card masks over *slots*: each suit
(the effective suit in 55, where the A♥ belongs to trumps) owns 16 bits, ``slot = 16 * suit + order``
with order 0 for the suit's highest card, so "beats in the same suit" is "lower slot".  Each seat has two
masks, ``one`` (holds the card at least once) and ``two`` (holds both copies; always 0 in 55).

The search is a fail-soft alpha-beta over single cards for one maximising team against all others, on an
explicit stack (numba's disk cache cannot hold recursive functions), with

* a transposition table at trick starts (a 64-bit hash of the hands up to relative ranks and the order
  of the plain suits, with the leader, mixed two ways: one for the index, one as the key; per suit a
  sum of one product per card, which the processor can work on side by side), storing lower and upper
  bounds of the points still to come, in buckets of two entries (one kept for the larger positions); no
  best lead is stored (tried: with this ordering it did not save nodes);
* identical copies merged (a hand is a set of distinct cards) and equivalent cards merged: two cards of
  one seat and one suit with equal points and no card of any other seat (nor the card winning the current
  trick) of a rank between them or equal to either play the same (the privileged trumps of 55 are never
  merged; the trick's other cards rank below its winner or are off-suit, so they cannot tell the two apart);
* move ordering from what the opponents still to play can beat or ruff (leads: sure winners, then
  cards to a partner's best card or to a partner's ruff, suits an opponent can ruff last; follows:
  points given to a partner sure to win the trick, now or still to play), and killer
  moves (the card that last cut off at the same ply gets a large bonus);
* the last trick valued directly (every card is forced);
* bounds from the points left, from points a side is sure to take (its top trumps, or the leader's
  cashing, with every other player's cheapest cards to the tricks they win) and from a trick no opponent
  of the side winning it can still win (checked only where its points could decide the window);
* null-window searches for the exact value: without a guess, each a third of the way up from the
  proved lower bound to the upper one; from a guess (a sibling's value), galloping up while they fail
  high (probes far from the value are cheap), then bisecting.

Every compiled function lives in this one module on purpose: numba's disk cache (``cache=True``) checks
only the source file of the function it loads, so a helper in another file could change without the
cached search noticing.

Values are points for the maximising team from the position on, counting the current trick.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import errors
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

MAX_SEATS = 10
SLOTS = 64
MAX_PLY = 80
# numba adds a negative-index wraparound (a compare and a select) to every array access with a signed
# index it cannot prove non-negative; the search's hottest indices (the stack's ply, the seat to move,
# the card played) are therefore unsigned, 7-8% less time.  Unsigned and signed integers must never meet in
# arithmetic or comparisons there: numba would compute them in floating point (a test checks).
U0 = np.uint64(0)
U1 = np.uint64(1)
# order bonus of the move that last refuted a sibling at the same ply (a killer move): a killer lead is
# nearly always tried first, a killer follow only above the cards of its own kind (leads 300 to 800 and
# follows 250 to 350 were compared on whole 56-6 deals: 500 and 300 searched 6-7% fewer nodes than 300
# and 300 over seeds 0-129 and again over 200-299; 650 and 800 at leads as many as 500; more at follows
# cost more nodes)
KBONUS_LEAD = 500
KBONUS_FOLLOW = 300
# ctx fields
C_N, C_TRUMP, C_MAXTEAM, C_MODE, C_BONUS, C_SALT_A, C_SALT_B = 0, 1, 2, 3, 4, 5, 6
CTX_LEN = 7
# stats fields
S_NODES, S_TT_HITS, S_TT_STORES = 0, 1, 2
MODE_56, MODE_55 = 0, 1


@njit(cache=True, nogil=True, inline="always")
def _suit_mask(s: int) -> int:
    return np.int64(0xFFFF) << (16 * s)


@njit(cache=True, nogil=True, inline="always")
def legal_mask(one: np.ndarray, seat: int, ntrick: int, led_slot: int, trump: int, mode: int,
               priv: int) -> int:
    """The distinct cards (slot mask) the seat may play to a trick of ``ntrick`` cards led by ``led_slot``."""
    h = one[seat]
    if ntrick == 0:
        return h
    led = led_slot >> 4
    follow = h & _suit_mask(led)
    if mode == MODE_56:
        if follow != 0:
            return follow
        return h
    # 55
    if trump >= 0 and led == trump:
        if follow == 0:
            return h
        if follow & ~priv:
            return follow
        # only privileged trumps: they must be played if one of them is lower than the led trump
        low = follow & ~((np.int64(1) << (led_slot + 1)) - 1)
        if low != 0:
            return follow
        return h
    if follow != 0:
        if trump >= 0:
            return follow | (h & _suit_mask(trump))
        return follow
    return h


@njit(cache=True, nogil=True)
def representatives(one: np.ndarray, n: int, seat: int, legal: int, best_slot: int, pts: np.ndarray,
                    priv: int, rep: np.ndarray) -> int:
    """Merge equivalent legal cards of ``seat``: fills ``rep[slot]`` with each legal card's representative
    and returns the mask of representatives.  ``best_slot`` is the card winning the current trick (-1 at a
    trick's start), the only card of the trick that can tell two of the seat's cards apart."""
    others = (np.int64(1) << best_slot) if best_slot >= 0 else np.int64(0)
    for q in range(n):
        if q != seat:
            others |= one[q]
    reps = _reps(others, legal, pts, priv)
    x = legal
    head = -1
    while x != 0:
        c = trailing_zeros(x)
        x &= x - 1
        if (reps >> c) & 1:
            head = c
        rep[c] = head
    return reps


@njit(cache=True, nogil=True, inline="always")
def _reps(others: int, legal: int, pts: np.ndarray, priv: int) -> int:
    """The representatives among ``legal`` (one seat's cards): a card is merged into the one above it
    in its suit when their points are equal, neither is privileged, and ``others`` (every other seat's
    cards and the current trick) has no card from one to the other, both included."""
    reps = np.int64(0)
    x = legal
    prev = -1
    while x != 0:
        c = trailing_zeros(x)
        x &= x - 1
        if prev >= 0 and (prev >> 4) == (c >> 4) and pts[c] == pts[prev] and ((priv >> c) & 1) == 0 \
                and ((priv >> prev) & 1) == 0:
            between = ((np.int64(1) << (c + 1)) - 1) ^ ((np.int64(1) << prev) - 1)
            if (others & between) != 0:
                reps |= np.int64(1) << c
        else:
            reps |= np.int64(1) << c
        prev = c
    return reps


@njit(cache=True, nogil=True, inline="always")
def _beats(c: int, best: int, trump: int) -> bool:
    cs = c >> 4
    bs = best >> 4
    if cs == bs:
        return c < best
    return cs == trump


@njit(cache=True, nogil=True, inline="always")
def _can_beat(lg: int, trump: int, w: int) -> bool:
    """Whether the cards ``lg`` hold one that beats ``w``."""
    ws = w >> 4
    if (lg & _suit_mask(ws) & ((np.int64(1) << w) - 1)) != 0:
        return True
    return trump >= 0 and ws != trump and (lg & _suit_mask(trump)) != 0


@njit(cache=True, nogil=True, inline="always")
def _order(one: np.ndarray, others: int, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, reps: int,
           seat: int, leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int,
           moves: np.ndarray, scores: np.ndarray, ply: int, kmove: int) -> int:
    """Write the representative moves into ``moves`` in search order; returns their number."""
    n = ctx[C_N]
    trump = ctx[C_TRUMP]
    maxteam = ctx[C_MAXTEAM]
    me_max = team[seat] == maxteam
    trumps_mask = np.int64(0)
    if trump >= 0:
        trumps_mask = _suit_mask(trump)
    friend = False
    led_mask = np.int64(0)
    if ntrick > 0:
        friend = (team[best_seat] == maxteam) == me_max
        led_mask = _suit_mask(led_slot >> 4)
    rest_opp = np.int64(0)  # the cards of the opponents still to play in this trick, after this one
    opp_lg = np.int64(0)  # the cards they may play to it
    ruff = 0  # leads: the suits an opponent is void in while holding trumps
    rest_fr = np.int64(0)  # leads: the partners' cards
    fruff = 0  # leads: the suits a partner is void in while holding trumps
    fr_top = -1  # follows: the strongest card a partner still to play can play to the trick
    q = leader + ntrick
    for _ in range(ntrick + 1, n):
        q += 1
        if q >= n:
            q -= n
        if (team[q] == maxteam) != me_max:
            h = one[q]
            rest_opp |= h
            if ntrick > 0:
                follow = h & led_mask
                opp_lg |= follow if follow != 0 else h
            elif (h & trumps_mask) != 0:
                for s in range(4):
                    if (h & _suit_mask(s)) == 0:
                        ruff |= 1 << s
        elif ntrick > 0:
            # the partner's strongest card for this trick
            h = one[q]
            follow = h & led_mask
            if follow != 0:
                cand = trailing_zeros(follow)
            elif (h & trumps_mask) != 0:
                cand = trailing_zeros(h & trumps_mask)
            else:
                cand = -1
            if cand >= 0 and (fr_top < 0 or _beats(cand, fr_top, trump)):
                fr_top = cand
        else:
            h = one[q]
            rest_fr |= h
            if (h & trumps_mask) != 0:
                for s in range(4):
                    if (h & _suit_mask(s)) == 0:
                        fruff |= 1 << s
    best_danger = ntrick > 0 and _can_beat(opp_lg, trump, best_slot)
    # a partner still to play can win the trick whatever the opponents do
    partner_wins = fr_top >= 0 and _beats(fr_top, best_slot, trump) and not _can_beat(opp_lg, trump, fr_top)
    k = 0
    x = reps
    while x != 0:
        c = trailing_zeros(x)
        x &= x - 1
        p = pts[c]
        s = c >> 4
        above = _suit_mask(s) & ((np.int64(1) << c) - 1)
        if ntrick == 0:
            top = (rest_opp & above) == 0
            if top and s != trump and ((ruff >> s) & 1) != 0:
                top = False  # an opponent void in the suit with trumps could ruff it
            if top:
                sc = 500 + 10 * p + (0 if s == trump else 100)
            else:
                later = (rest_opp | rest_fr) & _suit_mask(s)
                w = trailing_zeros(later) if later != 0 else 0
                opp_ruffs = s != trump and ((ruff >> s) & 1) != 0
                if later != 0 and not opp_ruffs and ((rest_fr >> w) & 1) != 0 and ((rest_opp >> w) & 1) == 0:
                    sc = 450 + 10 * p  # a partner holds the suit's best card: give it points
                elif opp_ruffs:
                    sc = 100 - 10 * p - (c & 15)
                elif s != trump and ((fruff >> s) & 1) != 0:
                    sc = 420 + 10 * p  # a partner can ruff it and no opponent can
                else:
                    sc = 200 - 10 * p - (c & 15)
        else:
            # can an opponent still to play beat this card (or the card now winning)?
            if _beats(c, best_slot, trump):
                danger = _can_beat(opp_lg, trump, c)
                if friend:
                    sc = 650 + 10 * p if not danger and best_danger else 100 + p
                elif not danger:
                    sc = 700 + 10 * p
                else:
                    sc = 400 - 10 * p - (c & 15)
            else:
                if friend and not best_danger:
                    sc = 600 + 10 * p
                elif partner_wins:
                    sc = 360 + 10 * p  # a partner still to play wins it: give it points
                elif friend:
                    sc = 350 - 10 * p
                else:
                    sc = 300 - 10 * p
        if c == kmove:
            sc += KBONUS_LEAD if ntrick == 0 else KBONUS_FOLLOW
        # insertion by score, descending
        i = k
        while i > 0 and scores[ply, i - 1] < sc:
            moves[ply, i] = moves[ply, i - 1]
            scores[ply, i] = scores[ply, i - 1]
            i -= 1
        moves[ply, i] = c
        scores[ply, i] = sc
        k += 1
    return k


# per-ply fields of the explicit search stack (numba's cache cannot hold recursive functions)
F_LEADER, F_NTRICK, F_LED, F_BSLOT, F_BSEAT, F_TPTS, F_REM, F_NLEFT = range(8)
F_ALPHA, F_BETA, F_A0, F_B0, F_BEST, F_BMOVE, F_K, F_I, F_IDX, F_KEY, F_TOTAL, F_GAIN, F_CARD = range(8, 21)
F_HADTWO, F_SEAT, F_MAX = 21, 22, 23
N_FIELDS = 24
ENTER, NEXT, RETURN = 0, 1, 2


@njit(cache=True, nogil=True)
def _ab(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, priv: int,
        za: np.ndarray, zb: np.ndarray, tt: np.ndarray,
        mv: np.ndarray, sc: np.ndarray, st: np.ndarray, stats: np.ndarray) -> int:
    """Fail-soft alpha-beta from the node prepared in ``st[0]``, with an explicit stack."""
    n = ctx[C_N]
    trump = ctx[C_TRUMP]
    maxteam = ctx[C_MAXTEAM]
    bonus = ctx[C_BONUS]
    mode = ctx[C_MODE]
    mask = tt.shape[0] - 1
    held = np.zeros(SLOTS, dtype=np.int64)  # scratch of _canon_hash, all 0 between calls
    killer = np.full(MAX_PLY, -1, dtype=np.int64)
    # the cards worth 0, 1 and 2 points (56's card points are 0-3)
    pm0 = np.int64(0)
    pm1 = np.int64(0)
    pm2 = np.int64(0)
    for c in range(SLOTS):
        if pts[c] == 0:
            pm0 |= np.int64(1) << c
        elif pts[c] == 1:
            pm1 |= np.int64(1) << c
        elif pts[c] == 2:
            pm2 |= np.int64(1) << c
    sa = np.empty(4, dtype=np.int64)
    ply = U0  # unsigned, as the hot indices below (see U1)
    nodes = 0
    hits = 0
    stores = 0
    state = ENTER
    ret = np.int64(0)
    while True:
        if state == ENTER:
            nodes += 1
            leader = st[ply, F_LEADER]
            ntrick = st[ply, F_NTRICK]
            nleft = st[ply, F_NLEFT]
            alpha = st[ply, F_ALPHA]
            beta = st[ply, F_BETA]
            if nleft == 0:
                ret = 0
                state = RETURN
                continue
            if nleft + ntrick == n:
                # the last trick: every card is forced
                ret = _last_trick(one, n, team, maxteam, trump, pts, leader, ntrick, st[ply, F_BSLOT],
                                  st[ply, F_BSEAT], st[ply, F_TPTS], bonus)
                state = RETURN
                continue
            tpts = st[ply, F_TPTS]
            total = st[ply, F_REM] + tpts
            if bonus != 0:  # (55's trick points; the division is dear at every node)
                total += bonus * ((nleft + ntrick) // n)
            if total <= alpha:
                ret = total
                state = RETURN
                continue
            if beta <= 0:
                ret = 0
                state = RETURN
                continue
            seat = leader + ntrick
            if seat >= n:
                seat -= n
            if ntrick > 0 and mode == MODE_56:
                # a trick no opponent of the side winning it now can still win (that side's own players may
                # overtake, but no opponent can then beat them): its points so far, and each player's
                # cheapest contribution, are sure to go to that side
                wmax = team[np.uint64(st[ply, F_BSEAT])] == maxteam
                need = beta if wmax else total - alpha
                if tpts + 3 * (n - ntrick) >= need:  # (3: a card's most points) else it cannot cut
                    bslot = st[ply, F_BSLOT]
                    bmask = _suit_mask(bslot >> 4) & ((np.int64(1) << bslot) - 1)
                    if trump >= 0 and (bslot >> 4) != trump:
                        bmask |= _suit_mask(trump)
                    led_mask = _suit_mask(st[ply, F_LED] >> 4)
                    decided = True
                    q = seat
                    for _ in range(ntrick, n):
                        if (team[q] == maxteam) != wmax:
                            h = one[q]
                            follow = h & led_mask
                            lg = follow if follow != 0 else h
                            if (lg & bmask) != 0:
                                decided = False
                                break
                        q += 1
                        if q == n:
                            q = 0
                    if decided:
                        sure = tpts
                        q = seat
                        for _ in range(ntrick, n):
                            h = one[q]
                            follow = h & led_mask
                            lg = follow if follow != 0 else h
                            if (lg & pm0) != 0:
                                pass
                            elif (lg & pm1) != 0:
                                sure += 1
                            elif (lg & pm2) != 0:
                                sure += 2
                            else:
                                sure += 3
                            q += 1
                            if q == n:
                                q = 0
                        if sure >= need:
                            ret = sure if wmax else total - sure
                            state = RETURN
                            continue
            if ntrick == 0:
                ha, hb = _canon_hash(one, two, n, pts, priv, trump, held, sa)
                idx = (ha ^ za[leader, 0, 2] ^ ctx[C_SALT_A]) & mask & ~np.int64(1)
                key = hb ^ zb[leader, 0, 2] ^ ctx[C_SALT_B]
                st[ply, F_IDX] = idx
                st[ply, F_KEY] = key
                found = -1
                if tt[idx, 0] == key:
                    found = idx
                elif tt[idx + 1, 0] == key:
                    found = idx + 1
                if found >= 0:
                    hits += 1
                    data = tt[found, 1]
                    lo = data & 0xFF
                    hi = (data >> 8) & 0xFF
                    if lo >= beta:
                        ret = lo
                        state = RETURN
                        continue
                    if hi <= alpha:
                        ret = hi
                        state = RETURN
                        continue
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
                if mode == MODE_56:
                    sure_max, sure_min = _sure_points(one, two, n, team, maxteam, trump, leader, pts, pm0, pm1, pm2)
                    if sure_max >= beta:
                        ret = sure_max
                        state = RETURN
                        continue
                    if total - sure_min <= alpha:
                        ret = total - sure_min
                        state = RETURN
                        continue
            st[ply, F_ALPHA] = alpha
            st[ply, F_BETA] = beta
            st[ply, F_A0] = alpha
            st[ply, F_B0] = beta
            st[ply, F_TOTAL] = total
            st[ply, F_SEAT] = seat
            useat = np.uint64(seat)
            legal = legal_mask(one, useat, ntrick, st[ply, F_LED], trump, mode, priv)
            # of the current trick's cards only the one winning it counts: the others rank below it (or are
            # off-suit), so no card of this seat can beat one of them and not it
            others = (np.int64(1) << st[ply, F_BSLOT]) if ntrick > 0 else np.int64(0)
            for q in range(n):
                if q != seat:
                    others |= one[q]
            reps = _reps(others, legal, pts, priv)
            if (reps & (reps - 1)) == 0:  # a single card (or its equals): nothing to order
                mv[ply, 0] = trailing_zeros(reps)
                st[ply, F_K] = 1
            else:
                st[ply, F_K] = _order(one, others, team, ctx, pts, reps, useat, leader, ntrick, st[ply, F_LED],
                                      st[ply, F_BSLOT], st[ply, F_BSEAT], mv, sc, ply, killer[ply])
            st[ply, F_I] = 0
            is_max = team[useat] == maxteam
            st[ply, F_MAX] = is_max
            st[ply, F_BEST] = -1 if is_max else 1000
            st[ply, F_BMOVE] = -1
            state = NEXT
            continue
        if state == NEXT:
            i = st[ply, F_I]
            if i >= st[ply, F_K] or st[ply, F_ALPHA] >= st[ply, F_BETA]:
                best = st[ply, F_BEST]
                if st[ply, F_NTRICK] == 0:
                    stores += 1
                    idx = st[ply, F_IDX]
                    key = st[ply, F_KEY]
                    depth = st[ply, F_NLEFT]
                    if tt[idx, 0] == key or tt[idx + 1, 0] == key:
                        if tt[idx + 1, 0] == key:
                            idx += 1
                        data = tt[idx, 1]
                        lo = data & 0xFF
                        hi = (data >> 8) & 0xFF
                    else:
                        lo = 0
                        hi = st[ply, F_TOTAL]
                        # a bucket of two: the first entry keeps the positions with more cards left, the
                        # second takes whatever is pushed out or does not fit
                        if depth >= (tt[idx, 1] >> 16):
                            tt[idx + 1, 0] = tt[idx, 0]
                            tt[idx + 1, 1] = tt[idx, 1]
                        else:
                            idx += 1
                    if best <= st[ply, F_A0]:
                        if best < hi:
                            hi = best
                    elif best >= st[ply, F_B0]:
                        if best > lo:
                            lo = best
                    else:
                        lo = best
                        hi = best
                    tt[idx, 0] = key
                    tt[idx, 1] = lo | (hi << 8) | (depth << 16)
                ret = best
                state = RETURN
                continue
            st[ply, F_I] = i + 1
            c = mv[ply, np.uint64(i)]
            seat = np.uint64(st[ply, F_SEAT])
            ntrick = st[ply, F_NTRICK]
            bit = np.int64(1) << c
            if two[seat] & bit:
                two[seat] &= ~bit
                st[ply, F_HADTWO] = 1
            else:
                one[seat] &= ~bit
                st[ply, F_HADTWO] = 0
            st[ply, F_CARD] = c
            p = pts[np.uint64(c)]
            if ntrick == 0 or _beats(c, st[ply, F_BSLOT], trump):
                nb_slot = c
                nb_seat = st[ply, F_SEAT]
            else:
                nb_slot = st[ply, F_BSLOT]
                nb_seat = st[ply, F_BSEAT]
            q = ply + U1
            st[q, F_REM] = st[ply, F_REM] - p
            st[q, F_NLEFT] = st[ply, F_NLEFT] - 1
            if ntrick + 1 == n:
                gain = 0
                if team[nb_seat] == maxteam:
                    gain = st[ply, F_TPTS] + p + bonus
                st[q, F_LEADER] = nb_seat
                st[q, F_NTRICK] = 0
                st[q, F_LED] = -1
                st[q, F_BSLOT] = -1
                st[q, F_BSEAT] = -1
                st[q, F_TPTS] = 0
            else:
                gain = 0
                st[q, F_LEADER] = st[ply, F_LEADER]
                st[q, F_NTRICK] = ntrick + 1
                st[q, F_LED] = c if ntrick == 0 else st[ply, F_LED]
                st[q, F_BSLOT] = nb_slot
                st[q, F_BSEAT] = nb_seat
                st[q, F_TPTS] = st[ply, F_TPTS] + p
            st[ply, F_GAIN] = gain
            st[q, F_ALPHA] = st[ply, F_ALPHA] - gain
            st[q, F_BETA] = st[ply, F_BETA] - gain
            ply = q
            state = ENTER
            continue
        # RETURN: hand ``ret`` to the parent
        if ply == 0:
            # counted in locals and added once: a store into ``stats`` at every node is one more store
            # the compiler must keep in order with those into the other arrays
            stats[S_NODES] += nodes
            stats[S_TT_HITS] += hits
            stats[S_TT_STORES] += stores
            return ret
        ply -= U1
        c = st[ply, F_CARD]
        seat = np.uint64(st[ply, F_SEAT])
        bit = np.int64(1) << c
        if st[ply, F_HADTWO]:
            two[seat] |= bit
        else:
            one[seat] |= bit
        v = st[ply, F_GAIN] + ret
        if st[ply, F_MAX]:
            if v > st[ply, F_BEST]:
                st[ply, F_BEST] = v
                st[ply, F_BMOVE] = c
                if v > st[ply, F_ALPHA]:
                    st[ply, F_ALPHA] = v
                    if v >= st[ply, F_BETA]:
                        killer[ply] = c
        else:
            if v < st[ply, F_BEST]:
                st[ply, F_BEST] = v
                st[ply, F_BMOVE] = c
                if v < st[ply, F_BETA]:
                    st[ply, F_BETA] = v
                    if v <= st[ply, F_ALPHA]:
                        killer[ply] = c
        state = NEXT


@njit(cache=True, nogil=True, inline="always")
def _last_trick(one: np.ndarray, n: int, team: np.ndarray, maxteam: int, trump: int, pts: np.ndarray,
                leader: int, ntrick: int, bslot: int, bseat: int, tpts: int, bonus: int) -> int:
    """The value of the last trick, each seat still to play holding one card."""
    total = tpts + bonus
    q = leader + ntrick
    for j in range(ntrick, n):
        if q >= n:
            q -= n
        c = trailing_zeros(one[q])
        total += pts[c]
        if j == 0 or _beats(c, bslot, trump):
            bslot = c
            bseat = q
        q += 1
    if team[bseat] == maxteam:
        return total
    return 0


@intrinsic
def _count(typingctx, src):  # type: ignore[no-untyped-def]
    """The number of cards in a mask (one machine instruction)."""
    if not isinstance(src, types.Integer):
        raise errors.NumbaTypeError(f"_count takes an integer, not {src}")

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])
    return src(src), codegen


@njit(cache=True, nogil=True, inline="always")
def _cheapest(one_q: int, two_q: int, t: int, pm0: int, pm1: int, pm2: int) -> int:
    """The fewest points that ``t`` cards of a hand can carry (the copies of a card counted apart); the
    hand holds at least ``t`` cards.  ``pm0``-``pm2``: the cards worth 0, 1 and 2 points."""
    k = _count(one_q & pm0) + _count(two_q & pm0)
    if k >= t:
        return 0
    t -= k
    k = _count(one_q & pm1) + _count(two_q & pm1)
    if k >= t:
        return t
    s = k
    t -= k
    k = _count(one_q & pm2) + _count(two_q & pm2)
    if k >= t:
        return s + 2 * t
    return s + 2 * k + 3 * (t - k)


@njit(cache=True, nogil=True, inline="always")
def _sure_points(one: np.ndarray, two: np.ndarray, n: int, team: np.ndarray, maxteam: int, trump: int,
                 leader: int, pts: np.ndarray, pm0: int, pm1: int, pm2: int) -> tuple[int, int]:
    """Card points each side is sure to take at a trick start, whatever is played (56 only).

    With trumps: the top trumps held by one side only (both copies of a rank, if out, on that side)
    win every trick they are played to, for that side; one player's such trumps go to as many different
    tricks, and every other player gives each of those tricks a card, at least its cheapest ones.  At no
    trumps, or when no opponent of the leader holds a trump: the leader's cashing (:func:`_cash`).
    """
    # each side's cards: held at least once, and held twice (in one hand or in two)
    max1 = np.int64(0)
    max2 = np.int64(0)
    min1 = np.int64(0)
    min2 = np.int64(0)
    for q in range(n):
        if team[q] == maxteam:
            max2 |= two[q] | (max1 & one[q])
            max1 |= one[q]
        else:
            min2 |= two[q] | (min1 & one[q])
            min1 |= one[q]
    sure_max = 0
    sure_min = 0
    if trump >= 0:
        trumps = _suit_mask(trump)
        top, side_max = _top_trumps(max1 & trumps, min1 & trumps)
        if top != 0:
            twice = max2 if side_max else min2
            points = 0
            x = top
            while x != 0:
                c = trailing_zeros(x)
                x &= x - 1
                points += pts[c] * (1 + ((twice >> c) & 1))
            # the most top trumps one player holds: as many tricks its side is sure to win
            t = 0
            for q in range(n):
                t = max(t, _count(one[q] & top) + _count(two[q] & top))
            for q in range(n):
                kq = _count(one[q] & top) + _count(two[q] & top)
                if kq < t:  # (a top trump it gives to those tricks is counted already)
                    points += _cheapest(one[q] & ~top, two[q] & ~top, t - kq, pm0, pm1, pm2)
            if side_max:
                sure_max = points
            else:
                sure_min = points
        if ((min1 if team[leader] == maxteam else max1) & trumps) != 0:
            return sure_max, sure_min  # an opponent of the leader could ruff its cashing
    cash = _cash(one, two, n, leader, pm0, pm1, pm2, pts)
    if team[leader] == maxteam:
        return max(sure_max, cash), sure_min
    return sure_max, max(sure_min, cash)


@njit(cache=True, nogil=True, inline="always")
def _top_trumps(a: int, b: int) -> tuple[int, bool]:
    """Of the trumps the maximising side holds (``a``) and the others hold (``b``): the ones a side holds
    above the other side's best (none if the best is shared), and whether that side is the maximising one."""
    if b == 0:
        return a, True
    if a == 0:
        return b, False
    ta = trailing_zeros(a)
    tb = trailing_zeros(b)
    if ta < tb:
        return a & ((np.int64(1) << tb) - 1), True
    if tb < ta:
        return b & ((np.int64(1) << ta) - 1), False
    return np.int64(0), True


@njit(cache=True, nogil=True, inline="always")
def _cash(one: np.ndarray, two: np.ndarray, n: int, leader: int, pm0: int, pm1: int, pm2: int,
          pts: np.ndarray) -> int:
    """The points the leader's side takes by cashing, when no opponent can ruff: the leader leads the
    cards no other seat can beat, one trick after another, and every other seat gives each of those
    tricks a card, at least its cheapest ones (partners never need to ruff)."""
    others = np.int64(0)
    for q in range(n):
        if q != leader:
            others |= one[q]
    h = one[leader]
    cash = 0
    t = 0
    for s in range(4):
        x = h & _suit_mask(s)
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            if (others & _suit_mask(s) & ((np.int64(1) << c) - 1)) != 0:
                break
            k = 1 + ((two[leader] >> c) & 1)
            cash += pts[c] * k
            t += k
    if t > 0:
        for q in range(n):
            if q != leader:
                cash += _cheapest(one[q], two[q], t, pm0, pm1, pm2)
    return cash


@njit(cache=True, nogil=True, inline="always")
def _mix(x: int) -> int:
    """splitmix64's finaliser (logical shifts on the signed words; multiplications wrap)."""
    x ^= (x >> 30) & 0x3FFFFFFFF
    x *= np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9
    x ^= (x >> 27) & 0x1FFFFFFFFF
    x *= np.int64(-7723592293110705685)  # 0x94D049BB133111EB
    x ^= (x >> 31) & 0x1FFFFFFFF
    return x



# one odd random multiplier per relative rank (seeded like encode's Zobrist keys); a global array, which
# numba compiles in as a constant
RANK_KEYS = np.random.default_rng(5603).integers(1, 2**63 - 1, size=16, dtype=np.int64) | 1


@njit(cache=True, nogil=True, inline="always")
def _canon_hash(one: np.ndarray, two: np.ndarray, n: int, pts: np.ndarray, priv: int, trump: int,
                held: np.ndarray, sa: np.ndarray) -> tuple[int, int]:
    """Two hashes of the hands up to relative ranks and the order of the plain suits.

    In each suit the cards still held are renumbered 0, 1, ... from the top, and each renumbered rank
    carries its points (and 55's privilege), so positions that differ only by which cards are gone, and
    play alike, share a key.  Each suit is hashed on its own (a sum over its cards of each card's code,
    its holders with their copies, points and privilege, times a multiplier of its relative rank), and the
    plain suits' hashes, each mixed, are added up, so that exchanging two plain suits (which changes
    nothing in the play) gives the same key; the trump suit is kept apart.  The second hash is a remix
    of the first: 64 bits tell positions apart.
    """
    # first every card's holders (seat and copies, 6 bits a holder: two seats may share a card), then
    # each suit in rank order, a term per card: no chain of dependent multiplications through memory
    present = np.int64(0)
    for q in range(n):
        x = one[q]
        t = two[q]
        present |= x
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            held[c] = (held[c] << 6) | (((q << 1) | ((t >> c) & 1)) + 1)
    for s in range(4):
        x = present & _suit_mask(s)
        h = np.int64(0)
        r = 0
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            code = (held[c] << 3) | pts[c] | (((priv >> c) & 1) << 2)
            held[c] = 0
            h += (code + 1) * RANK_KEYS[r]
            r += 1
        sa[s] = h
    ha = np.int64(0)
    for s in range(4):
        if s == trump:
            ha += _mix(sa[s] ^ np.int64(0x5A5A5A5A5A5A5A5))
        else:
            ha += _mix(sa[s])
    return ha, _mix(ha ^ np.int64(0x3C6EF372FE94F82B))


@njit(cache=True, nogil=True)
def _points_in_hands(one: np.ndarray, two: np.ndarray, n: int, pts: np.ndarray) -> tuple[int, int]:
    rem = 0
    cnt = 0
    for s in range(n):
        x = one[s]
        while x != 0:
            c = trailing_zeros(x)
            x &= x - 1
            k = 1 + ((two[s] >> c) & 1)
            rem += k * pts[c]
            cnt += k
    return rem, cnt


@njit(cache=True, nogil=True)
def search(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, priv: int,
           za: np.ndarray, zb: np.ndarray, tt: np.ndarray, stats: np.ndarray,
           leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int, tpts: int,
           alpha: int, beta: int) -> int:
    """One fail-soft alpha-beta search of the encoded position with the window ``(alpha, beta)``."""
    n = ctx[C_N]
    rem, cnt = _points_in_hands(one, two, n, pts)
    st = np.empty((MAX_PLY, N_FIELDS), dtype=np.int64)
    st[0, F_LEADER] = leader
    st[0, F_NTRICK] = ntrick
    st[0, F_LED] = led_slot
    st[0, F_BSLOT] = best_slot
    st[0, F_BSEAT] = best_seat
    st[0, F_TPTS] = tpts
    st[0, F_REM] = rem
    st[0, F_NLEFT] = cnt
    st[0, F_ALPHA] = alpha
    st[0, F_BETA] = beta
    mv = np.empty((MAX_PLY, SLOTS), dtype=np.int64)
    sc = np.empty((MAX_PLY, SLOTS), dtype=np.int64)
    return _ab(one, two, team, ctx, pts, priv, za, zb, tt, mv, sc, st, stats)


@njit(cache=True, nogil=True)
def upper_bound(one: np.ndarray, two: np.ndarray, ctx: np.ndarray, pts: np.ndarray, ntrick: int,
                tpts: int) -> int:
    """The points still to be scored: cards in hands and in the trick, and the tricks' own points."""
    n = ctx[C_N]
    rem, cnt = _points_in_hands(one, two, n, pts)
    return rem + tpts + ctx[C_BONUS] * ((cnt + ntrick) // n)


@njit(cache=True, nogil=True)
def mtdf(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray, priv: int,
         za: np.ndarray, zb: np.ndarray, tt: np.ndarray, stats: np.ndarray,
         leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int, tpts: int,
         guess: int) -> int:
    """The exact value by null-window searches (MTD(f)), starting at ``guess`` (-1: none)."""
    lo = 0
    hi = upper_bound(one, two, ctx, pts, ntrick, tpts)
    if guess < 0:
        # no guess: each probe a third of the way up from what is proved, as proving "at least" costs
        # less than proving "at most" on average (30 whole 56-6 deals: 6% fewer nodes than galloping up
        # from the middle and then bisecting)
        while lo < hi:
            beta = lo + max(1, (hi - lo) // 3)
            g = search(one, two, team, ctx, pts, priv, za, zb, tt, stats, leader, ntrick, led_slot,
                       best_slot, best_seat, tpts, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return lo
    beta = guess
    step = 2
    failed_low = False
    while lo < hi:
        if beta < lo + 1:
            beta = lo + 1
        if beta > hi:
            beta = hi
        g = search(one, two, team, ctx, pts, priv, za, zb, tt, stats, leader, ntrick, led_slot,
                   best_slot, best_seat, tpts, beta - 1, beta)
        if g < beta:
            hi = g
            failed_low = True
        else:
            lo = g
        # probes far from the value are cheap: gallop up while the value is above, then bisect
        if not failed_low:
            beta = lo + step
            step *= 2
        elif lo == 0 and g >= beta:
            beta = lo + 1
        else:
            beta = (lo + hi + 1) // 2
    return lo


@njit(cache=True, nogil=True)
def value_after(one: np.ndarray, two: np.ndarray, team: np.ndarray, ctx: np.ndarray, pts: np.ndarray,
                priv: int, za: np.ndarray, zb: np.ndarray, tt: np.ndarray,
                stats: np.ndarray, leader: int, ntrick: int, led_slot: int, best_slot: int, best_seat: int,
                tpts: int, card: int, guess: int) -> int:
    """The exact value after the seat to move plays ``card`` (its trick's points included if it ends it)."""
    n = ctx[C_N]
    trump = ctx[C_TRUMP]
    seat = (leader + ntrick) % n
    bit = np.int64(1) << card
    had_two = (two[seat] & bit) != 0
    if had_two:
        two[seat] &= ~bit
    else:
        one[seat] &= ~bit
    p = pts[card]
    if ntrick == 0 or _beats(card, best_slot, trump):
        nb_slot = card
        nb_seat = seat
    else:
        nb_slot = best_slot
        nb_seat = best_seat
    nled = card if ntrick == 0 else led_slot
    if ntrick + 1 == n:
        gain = 0
        if team[nb_seat] == ctx[C_MAXTEAM]:
            gain = tpts + p + ctx[C_BONUS]
        g = guess - gain if guess >= 0 else -1
        v = gain + mtdf(one, two, team, ctx, pts, priv, za, zb, tt, stats, nb_seat, 0, -1, -1, -1,
                        0, g)
    else:
        v = mtdf(one, two, team, ctx, pts, priv, za, zb, tt, stats, leader, ntrick + 1, nled,
                 nb_slot, nb_seat, tpts + p, guess)
    if had_two:
        two[seat] |= bit
    else:
        one[seat] |= bit
    return v
