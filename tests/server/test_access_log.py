"""The access log through logging: one compact JSON line per request, flushed at shutdown."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from starlette.testclient import TestClient

from mtcompute.server.access_log import ACCESS_LOGGER, JsonLineFormatter, open_access_log
from mtcompute.server.app import create_app
from tests.server.test_operations import LOG_FIELDS


def test_in_process_app_logs_one_line_per_request_and_closes_the_log(tmp_path: Path) -> None:
    """Each request is one compact JSON line with the fields in order, written by the time the
    app's lifespan ends; then the logger has no handler left."""
    log = tmp_path / "access.log"
    with TestClient(create_app(access_log=str(log)), base_url="http://127.0.0.1") as client:
        sizes = [
            len(client.get("/healthz").content),
            len(
                client.post(
                    "/v1/tools/chrf-compute/versions/1.0.0/execute", content=b"null"
                ).content
            ),
            len(client.get("/nope").content),
        ]
    text = log.read_text()
    lines = [json.loads(line) for line in text.splitlines()]
    assert [LOG_FIELDS] * 3 == [list(line) for line in lines]
    assert [
        ("GET", "/healthz", None, 200, 0, sizes[0]),
        ("POST", "/v1/tools/chrf-compute/versions/1.0.0/execute", "chrf-compute", 400, 4, sizes[1]),
        ("GET", "/nope", None, 404, 0, sizes[2]),
    ] == [
        (x["method"], x["path"], x["tool"], x["status"], x["request_bytes"], x["response_bytes"])
        for x in lines
    ]
    assert (0, os.getpid()) == (text.count(" "), lines[0]["pid"])
    assert [] == logging.getLogger(ACCESS_LOGGER).handlers


def test_lines_of_records_without_access_fields_are_their_message() -> None:
    """The formatter writes a record without ``access`` fields as its message."""
    record = logging.makeLogRecord({"msg": '{"event": "x"}'})
    assert '{"event": "x"}' == JsonLineFormatter().format(record)


def test_off_values_open_no_log() -> None:
    """Unset, empty, 0, off, false, no: no access log."""
    assert [None] * 6 == [open_access_log(v) for v in (None, "", "0", "off", "False", " no ")]
