"""The kit's pytest set-up: the edition suites are collected as items by the kit's own plugin."""

import pytest

pytest_plugins = ["graders.runner.pytest_plugin"]


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): two workers more than the cores. Many tests spend their time
    waiting on a sandboxed child (a deadline, a browser, a pip install); the extra workers fill it."""
    import os

    return (os.cpu_count() or 1) + 2


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The slow tests first, each group in its own order (a stable sort): the workers start on the long
    tests together, and the thousands of short ones fill the time left at the end, instead of one
    worker finishing a long test while the others have nothing left to take."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
