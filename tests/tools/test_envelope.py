"""The envelope execute() returns, the error classes it is built from, and the catalog."""

from __future__ import annotations

import copy
import importlib.metadata
import pickle

import pytest

import mtcompute
from mtcompute._version import __version__
from mtcompute.catalog import catalog_entries, catalog_entry
from mtcompute.contracts import contract, contract_text
from mtcompute.envelope import Envelope
from mtcompute.errors import (
    ERROR_CODES,
    EXECUTE_ERRORS,
    TOOL_ERRORS,
    TRANSPORT_ERRORS,
    BodyTooLarge,
    HeadersTooLarge,
    InternalError,
    InvalidInput,
    LimitExceeded,
    MethodNotAllowed,
    MtcomputeError,
    NotFound,
    Overloaded,
    RateLimited,
    RequestTimeout,
    Timeout,
    Unauthorized,
    UnsupportedInput,
    UnsupportedMediaType,
)
from mtcompute.tools import get_tool, list_tools

CHRF_INPUT = {"hypotheses": ["aa"], "references": ["ab"]}


def test_a_result_envelope_is_the_plain_dict_with_status_200_and_exit_0() -> None:
    """execute() answers an Envelope equal to {"result": ...}: status 200, exit 0, its JSON."""
    envelope = mtcompute.execute("chrf-compute", "1.0.0", CHRF_INPUT)
    result = get_tool("chrf-compute", "1.0.0").run(CHRF_INPUT)
    expected = (True, {"result": result}, None, False, 200, 0)
    assert expected == (
        isinstance(envelope, Envelope),
        envelope,
        envelope.error,
        envelope.is_error,
        envelope.http_status,
        envelope.exit_code,
    )
    assert mtcompute.dumps({"result": result}).encode() == envelope.json_bytes()


@pytest.mark.parametrize(
    ("tool", "body", "error_type", "status"),
    [
        ("chrf-compute", b"[]", InvalidInput, 400),
        (
            "chrf-compute",
            b'{"hypotheses":[%s],"references":["a"]}' % b",".join([b'"a"'] * 257),
            LimitExceeded,
            413,
        ),
        (
            "bleu-smoothing-compute",
            b'{"matches":[1],"totals":[1],"candidate_length":1,"reference_length":1,'
            b'"smoothing":"method4"}',
            UnsupportedInput,
            422,
        ),
        ("nope", b"{}", NotFound, 404),
        ("bleu-smoothing-compute", b"{", InvalidInput, 400),
    ],
    ids=["invalid", "limit", "unsupported", "not found", "bad json"],
)
def test_an_error_envelope_knows_its_error_status_and_exit_code(
    tool: str, body: bytes, error_type: type[MtcomputeError], status: int
) -> None:
    """execute_json() answers {"error": ...} with the error it reports, its status, exit 1."""
    envelope = mtcompute.execute_json(tool, "1.0.0", body)
    assert envelope.error is not None
    assert (error_type, {"error": envelope.error.to_dict()}, True, status, 1) == (
        type(envelope.error),
        envelope,
        envelope.is_error,
        envelope.http_status,
        envelope.exit_code,
    )
    assert mtcompute.dumps(envelope) == envelope.json_text()


