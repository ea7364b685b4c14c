"""The live table: its one writer and its parts, the messages in and out, and the hub of all tables."""
