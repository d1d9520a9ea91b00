"""The adapters stay at the edge: no module of the package imports them."""

from __future__ import annotations

from tests.test_layout import GRAPH


def test_no_module_imports_an_adapter() -> None:
    """Only the adapters themselves import mtcompute.adapters (each user imports the one
    for the library at hand, and only its extra installs that library)."""
    importers = {
        module: sorted(t for t in targets if t.startswith("mtcompute.adapters"))
        for module, targets in GRAPH.items()
        if not module.startswith("mtcompute.adapters")
    }
    assert {} == {module: found for module, found in importers.items() if found}
    assert {"mtcompute.adapters"} == GRAPH["mtcompute.adapters.pandas"]
