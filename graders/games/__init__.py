"""Games: the kinds of game, their exact analysis, tactics, pictures and reference. Instructor only."""
