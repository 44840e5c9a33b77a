"""The kit's pytest set-up: the edition suites are collected as items by the kit's own plugin."""

pytest_plugins = ["graders.runner.pytest_plugin"]
