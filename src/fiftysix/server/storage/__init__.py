"""The server's storage: the database, the log's writer and the Alembic migrations."""
