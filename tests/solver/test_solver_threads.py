"""The solver's kernel runs without the GIL (``nogil``): the server's computer players search in threads, so
two searches at once must give what each gives alone (each thread has its own transposition table), and a search
must leave the GIL to the other threads (the server's event loop) while it runs."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver import random_cut

from fiftysix.solver import card_values, kernel_available
from fiftysix.solver.fast import Tables, default_tables, solve
from fiftysix.solver.fast import card_values as values_in

pytestmark = pytest.mark.skipif(not kernel_available(), reason="numba (extra 'solver') is not installed")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from(["56-4", "56-6", "56-8"]))
def test_searches_at_once_in_threads_give_what_each_gives_alone(seed: int, preset: str) -> None:
    rng = random.Random(seed)
    positions = [random_cut(rng, preset, 5)[1] for _ in range(8)]
    alone = [values_in(p, Tables(16)) for p in positions]
    with ThreadPoolExecutor(4) as pool:      # the default table of each of four threads, all at once, twice
        at_once = list(pool.map(card_values, positions + positions))
    assert at_once == alone + alone


def test_each_thread_has_its_own_default_table() -> None:
    here = default_tables()
    both = threading.Barrier(2)

    def other(_: int) -> tuple[Tables, int]:
        mine = default_tables()
        both.wait(10)       # the two calls run in two threads alive at once
        return mine, threading.get_ident()
    with ThreadPoolExecutor(2) as pool:
        (first, one), (second, two) = pool.map(other, range(2))
    assert one != two and len({id(here), id(first), id(second)}) == 3
    assert default_tables() is here


@pytest.mark.serial
def test_a_search_leaves_the_gil_to_other_threads() -> None:
    """While a thread searches a whole deal (hundreds of ms), this thread's Python keeps running: its longest pause
    is far shorter than the search.  With the GIL held through the kernel, it would stop for the whole search."""
    rng = random.Random(5)
    deal, position = random_cut(rng, "56-8", 7)
    values_in(position, Tables(18))    # compiled and warm
    tables = Tables(22)
    done = threading.Event()
    took: list[float] = []

    def think() -> None:
        began = time.perf_counter()
        solve(position, tables)
        took.append(time.perf_counter() - began)
        done.set()
    worker = threading.Thread(target=think)
    last = time.perf_counter()
    longest = 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    assert took[0] > 0.05, f"the search took only {took[0]:.3f} s: too short to tell (choose a harder deal)"
    assert longest < took[0] / 3, f"this thread stopped {longest:.3f} s during a {took[0]:.3f} s search"
