"""Scoring: grading a submission (judge, checks, AST rules) and reporting it."""
