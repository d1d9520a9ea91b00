"""Tool versions in the registry and the catalog: semantic order, ``latest``, status."""

from __future__ import annotations

import dataclasses

import pytest

import mtcompute
from mtcompute.catalog import (
    CURRENT,
    SUPERSEDED,
    catalog_entries,
    catalog_entry,
    latest_entry,
    tool_entries,
)
from mtcompute.catalog_text import tool_facts
from mtcompute.contracts import contract, contract_ids
from mtcompute.errors import NotFound
from mtcompute.tools import LATEST, Registry, Tool, get_tool, list_tools, tool_versions, version_key

CHRF = get_tool("chrf-compute", "1.0.0")


def _tool(tool_id: str, version: str) -> Tool:
    """A registry entry of that id and version (chrf-compute's behaviour: only the keys
    matter here)."""
    return dataclasses.replace(CHRF, id=tool_id, version=version)


FAKE = Registry(
    [_tool("x", v) for v in ("1.9.0", "1.10.0", "1.2.0", "0.10.0")]
    + [_tool("a", "2.0.0"), _tool("x", "10.0.0"), _tool("x", "2.0.0")]
)


def test_version_key_is_numeric() -> None:
    """Versions sort by their numbers: 1.10.0 after 1.9.0, 10.0.0 after 2.0.0."""
    versions = ["1.10.0", "1.9.0", "10.0.0", "2.0.0", "0.10.1", "1.2.0", "1.9.10", "1.9.9"]
    assert ["0.10.1", "1.2.0", "1.9.0", "1.9.9", "1.9.10", "1.10.0", "2.0.0", "10.0.0"] == sorted(
        versions, key=version_key
    )


@pytest.mark.parametrize("text", ["latest", "1.0", "1.0.0.0", "01.0.0", "1.0.0-rc1", "", "v1.0.0"])
def test_version_key_refuses_what_is_not_a_version(text: str) -> None:
    """Only MAJOR.MINOR.PATCH without leading zeros is a version."""
    with pytest.raises(ValueError, match=r"MAJOR\.MINOR\.PATCH"):
        version_key(text)


def test_shipped_versions_have_one_order() -> None:
    """Every shipped contract's version is a version, and the catalog's texts order each id's
    versions as the registry does (one key, :func:`mtcompute.contracts.version_key`)."""
    assert all(version_key(v) for _, v in contract_ids())
    assert {f.id: [*f.versions] for f in tool_facts()} == {
        f.id: [t.version for t in tool_versions(f.id)] for f in tool_facts()
    }


def test_registry_orders_by_id_then_semantic_version() -> None:
    """Tools are listed by id, then version as numbers; versions() is one id's, oldest first."""
    assert [
        ("a", "2.0.0"),
        ("x", "0.10.0"),
        ("x", "1.2.0"),
        ("x", "1.9.0"),
        ("x", "1.10.0"),
        ("x", "2.0.0"),
        ("x", "10.0.0"),
    ] == [(t.id, t.version) for t in FAKE.tools()]
    assert ["0.10.0", "1.2.0", "1.9.0", "1.10.0", "2.0.0", "10.0.0"] == [
        t.version for t in FAKE.versions("x")
    ]


def test_latest_is_the_newest_by_number() -> None:
    """latest names 10.0.0 among 1.9.0, 1.10.0, 2.0.0, 10.0.0 (not 2.0.0 or 1.9.0, the
    newest as text); an id with one version resolves to it; a concrete version is itself."""
    assert ("10.0.0", "2.0.0", "1.9.0") == (
        FAKE.get("x", LATEST).version,
        FAKE.get("a", LATEST).version,
        FAKE.get("x", "1.9.0").version,
    )
    assert FAKE.get("x", LATEST) is FAKE.get("x", "10.0.0")


def test_latest_of_an_unknown_id_names_the_known_ids() -> None:
    """latest of an unknown id is not_found naming the ids; so is versions() of one."""
    message = 'Expected a tool id from the catalog, got "nope"; known tools: a, x.'
    for call in (lambda: FAKE.get("nope", LATEST), lambda: FAKE.versions("nope")):
        with pytest.raises(NotFound) as caught:
            call()
        assert message == caught.value.message
    with pytest.raises(NotFound, match="known tools: a, x"):
        FAKE.versions(None)


