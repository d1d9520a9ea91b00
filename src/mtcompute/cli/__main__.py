"""``python -m mtcompute.cli``: the ``mtcompute`` command (as ``python -m mtcompute``)."""

import sys

from mtcompute.cli import main

sys.exit(main())
