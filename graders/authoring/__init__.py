"""Authoring: what `hogkit build` makes (artifacts, bundle, templates, demo, mutants). Instructor only."""
