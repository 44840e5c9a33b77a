"""Core: what every part of the kit shares (errors, messages, storage, syntax, records, writers)."""
