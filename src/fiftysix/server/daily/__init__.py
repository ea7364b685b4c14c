"""Today's deals (issue 58): the same boards for everyone each UTC day, played alone with computers and scored
against the field (docs/spec/daily.md)."""
