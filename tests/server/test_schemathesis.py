"""Schema-driven API testing: schemathesis against the served /openapi.json (a short pass).

Through scripts/schemathesis_run.py (imported, not copied): every operation of the live
document, positive and negative data, examples, coverage and fuzzing phases, with the checks
not_a_server_error, status_code_conformance, content_type_conformance,
response_schema_conformance, response_headers_conformance, negative_data_rejection (a request
that breaks the schema gets a documented error status), unsupported_method and
allow_header_conformance. Two more tests doctor the document to show that the harness does
catch an undocumented status and a response that breaks its schema.
``python scripts/schemathesis_run.py --max-examples 200`` is the long run.
"""

from __future__ import annotations

import copy
import json
import urllib.request
from typing import Any

import pytest

from tests.conftest import load_script

CHRF = "/v1/tools/chrf-compute/versions/1.0.0/execute"


st_run = load_script("schemathesis_run")


def _document(server_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(server_url + "/openapi.json", timeout=10) as response:
        document: dict[str, Any] = json.loads(response.read())
    return document


def _only(document: dict[str, Any], path: str) -> dict[str, Any]:
    """The document with its one operation at ``path`` (a deep copy, free to doctor)."""
    doctored = copy.deepcopy(document)
    doctored["paths"] = {path: doctored["paths"][path]}
    return doctored


def test_every_operation_conforms(server_url: str) -> None:
    """Every documented operation runs cases, with no 5xx and every response as documented."""
    result = st_run.run(server_url, max_examples=5, seed=1)
    report = st_run.report(result)
    documented = {
        f"{method.upper()} {path}"
        for path, item in _document(server_url)["paths"].items()
        for method in item
    }
    assert documented == set(result.operations), report
    assert all(op.total > 0 for op in result.operations.values()), report
    assert [] == [str(f) for f in result.failures], report
    assert result.ok, report


def test_harness_catches_an_undocumented_status(server_url: str) -> None:
    """With 413 taken out of the document, the over-limit requests fail status conformance."""
    document = _only(_document(server_url), CHRF)
    del document["paths"][CHRF]["post"]["responses"]["413"]
    result = st_run.run(server_url, max_examples=5, seed=1, phases=["coverage"], document=document)
    checks = {f.check for f in result.failures}
    assert "status_code_conformance" in checks, st_run.report(result)
    assert not result.ok


def test_harness_catches_a_response_off_its_schema(server_url: str) -> None:
    """With the chrF score documented as a number, the example's response fails the schema."""
    document = _only(_document(server_url), CHRF)
    output = document["components"]["schemas"]["ChrfComputeV1_0_0Output"]
    output["properties"]["score"] = {"type": "number"}
    result = st_run.run(server_url, max_examples=1, seed=1, phases=["examples"], document=document)
    checks = {f.check for f in result.failures}
    assert "response_schema_conformance" in checks, st_run.report(result)


def test_command_line(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The script's command exits 0 and prints a row per operation and the totals."""
    args = ["--url", server_url, "--max-examples", "2", "--phases", "examples,fuzzing"]
    status = st_run.main(args)
    out = capsys.readouterr().out
    assert 0 == status, out
    assert f"POST {CHRF}" in out
    assert "total:" in out


def test_command_line_for_one_tool(server_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--tool keeps the routes of the tools named (by id, every version; by id@version, that
    version only): each one's contract and execute routes; a tool with no route is refused
    by name."""
    args = ["--url", server_url, "--max-examples", "2", "--phases", "examples,coverage"]
    status = st_run.main([*args, "--tool", "ter-compute", "--tool", "sacrebleu-score@1.1.0"])
    out = capsys.readouterr().out
    rows = [line.split()[1] for line in out.splitlines() if line.startswith(("GET /", "POST /"))]
    assert (0, ["/v1/tools/sacrebleu-score/versions/1.1.0",
                "/v1/tools/ter-compute/versions/1.0.0",
                "/v1/tools/sacrebleu-score/versions/1.1.0/execute",
                "/v1/tools/ter-compute/versions/1.0.0/execute"]) == (status, rows), out  # fmt: skip
    with pytest.raises(SystemExit, match="no route of the tool comet-compute in the document"):
        st_run.main([*args, "--tool", "comet-compute"])
