"""GUI: the web game a student plays (server, game log, page)."""
