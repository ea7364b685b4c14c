"""Alembic migrations of the server's database; run programmatically by :meth:`Database.migrate`."""
