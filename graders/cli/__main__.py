"""``python -m graders.cli``: the ``hogkit`` command."""

import sys

from graders.cli import main

sys.exit(main())
