"""One tap to a game: the start page's "Play" seats a person at a public table near their rating, or opens one
with computers (issue 58)."""
