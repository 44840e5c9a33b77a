"""Server options: how the browser game is started, shared by ``hog_gui.py`` and ``hogkit play``.

Contract: :func:`add_options` declares ``--port``, ``--no-browser``, ``--seed``, ``--host`` and
``--timeout`` on a parser, and :func:`check_options` refuses out-of-range values through that
parser's own error (exit status 2). This module imports nothing but argparse, so that the command
line can offer ``hogkit play`` without loading the web server on every start.
"""

from __future__ import annotations

import argparse

from graders.gui import messages as gui_messages

DEFAULT_PORT = 31415
DEFAULT_TIMEOUT = 5.0


def add_options(parser: argparse.ArgumentParser) -> None:
    """The server's options, shared by ``hog_gui.py`` and ``hogkit play``."""
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                        help=f"the port to serve on (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="seed the dice: the first game uses N, the next N+1, and so on")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"seconds your code may take for one game (default {DEFAULT_TIMEOUT:g})")


def check_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if not 0 <= args.port <= 65535:
        parser.error(gui_messages.port_out_of_range(args.port))
    if args.seed is not None and args.seed < 0:
        parser.error(gui_messages.seed_negative(args.seed))
    if not args.timeout > 0:
        parser.error(gui_messages.timeout_not_positive(args.timeout))
