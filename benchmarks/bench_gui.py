"""Benchmark: how quickly the browser game answers, over real HTTP on localhost.

    python3 benchmarks/bench_gui.py [--edition NAME] [--repeat N]

Reports, for the edition's reference: the first /api/setup (the sandboxed child starts and loads
hog.py); one /api/play for a whole game between two strategies; one /api/play for a person's
move late in a game (the whole game so far is replayed); and the first move against a new
opponent, which also tabulates its strategy and solves the exact meter. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.editions.edition import load_edition  # noqa: E402
from graders.gui import webgui  # noqa: E402


def call(port: int, method: str, path: str, body: object = None) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=None if body is None else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    data = json.loads(conn.getresponse().read())
    conn.close()
    return data


def timed(fn) -> tuple[float, object]:
    started = time.perf_counter()
    value = fn()
    return time.perf_counter() - started, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="boar_brawl")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    edition = load_edition(args.edition)
    game = webgui.Game(edition.solution_dir / edition.submission, edition, edition, seed=1)
    server = webgui.make_server(game, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        first, _ = timed(lambda: call(port, "GET", "/api/setup"))
        print(f"first /api/setup (child starts, hog.py loads): {first * 1000:.0f} ms")
        whole = [timed(lambda s=s: call(port, "POST", "/api/play", {"players": ["final_strategy", "always_roll(6)"],
                                                                       "seed": s}))[0] for s in range(args.repeat)]
        print(f"/api/play, a whole game between two strategies: median {statistics.median(whole) * 1000:.1f} ms")
        moves = [0, 5, 0, 6, 0, 4, 5, 0, 6, 0, 5, 4, 0, 6]
        body = {"players": ["person", "always_roll(5)"], "seed": 3, "moves": moves}
        meter, view = timed(lambda: call(port, "POST", "/api/play", {**body, "moves": []}))
        print(f"first move against a new opponent (tabulate + exact meter): {meter * 1000:.0f} ms")
        late = [timed(lambda: call(port, "POST", "/api/play", body))[0] for _ in range(args.repeat)]
        turns = len(call(port, "POST", "/api/play", body)["turns"])
        median = statistics.median(late) * 1000
        print(f"/api/play, a person's move after {turns} turns (replayed): median {median:.1f} ms")
    finally:
        server.shutdown()
        game.close()


if __name__ == "__main__":
    main()
