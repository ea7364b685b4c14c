"""The club page's recent matches read by index (issue 59): a table's finished matches by time, covering the id,
so the newest of a club's matches are found from its tables (``club_tables_club``) without walking every match.
"""

from __future__ import annotations

from alembic import op

revision = "0013_page_indexes"
down_revision = "0012_peeks"


def upgrade() -> None:
    op.create_index("matches_table", "matches", ["table_code", "finished", "id"])


def downgrade() -> None:
    op.drop_index("matches_table", table_name="matches")
