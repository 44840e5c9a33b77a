"""The kit's pytest set-up: the edition suites are collected as items by the kit's own plugin; the
workers and the order of the tests. Only pytest's public hooks: compiling the kit ahead and caching
rewritten test modules are left to whoever runs the tests (.ci/run warms both before the README's
command, since it sets PYTHONDONTWRITEBYTECODE)."""

import itertools

import pytest

pytest_plugins = ["graders.runner.pytest_plugin"]


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): two workers more than the cores. Many tests spend their time
    waiting on a sandboxed child (a deadline, a browser, a pip install); the extra workers fill it."""
    import os

    return (os.cpu_count() or 1) + 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The slow tests first on every worker, so that the thousands of short ones fill the time left
    at the end, instead of one worker finishing a long test while the others have nothing left to
    take. xdist's worksteal (pyproject's addopts) hands each worker one run of the list, in equal
    shares, and lets an idle worker take the back half of another's: each run here starts with slow
    tests, a module's together (its module-wide set-up made once, by one worker), the modules with
    the most slow tests first, each to the run with the fewest so far; then short tests in order."""
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    modules: dict[str, list] = {}
    for item in items:
        if item.get_closest_marker("slow") is not None:
            modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    runs: list[list] = [[] for _ in range(workers)]
    for tests in sorted(modules.values(), key=len, reverse=True):
        min(runs, key=len).extend(tests)
    short = iter([item for item in items if item.get_closest_marker("slow") is None])
    ordered, left = [], len(items)
    for k, run in enumerate(runs):
        share = left // (workers - k)  # as worksteal splits the list
        ordered += run + list(itertools.islice(short, max(0, share - len(run))))
        left -= share
    ordered += list(short)
    items[:] = ordered
