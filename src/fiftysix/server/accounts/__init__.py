"""Accounts with no password (issue 43): the cookie player as an account, its devices, one-time sign-in links
and recovery codes.  See :mod:`.routes` for the endpoints and :mod:`.store` for the tables."""
