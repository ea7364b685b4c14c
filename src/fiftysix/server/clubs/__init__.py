"""Clubs: named groups of players with an owner, an invite link and tables only members sit at (issue 43)."""
