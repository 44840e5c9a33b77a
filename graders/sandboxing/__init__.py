"""Sandboxing: student code run in a child with hard limits, isolated, reaped."""
