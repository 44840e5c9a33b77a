"""The kit's pytest set-up: the edition suites are collected as items by the kit's own plugin."""

import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).parent

pytest_plugins = ["graders.runner.pytest_plugin"]


def pytest_configure(config):
    """The kit's modules compiled once for the whole run, beside their sources, as Python keeps them
    (``__pycache__``, ignored by git and by everything the kit copies or builds). The workers and
    every Python the tests start (a command, a student's ``python3 ok``, a fork server) import the
    kit, and where ``PYTHONDONTWRITEBYTECODE`` is set, as on CI, each would otherwise compile it again
    (0.9 s against 0.25 s). Python reads a compiled file only while its source is unchanged."""
    if hasattr(config, "workerinput"):  # a worker: its controller has compiled already
        return
    import compileall

    compileall.compile_dir(ROOT / "graders", quiet=2)  # a read-only copy: nothing written
    if config.getoption("assertmode") == "rewrite":
        rewrite_test_modules(config)


def rewrite_test_modules(config):
    """Every test module with its asserts rewritten by pytest, once, before the workers start. Each
    worker imports every test module, and pytest rewrites one (a few seconds for this suite) unless
    it finds it cached beside the module, a cache it writes only where bytecode may be written:
    without this, each worker would rewrite them all again. pytest checks the cached file against the
    source's hash before using it. The functions are pytest's own, not its public interface: where
    they change, nothing is cached and the workers rewrite the modules as before."""
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
    except Exception:  # noqa: BLE001 - an optimisation only: the workers rewrite what is not cached
        return
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if not (path.name.startswith("test_") or path.name == "conftest.py"):
            continue
        try:
            cache = rewrite.get_cache_dir(path)
            pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(path, pyc) is None and rewrite.try_makedirs(cache):
                source_hash, code = rewrite._rewrite_test(path, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
        except Exception:  # noqa: BLE001 - as above: this module is rewritten by each worker
            continue


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