def test_a_bug_in_a_tool_is_the_internal_error_envelope(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tool raising a non-coded exception gives internal_error, 500, naming the type."""

    class Broken:
        @staticmethod
        def run(_value: object) -> dict[str, object]:
            raise ValueError("bug")

    monkeypatch.setattr("mtcompute._execute.get_tool", lambda _tool, _version: Broken)
    envelope = mtcompute.execute("chrf-compute", "1.0.0", CHRF_INPUT)
    expected = {
        "error": {
            "code": "internal_error",
            "message": "Internal error (ValueError); please report this input.",
            "path": "",
        }
    }
    assert (expected, InternalError, 500, 1) == (
        envelope,
        type(envelope.error),
        envelope.http_status,
        envelope.exit_code,
    )


def test_envelopes_copy_and_pickle_with_their_error() -> None:
    """copy, deepcopy and pickle keep the dict and the error (its class, message, path)."""
    envelope = Envelope.of_error(MethodNotAllowed("PUT", "/v1/tools", "GET, HEAD"))
    for rebuilt in (
        copy.copy(envelope),
        copy.deepcopy(envelope),
        pickle.loads(pickle.dumps(envelope)),
    ):
        assert rebuilt.error is not None
        assert (envelope, 405, "GET, HEAD", envelope.error.message) == (
            rebuilt,
            rebuilt.http_status,
            getattr(rebuilt.error, "allow", None),
            rebuilt.error.message,
        )


def test_transport_errors_carry_the_codes_statuses_and_messages_the_service_sends() -> None:
    """Each transport refusal: its code, HTTP status and the message the server sends."""
    assert [
        ("method_not_allowed", 405, "Method PUT is not allowed on /mcp; allowed: GET, POST."),
        ("invalid_input", 415, "Expected Content-Type application/json, got 'text/plain'."),
        (
            "invalid_input",
            408,
            "Expected the request body within 1.5 s; it did not arrive in time, so the "
            "connection is closed.",
        ),
        (
            "invalid_input",
            408,
            "Expected the request headers within 10 s; they did not arrive in time, so the "
            "connection is closed.",
        ),
        (
            "limit_exceeded",
            413,
            "Expected a request body of at most 100 bytes, got 238 (Content-Length).",
        ),
        (
            "limit_exceeded",
            413,
            "Expected a request body of at most 100 bytes, got more; the body was not read "
            "further.",
        ),
        (
            "limit_exceeded",
            431,
            "Expected request headers of at most 65536 bytes, got more; the connection is closed.",
        ),
        ("internal_error", 500, "Internal error; please report this request."),
        ("rate_limited", 429, "Too many requests: at most 600/min per client; retry after 3 s."),
        ("unauthorized", 401, "An API key is required."),
        ("overloaded", 503, "Overloaded: 64 requests wait for the heavy worker; retry after 2 s."),
        (
            "timeout",
            504,
            "Expected the work to finish within its deadline of 60 s; it did not, so it was "
            "stopped.",
        ),
    ] == [
        (error.code, error.http_status, error.message)
        for error in (
            MethodNotAllowed("PUT", "/mcp", "GET, POST"),
            UnsupportedMediaType("text/plain"),
            RequestTimeout("body", 1.5),
            RequestTimeout("headers", 10.0),
            BodyTooLarge(100, 238),
            BodyTooLarge(100),
            HeadersTooLarge(65536),
            InternalError(),
            RateLimited("600/min", 3),
            Unauthorized("An API key is required."),
            Overloaded("64 requests wait for the heavy worker", 2),
            Timeout(60.0),
        )
    ]


def test_the_code_lists_come_from_the_classes() -> None:
    """Four tool codes, execute's five, every surface's eight; every class's code among them."""
    assert (
        ["invalid_input", "limit_exceeded", "unsupported_input", "not_found"],
        ["invalid_input", "limit_exceeded", "unsupported_input", "not_found", "internal_error"],
        (
            "invalid_input",
            "limit_exceeded",
            "unsupported_input",
            "not_found",
            "method_not_allowed",
            "internal_error",
            "rate_limited",
            "unauthorized",
            "overloaded",
            "timeout",
        ),
    ) == (
        [cls.code for cls in TOOL_ERRORS],
        [cls.code for cls in EXECUTE_ERRORS],
        ERROR_CODES,
    )
    assert {cls.code for cls in (*TOOL_ERRORS, *TRANSPORT_ERRORS)} == set(ERROR_CODES)
    assert [UnsupportedInput] == [cls for cls in TOOL_ERRORS if cls.http_status == 422]


def test_the_catalog_is_every_registered_tool_version_with_its_contract() -> None:
    """One entry per registry tool, in its order, with the contract's fields and paths."""
    assert [
        (
            tool.id,
            tool.version,
            contract(tool.id, tool.version)["description"],
            tuple(contract(tool.id, tool.version)["supported_operations"]),
            tuple(contract(tool.id, tool.version)["unsupported_operations"]),
            contract(tool.id, tool.version),
            contract_text(tool.id, tool.version),
            f"/v1/tools/{tool.id}/versions/{tool.version}",
            f"/v1/tools/{tool.id}/versions/{tool.version}/execute",
            f"/tools/{tool.id}/{tool.version}",
        )
        for tool in list_tools()
    ] == [
        (
            e.id,
            e.version,
            e.description,
            e.supported_operations,
            e.unsupported_operations,
            e.document,
            e.text,
            e.contract_path,
            e.execute_path,
            e.page_path,
        )
        for e in catalog_entries()
    ]
    assert catalog_entries() is catalog_entries()  # built once


def test_a_catalog_entry_is_found_or_not_found_as_the_registry_says() -> None:
    """catalog_entry() finds an entry, and refuses an unknown one with the registry's error."""
    with pytest.raises(NotFound) as expected:
        get_tool("chrf-compute", "9.9.9")
    with pytest.raises(NotFound) as actual:
        catalog_entry("chrf-compute", "9.9.9")
    assert expected.value.message == actual.value.message
    assert catalog_entries()[0] is catalog_entry(
        catalog_entries()[0].id, catalog_entries()[0].version
    )


def test_the_version_is_the_package_metadata() -> None:
    """mtcompute._version.__version__ is what the installed metadata says."""
    assert importlib.metadata.version("mtcompute") == __version__
