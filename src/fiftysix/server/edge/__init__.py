"""The server's edge: listening, limits, security, tokens, names, languages and the share link."""
