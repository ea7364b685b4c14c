"""Club nights (issue 44): duplicate events where every table plays the same boards; see docs/spec/club-nights.md."""
