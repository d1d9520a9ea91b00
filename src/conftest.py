"""The package's doctests (pytest --doctest-modules over src/): an adapter whose library is
not installed is not imported (its tests in tests/adapters/ skip then, a failure under
MTCOMPUTE_REQUIRE_ALL=1)."""

from __future__ import annotations

import importlib.util

ADAPTERS = {"torchmetrics": "torchmetrics", "hf_evaluate": "evaluate", "pandas": "pandas"}

collect_ignore = [
    f"mtcompute/adapters/{module}.py"
    for module, library in ADAPTERS.items()
    if importlib.util.find_spec(library) is None
]