def test_an_unknown_version_names_the_versions_in_order() -> None:
    """An unknown version is not_found listing the id's versions, oldest first."""
    with pytest.raises(NotFound) as caught:
        FAKE.get("x", "3.0.0")
    assert (
        'Expected a version of x (0.10.0, 1.2.0, 1.9.0, 1.10.0, 2.0.0, 10.0.0), got "3.0.0".'
        == caught.value.message
    )


def test_a_version_registered_twice_or_not_semantic_is_refused() -> None:
    """Two tools with one id and version, or a version that is not MAJOR.MINOR.PATCH (such as
    "latest"), cannot make a registry."""
    with pytest.raises(ValueError, match=r"Two tools are x@1\.0\.0"):
        Registry([_tool("x", "1.0.0"), _tool("x", "1.0.0")])
    with pytest.raises(ValueError, match=r"MAJOR\.MINOR\.PATCH"):
        Registry([_tool("x", LATEST)])


def test_the_shipped_registry_resolves_latest() -> None:
    """sacrebleu-score@latest is 1.1.0, every id's latest is its last version, and a str
    subclass equal to "latest" resolves the same."""

    class Name(str):
        __slots__ = ()

    assert get_tool("sacrebleu-score", LATEST) is get_tool("sacrebleu-score", "1.1.0")
    assert get_tool("sacrebleu-score", Name(LATEST)) is get_tool("sacrebleu-score", "1.1.0")
    for tool in list_tools():
        assert get_tool(tool.id, LATEST) is tool_versions(tool.id)[-1]


def test_execute_latest_runs_the_newest_version() -> None:
    """mtcompute.execute with latest runs sacrebleu-score 1.1.0: its TER example gets its
    result, which 1.0.0 refuses."""
    example = contract("sacrebleu-score", "1.1.0")["examples"][-1]
    assert "ter" in example["input"]["metrics"]
    assert {"result": example["output"]} == mtcompute.execute(
        "sacrebleu-score", LATEST, example["input"]
    )
    assert "error" in mtcompute.execute("sacrebleu-score", "1.0.0", example["input"])


def test_catalog_status_of_every_entry() -> None:
    """The newest version of each id is current; every older one is superseded by it."""
    expected = []
    for entry in catalog_entries():
        newest = tool_versions(entry.id)[-1].version
        expected.append(
            (entry.ref, CURRENT, None)
            if entry.version == newest
            else (entry.ref, SUPERSEDED, newest)
        )
    assert expected == [(e.ref, e.status, e.superseded_by) for e in catalog_entries()]
    assert ("superseded", "1.1.0") == (
        catalog_entry("sacrebleu-score", "1.0.0").status,
        catalog_entry("sacrebleu-score", "1.0.0").superseded_by,
    )


def test_catalog_resolves_latest_and_lists_versions() -> None:
    """catalog_entry(id, latest) is the newest entry itself; tool_entries lists an id's."""
    assert catalog_entry("sacrebleu-score", LATEST) is catalog_entry("sacrebleu-score", "1.1.0")
    assert latest_entry("chrf-compute") is catalog_entry("chrf-compute", "1.0.0")
    assert ["sacrebleu-score@1.0.0", "sacrebleu-score@1.1.0"] == [
        e.ref for e in tool_entries("sacrebleu-score")
    ]
    with pytest.raises(NotFound, match="known tools: bleu-brevity-penalty"):
        tool_entries("comet")


def test_version_fields_and_note() -> None:
    """A superseded entry's listing fields and note name the newer version; a current one's
    say current, with no note."""
    old = catalog_entry("sacrebleu-score", "1.0.0")
    new = catalog_entry("sacrebleu-score", "1.1.0")
    assert {"status": "superseded", "superseded_by": "1.1.0"} == old.version_status()
    assert {"status": "current"} == new.version_status()
    assert (
        "Superseded by sacrebleu-score@1.1.0: use it for new work; 1.0.0 still answers as "
        "its contract says."
    ) == old.superseded_note
    assert "" == new.superseded_note
