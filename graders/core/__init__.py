"""Core: what every part of the kit shares (errors, the shared sentences and text helpers, storage, syntax,
records, writers)."""
