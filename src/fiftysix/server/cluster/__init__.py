"""Many equal server processes on one PostgreSQL database and one Redis (``fiftysix serve --redis``).

- :mod:`.lease`: exactly one writer per table, a lease row in PostgreSQL with a fencing epoch that every
  append checks in its own transaction;
- :mod:`.bus`: Redis pub/sub, the processes' only way to talk: each process has an inbox channel, each table
  a channel of its applied events;
- :mod:`.table`: a table that is this process's to write (it applies, stores and publishes each event) or a
  replica of another's, kept for this process's own viewers (each gets its own view, rendered where its
  websocket is);
- :mod:`.relay`: the hub across processes: leases taken and renewed, changes forwarded to the writer,
  failover (a table taken over from the log), knocks gathered by the writer, sign-outs told to every process;
- :mod:`.counters`: the limits counted in Redis (failed lookups, table quotas, spectators).

See docs/deploy.md.  Without ``--redis`` none of this is imported.
"""
