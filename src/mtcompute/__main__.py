"""``python -m mtcompute``: the ``mtcompute`` command (see :mod:`mtcompute.cli`)."""

import sys

from mtcompute.cli import main

sys.exit(main())
