"""The kit's pytest set-up: the edition suites are collected as items by the kit's own plugin."""

pytest_plugins = ["graders.runner.pytest_plugin"]


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject's addopts): two workers more than the cores. Many tests spend their time
    waiting on a sandboxed child (a deadline, a browser, a pip install); the extra workers fill it."""
    import os

    return (os.cpu_count() or 1) + 2
