"""How a table paces itself and its connections: computer players' delays, message rates, queues and timeouts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Timing:
    bot_delay: float = 0.8        # seconds before a computer player moves, so people can follow
    next_delay: float = 3.0       # pause between deals when no seated person is there to ask for the next
    replay_limit: int = 100       # a reconnect missing more events than this gets a full state instead
    message_rate: float = 20.0    # messages a connection may send a second on average ...
    message_burst: int = 40       # ... and at once; more are refused with an error
    send_queue: int = 256         # messages waiting for a slow client; one more and it is dropped
    idle_unload: float = 600.0    # seconds a table with nothing to do and no connection stays in memory
    lobby_expiry: float = 86400.0  # seconds a lobby table with no connection lives on (then it is closed)
    sweep_every: float = 30.0     # seconds between looks for idle and expired tables
    hello_timeout: float = 10.0   # seconds a new websocket may take to say hello (then closed, 4408; 0: no limit)
    send_timeout: float = 10.0    # seconds one message may wait for a client that does not read (then dropped)
