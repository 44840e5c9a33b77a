"""Editions: an edition's manifest, cases, markers, locking and one-function runs."""
