"""Many equal server processes on one PostgreSQL database and one Redis (``fiftysix serve --redis``).

- :mod:`.lease`: exactly one writer per table, a lease row in PostgreSQL with a fencing epoch that every
  append checks in its own transaction;
- :mod:`.bus`: Redis pub/sub, the processes' only way to talk: each process has an inbox channel, each table
  a channel of its applied events;
- :mod:`.relay`: tables and the hub across processes: the writer applies, stores and publishes each event;
  every other process keeps a replica of the table for its own viewers (each gets its own view, rendered
  where its websocket is) and forwards their changes to the writer; failover takes a table over from the log.

See docs/deploy.md.  Without ``--redis`` none of this is imported.
"""
