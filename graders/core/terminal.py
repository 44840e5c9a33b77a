"""The terminal the kit prints to: make it safe for the report's symbols on any console."""

from __future__ import annotations

import sys


def prepare_streams() -> None:
    """A console that cannot show ✓ gets a replacement character instead of an exception."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
