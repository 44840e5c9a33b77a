"""Runner: what a student's own commands run (ok, activity log, notebook, pytest plugin)."""
