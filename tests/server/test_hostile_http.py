"""Hostile HTTP: every input gets the right envelope, and the server keeps answering others.

Each case asserts the status and the JSON envelope of the answer, and that another client
gets ``/healthz`` while the hostile connection is open or right after it. Raw sockets are
used where a client library would refuse to misbehave (bodies that never finish, slow or
endless headers, chunks sent one at a time).
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.types import Receive, Scope, Send

import mtcompute
from mtcompute.contracts import contract, contract_ids
from mtcompute.server.app import DEFAULT_MAX_BODY_BYTES
from mtcompute.server.middleware import BodyDeadlineMiddleware
from tests.conftest import RawResponses, read_raw_response
from tests.server.serving import serving

CHRF = "/v1/tools/chrf-compute/versions/1.0.0/execute"
SMOOTHING = "/v1/tools/bleu-smoothing-compute/versions/1.0.0/execute"
CAP = DEFAULT_MAX_BODY_BYTES
SHORT = 1.0  # the body and header deadlines of the short-deadline server, in seconds


@pytest.fixture(scope="module")
def short_server() -> Iterator[tuple[str, int]]:
    """A server with 1 s body and header deadlines: (base URL, pid)."""
    with serving(
        "--body-timeout", str(SHORT), "--header-timeout", str(SHORT), "--no-access-log"
    ) as (url, proc):
        yield url, proc.pid


def address(url: str) -> tuple[str, int]:
    """(host, port) of a base URL."""
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def assert_serving(url: str) -> None:
    """Another client gets /healthz at once."""
    response = httpx.get(url + "/healthz", timeout=5)
    assert (200, {"status": "ok"}) == (response.status_code, response.json())


def envelope_of(status: int, headers: dict[str, str], body: bytes) -> tuple[int, str, str, str]:
    """(status, code, path, message) of an error answer, checking it is the JSON envelope."""
    assert headers.get("content-type", "").startswith("application/json"), headers
    document = json.loads(body)
    assert ["error"] == list(document)
    assert ["code", "message", "path"] == list(document["error"])
    error = document["error"]
    return status, error["code"], error["path"], error["message"]


def read_response(sock: socket.socket, timeout: float = 10) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a Content-Length, read from a raw socket."""
    return read_raw_response(sock, timeout)


def closed_by_peer(sock: socket.socket, timeout: float = 5) -> bool:
    """The server has closed the connection (EOF or reset) within ``timeout``."""
    sock.settimeout(timeout)
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def head(path: str, extra: str = "", method: str = "POST") -> bytes:
    """A request head (up to and including the blank line)."""
    return (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"{extra}\r\n"
    ).encode()


def send_until_refused(sock: socket.socket, data: bytes, times: int) -> int:
    """Send ``data`` up to ``times`` times; how many sends succeeded before the server
    closed the connection (a reset or a broken pipe)."""
    for sent in range(times):
        try:
            sock.sendall(data)
        except (ConnectionResetError, BrokenPipeError):
            return sent
    return times


def local(tool_id: str, body: bytes) -> bytes:
    """The envelope bytes the library gives for a JSON body (what the server must send)."""
    return mtcompute.dumps(mtcompute.execute_json(tool_id, "1.0.0", body)).encode()


def rss_kb(pid: int) -> int:
    """VmRSS of a process, in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


# Bodies over the cap


def test_content_length_over_cap_is_refused_unread(server_url: str) -> None:
    """A Content-Length of 10 GiB gets 413 at once, though not one body byte was sent."""
    with socket.create_connection(address(server_url)) as sock:
        start = time.monotonic()
        sock.sendall(head(CHRF, f"Content-Length: {10 << 30}\r\n"))
        status, headers, body = read_response(sock)
        elapsed = time.monotonic() - start
        assert_serving(server_url)  # while the 10 GiB body is still "owed"
    assert (413, "limit_exceeded", "") == envelope_of(status, headers, body)[:3]
    assert elapsed < 2
    assert_serving(server_url)


def test_chunked_body_is_refused_as_soon_as_it_passes_the_cap(server_url: str) -> None:
    """Headers and one chunk just over the cap of an endless chunked body: 413 arrives
    before any more is sent, so the server cannot have read the whole body."""
    first = b'{"hypotheses":["' + b"a" * CAP
    with socket.create_connection(address(server_url)) as sock:
        sock.sendall(head(CHRF, "Transfer-Encoding: chunked\r\n"))
        sock.sendall(b"%x\r\n%s\r\n" % (len(first), first))
        status, headers, body = read_response(sock)
        assert_serving(server_url)
    assert (413, "limit_exceeded", "") == envelope_of(status, headers, body)[:3]


def test_chunked_body_under_the_cap_in_many_chunks_is_answered(server_url: str) -> None:
    """The same chunked framing under the cap, in 1-byte chunks, is computed normally."""
    payload = b'{"hypotheses":["abc"],"references":["abd"]}'
    with socket.create_connection(address(server_url)) as sock:
        sock.sendall(head(CHRF, "Transfer-Encoding: chunked\r\n"))
        sock.sendall(b"".join(b"1\r\n%s\r\n" % payload[i : i + 1] for i in range(len(payload))))
        sock.sendall(b"0\r\n\r\n")
        status, _, body = read_response(sock)
    assert (200, local("chrf-compute", payload)) == (status, body)


# Bodies and headers that never finish


def test_body_that_never_finishes_gets_408_and_the_connection_is_freed(
    short_server: tuple[str, int],
) -> None:
    """Content-Length 100 with 10 bytes sent: 408 invalid_input after the deadline, then
    the connection is closed; other clients are served meanwhile."""
    url, _ = short_server
    with socket.create_connection(address(url)) as sock:
        start = time.monotonic()
        sock.sendall(head(CHRF, "Content-Length: 100\r\n") + b'{"hypothes')
        assert_serving(url)  # during the stall
        status, headers, body = read_response(sock)
        elapsed = time.monotonic() - start
        closed = closed_by_peer(sock)
    code = envelope_of(status, headers, body)
    assert (408, "invalid_input", "") == code[:3]
    assert "did not arrive in time" in code[3]
    assert (True, "close") == (closed, headers.get("connection"))
    assert SHORT - 0.1 < elapsed < SHORT + 2
    assert_serving(url)


def test_a_burst_then_silence_gets_408_a_body_timeout_after_the_last_byte(
    short_server: tuple[str, int],
) -> None:
    """2 MiB at once (32 s at the minimum upload rate) then nothing: 408 a body timeout
    after the last byte, not after the time the burst bought; the connection is closed."""
    url, _ = short_server
    burst = 2 << 20
    with socket.create_connection(address(url)) as sock:
        sock.sendall(head(CHRF, f"Content-Length: {2 * burst}\r\n") + b" " * burst)
        silent = time.monotonic()
        status, headers, body = read_response(sock, timeout=15)
        elapsed = time.monotonic() - silent
        closed = closed_by_peer(sock)
    code = envelope_of(status, headers, body)
    assert (408, "invalid_input", "", True) == (*code[:3], closed)
    assert elapsed < SHORT + 2, elapsed
    assert_serving(url)


def test_chunked_body_that_never_finishes_gets_408(short_server: tuple[str, int]) -> None:
    """A chunked body whose last chunk never comes gets the same 408."""
    url, _ = short_server
    with socket.create_connection(address(url)) as sock:
        sock.sendall(head(CHRF, "Transfer-Encoding: chunked\r\n") + b'5\r\n{"hyp\r\n')
        status, headers, body = read_response(sock)
        assert closed_by_peer(sock)
    assert (408, "invalid_input", "") == envelope_of(status, headers, body)[:3]
    assert_serving(url)


def test_mcp_body_that_never_finishes_gets_408(short_server: tuple[str, int]) -> None:
    """The body deadline also holds on /mcp."""
    url, _ = short_server
    with socket.create_connection(address(url)) as sock:
        sock.sendall(
            head("/mcp", "Accept: application/json, text/event-stream\r\nContent-Length: 80\r\n")
            + b'{"jsonrpc"'
        )
        status, headers, body = read_response(sock)
    assert (408, "invalid_input", "") == envelope_of(status, headers, body)[:3]
    assert_serving(url)


def test_slow_headers_get_408_and_do_not_block_others(short_server: tuple[str, int]) -> None:
    """Slowloris: a request head sent a few bytes at a time never completes; other clients
    are served during it, and the head deadline answers 408 and closes."""
    url, _ = short_server
    request = head(CHRF, "Content-Length: 2\r\n")
    with socket.create_connection(address(url)) as sock:
        start = time.monotonic()
        for i in range(0, 40, 4):
            sock.sendall(request[i : i + 4])
            time.sleep(0.05)
        assert_serving(url)
        status, headers, body = read_response(sock)
        elapsed = time.monotonic() - start
        assert closed_by_peer(sock)
    code = envelope_of(status, headers, body)
    assert (408, "invalid_input", "") == code[:3]
    assert "request headers" in code[3]
    assert elapsed < SHORT + 2
    assert_serving(url)


def test_idle_connection_is_closed_after_the_head_deadline(short_server: tuple[str, int]) -> None:
    """A connection that sends nothing is closed (without an answer) after the deadline."""
    url, _ = short_server
    with socket.create_connection(address(url)) as sock:
        start = time.monotonic()
        assert closed_by_peer(sock, timeout=SHORT + 3)
        assert time.monotonic() - start > SHORT - 0.1
    assert_serving(url)


def test_endless_header_gets_431_and_costs_no_memory(short_server: tuple[str, int]) -> None:
    """One header line that never ends: 431 limit_exceeded once it passes 64 KiB; the
    server's memory does not grow with what the client keeps sending."""
    url, pid = short_server
    before = rss_kb(pid)
    with socket.create_connection(address(url)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Endless: ")
        sent = send_until_refused(sock, b"a" * (1 << 20), 64)
        status, headers, body = read_response(sock)
    assert (431, "limit_exceeded", "") == envelope_of(status, headers, body)[:3]
    assert sent < 64
    assert rss_kb(pid) - before < 16 * 1024
    assert_serving(url)


def test_bytes_that_are_not_http_get_the_400_envelope(short_server: tuple[str, int]) -> None:
    """A request line that does not parse gets 400 invalid_input as JSON (not text)."""
    url, _ = short_server
    with socket.create_connection(address(url)) as sock:
        sock.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n")
        status, headers, body = read_response(sock)
    assert (400, "invalid_input", "") == envelope_of(status, headers, body)[:3]
    assert_serving(url)


def test_a_bare_compressed_transfer_coding_is_refused_clearly(
    short_server: tuple[str, int],
) -> None:
    """Transfer-Encoding: gzip alone, which the HTTP parser refuses before any route: 400
    invalid_input naming the coding and what to send instead, not the generic message."""
    url, _ = short_server
    with socket.create_connection(address(url)) as sock:
        sock.sendall(
            f"POST {CHRF} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: gzip\r\n\r\nabc".encode()
        )
        status, headers, body = read_response(sock)
    assert (
        400,
        "invalid_input",
        "",
        'Expected no Transfer-Encoding but "chunked", got "gzip": compressed transfer codings '
        "are not supported; send the body uncompressed, chunked or with a Content-Length.",
    ) == envelope_of(status, headers, body)
    assert_serving(url)


def test_pipelined_requests_are_answered_in_order(server_url: str) -> None:
    """Three requests in one write get three answers, in order, on the same connection."""
    bodies = [
        b'{"hypotheses":["a"],"references":["a"]}',
        b"null",
        b'{"hypotheses":["ab"],"references":["ac"]}',
    ]
    raw = b"".join(head(CHRF, f"Content-Length: {len(b)}\r\n") + b for b in bodies)
    with socket.create_connection(address(server_url)) as sock:
        sock.sendall(raw)
        responses = RawResponses(sock)  # the answers may arrive in one read: keep the rest
        answers = [responses.next()[::2] for _ in bodies]
    expected = [(400 if b == b"null" else 200, local("chrf-compute", b)) for b in bodies]
    assert expected == answers


# Bodies that are JSON in name only


def post(
    url: str, body: bytes, path: str = CHRF, content_type: str = "application/json"
) -> httpx.Response:
    """POST raw bytes."""
    return httpx.post(url + path, content=body, headers={"content-type": content_type}, timeout=30)


def error_of(response: httpx.Response) -> tuple[int, str, str]:
    """(status, code, path) of an envelope answer."""
    return envelope_of(response.status_code, dict(response.headers), response.content)[:3]


@pytest.mark.parametrize(
    ("prefix", "opening", "closing", "suffix"),
    [
        (b"", b"[", b"]", b""),
        (b"", b'{"a":', b"}", b""),
        (b'{"hypotheses":', b"[", b"]", b',"references":["a"]}'),
    ],
    ids=["arrays", "objects", "under a known key"],
)
def test_100k_levels_of_nesting_are_invalid_input(
    server_url: str, prefix: bytes, opening: bytes, closing: bytes, suffix: bytes
) -> None:
    """JSON nested 100,000 levels deep: 400 invalid_input at the top, and the server goes on
    serving (how fast: the "HTTP hostile input" row of benchmarks/run.py, budget 1 s)."""
    body = prefix + opening * 100_000 + b"1" + closing * 100_000 + suffix
    response = post(server_url, body)
    assert (400, "invalid_input", "") == error_of(response)
    assert "nested too deeply" in response.json()["error"]["message"]
    assert_serving(server_url)


def _counts(value: str, field: str = "matches") -> bytes:
    counts = {"matches": "[1]", "totals": "[1]", "candidate_length": "1"}
    counts[field] = f"[{value}]" if field in {"matches", "totals"} else value
    return (
        f'{{"matches":{counts["matches"]},"totals":{counts["totals"]},'
        f'"candidate_length":{counts["candidate_length"]},"reference_length":1,'
        f'"smoothing":"none"}}'
    ).encode()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (_counts("1e400"), (400, "invalid_input", "/matches/0")),
        (_counts("-1e400"), (400, "invalid_input", "/matches/0")),
        (_counts("9" * 400), (400, "invalid_input", "/matches/0")),
        (_counts("1" + "0" * 5000), (400, "invalid_input", "/matches/0")),
        (_counts("1e308"), (413, "limit_exceeded", "/matches/0")),
        (_counts("1e308", "totals"), (413, "limit_exceeded", "/totals/0")),
        (_counts("1e308", "candidate_length"), (413, "limit_exceeded", "/candidate_length")),
        (_counts("1e-400"), (200, "", "")),  # underflows to 0, a valid count
    ],
    ids=[
        "1e400",
        "-1e400",
        "400 digits",
        "5001 digits",
        "1e308",
        "1e308 total",
        "1e308 c",
        "1e-400",
    ],
)
def test_huge_numbers(server_url: str, body: bytes, expected: tuple[int, str, str]) -> None:
    """Numbers too large for a double are Infinity (invalid_input), as in JavaScript; a
    finite 1e308 in a count field is over the contract's limit (limit_exceeded)."""
    response = post(server_url, body, SMOOTHING)
    actual = (200, "", "") if response.status_code == 200 else error_of(response)
    assert expected == actual
    assert local("bleu-smoothing-compute", body) == response.content
    assert_serving(server_url)


@pytest.mark.parametrize(
    ("duplicated", "deduplicated", "path"),
    [
        (
            b'{"hypotheses":["a"],"references":["a"],"beta":0,"beta":2}',
            b'{"hypotheses":["a"],"references":["a"],"beta":2}',
            CHRF,
        ),
        (
            b'{"hypotheses":["a"],"references":["a"],"beta":2,"beta":0}',
            b'{"hypotheses":["a"],"references":["a"],"beta":0}',
            CHRF,
        ),
        (
            _counts("1")[:-1] + b',"smoothing":"method4"}',
            _counts("1").replace(b'"none"', b'"method4"'),
            SMOOTHING,
        ),
        (
            b'{"hypotheses":1,"hypotheses":["x"],"references":["y"]}',
            b'{"hypotheses":["x"],"references":["y"]}',
            CHRF,
        ),
    ],
    ids=["valid last", "invalid last", "unsupported last", "bad first, good last"],
)
def test_duplicate_keys_last_one_wins(
    server_url: str, duplicated: bytes, deduplicated: bytes, path: str
) -> None:
    """A repeated key: the last value wins, as in JSON.parse; the answer (status and bytes)
    is the one for the input without the earlier occurrence."""
    first, second = post(server_url, duplicated, path), post(server_url, deduplicated, path)
    assert (second.status_code, second.content) == (first.status_code, first.content)
    assert_serving(server_url)


@pytest.mark.parametrize(
    "body",
    [
        b'{"hypotheses":["\xff"],"references":["a"]}',
        b'{"hypotheses":["\xc0\xaf"],"references":["a"]}',  # overlong "/"
        b'{"hypotheses":["\xed\xa0\x80"],"references":["a"]}',  # a surrogate, UTF-8 encoded
        b'{"hypotheses":["a"],"references":["\xe2\x82"]}',  # truncated sequence
        b'{"hypotheses":["a"],"references":["a"]}\x80',
        '{"hypotheses":["a"],"references":["a"]}'.encode("utf-16"),
        b"\xef\xbb\xbf" + b'{"hypotheses":["a"],"references":["a"]}',  # UTF-8 BOM
    ],
    ids=["0xff", "overlong", "surrogate", "truncated", "trailing 0x80", "UTF-16", "BOM"],
)
def test_bytes_that_are_not_utf8_json_are_invalid_input(server_url: str, body: bytes) -> None:
    """Bodies that are not UTF-8 JSON text get 400 invalid_input, path ""."""
    assert (400, "invalid_input", "") == error_of(post(server_url, body))
    assert_serving(server_url)


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "text/json",
        "application/xml",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        "",
        "x" * 10_000,
    ],
    ids=["text", "text/json", "xml", "form", "multipart", "jsonx", "empty", "10k junk"],
)
def test_wrong_content_types_are_415(server_url: str, content_type: str) -> None:
    """A Content-Type that is not JSON gets 415 invalid_input, with a bounded message."""
    response = post(server_url, b'{"hypotheses":["a"],"references":["a"]}', CHRF, content_type)
    assert (415, "invalid_input", "") == error_of(response)
    assert len(response.json()["error"]["message"]) < 200
    assert_serving(server_url)


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/x+json",
    ],
)
def test_json_content_types_are_accepted(server_url: str, content_type: str) -> None:
    """application/json with parameters, in any case, and +json types are accepted."""
    response = post(server_url, b'{"hypotheses":["a"],"references":["a"]}', CHRF, content_type)
    assert 200 == response.status_code


@pytest.mark.parametrize(
    "body",
    [b"", b" \n\t ", b"null", b"[]", b'"x"', b"1", b"true", b"[{}]"],
    ids=["empty", "whitespace", "null", "array", "string", "number", "true", "array of object"],
)
def test_bodies_that_are_not_an_object_are_invalid_input(server_url: str, body: bytes) -> None:
    """An empty body, or JSON that is not an object: 400 invalid_input with path ""."""
    assert (400, "invalid_input", "") == error_of(post(server_url, body))
    assert_serving(server_url)


# Many connections at once


async def _post_raw(host: str, port: int, path: str, body: bytes) -> tuple[int, bytes]:
    """POST on a fresh connection with asyncio streams: (status, body)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(head(path, f"Content-Length: {len(body)}\r\n") + body)
        response_head = await reader.readuntil(b"\r\n\r\n")
        lines = response_head.decode("latin-1").split("\r\n")
        length = next(
            int(v) for n, _, v in (x.partition(":") for x in lines) if n.lower() == "content-length"
        )
        return int(lines[0].split()[1]), await reader.readexactly(length)
    finally:
        writer.close()


def test_500_idle_connections_and_200_concurrent_requests(server_url: str) -> None:
    """500 connections held open and idle, and 200 valid requests at once on 200 other
    connections: every request gets its right answer, no 5xx, the idle ones stay open."""
    examples = [
        (
            f"/v1/tools/{tid}/versions/{ver}/execute",
            json.dumps(ex["input"]).encode(),
            mtcompute.dumps({"result": ex["output"]}).encode(),
        )
        for tid, ver in contract_ids()
        for ex in contract(tid, ver)["examples"]
    ]
    host, port = address(server_url)

    async def scenario() -> tuple[int, list[bool]]:
        idle = [await asyncio.open_connection(host, port) for _ in range(500)]
        try:
            answers = await asyncio.gather(
                *(_post_raw(host, port, *examples[i % len(examples)][:2]) for i in range(200))
            )
            await asyncio.sleep(0.1)
            still_open = sum(1 for reader, _ in idle if not reader.at_eof())
        finally:
            for _, writer in idle:
                writer.close()
        right = [
            answer == (200, examples[i % len(examples)][2]) for i, answer in enumerate(answers)
        ]
        return still_open, right

    start = time.monotonic()
    still_open, right = asyncio.run(scenario())
    assert time.monotonic() - start < 8, "too slow to tell: the head deadline is 10 s"
    assert (500, [True] * 200) == (still_open, right)
    assert_serving(server_url)


def test_big_request_then_a_split_head_on_one_connection(server_url: str) -> None:
    """A 200 KiB request followed, in the same write, by the start of a second request head
    (finished later) is not mistaken for one oversized head: both are answered."""
    first = json.dumps({"hypotheses": ["a" * 200_000], "references": ["a"]}).encode()
    second = b'{"hypotheses":["ab"],"references":["ac"]}'
    second_head = head(CHRF, f"Content-Length: {len(second)}\r\n")
    with socket.create_connection(address(server_url)) as sock:
        sock.sendall(head(CHRF, f"Content-Length: {len(first)}\r\n") + first + second_head[:20])
        time.sleep(0.3)
        sock.sendall(second_head[20:] + second)
        responses = RawResponses(sock)
        answers = [responses.next()[::2] for _ in range(2)]
    assert [(413, local("chrf-compute", first)), (200, local("chrf-compute", second))] == answers


class _Transport(asyncio.Transport):
    """An in-memory transport: records what the protocol writes and whether it closed."""

    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.closed = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(
            name, default
        )

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def test_head_cap_counts_only_the_pending_head() -> None:
    """The protocol, fed by hand: one read holding a whole 100 KiB request and the start of
    the next head, then the rest of that head, is two requests, not a 431; a head that
    itself passes 64 KiB over several reads is refused."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from mtcompute.server.protocol import GuardedHttpToolsProtocol

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    config = Config(app=app, lifespan="off", log_level="warning")
    config.load()
    loop = asyncio.new_event_loop()
    try:

        def protocol() -> tuple[GuardedHttpToolsProtocol, _Transport]:
            proto = GuardedHttpToolsProtocol(config, ServerState(), {}, _loop=loop)
            transport = _Transport()
            proto.connection_made(transport)
            return proto, transport

        proto, transport = protocol()
        body = b"x" * 100_000
        second = head(CHRF, "Content-Length: 2\r\n")
        proto.data_received(head(CHRF, f"Content-Length: {len(body)}\r\n") + body + second[:10])
        proto.data_received(second[10:] + b"{}")
        kept = (transport.closed, transport.written)

        proto, transport = protocol()
        proto.data_received(b"GET / HTTP/1.1\r\nX-Long: ")
        for _ in range(3):
            proto.data_received(b"a" * 30_000)
        refused = (transport.closed, transport.written.split(b"\r\n", 1)[0])
        loop.run_until_complete(asyncio.sleep(0))  # let the app tasks run
    finally:
        loop.close()
    assert ((False, b""), (True, b"HTTP/1.1 431 Request Header Fields Too Large")) == (
        kept,
        refused,
    )


@pytest.mark.parametrize(
    ("extensions", "guarded"),
    [
        ({"mtcompute.body": {"complete": True}}, False),
        ({"mtcompute.body": {"complete": False}}, True),
        ({}, True),
        (None, True),
    ],
)
def test_body_deadline_is_skipped_only_for_a_body_the_server_says_is_in(
    extensions: dict[str, dict[object, object]] | None, guarded: bool
) -> None:
    """BodyDeadlineMiddleware hands the route the server's own receive when the server's
    scope extension (BODY_STATE) says the body is complete, and guards it otherwise (no
    extension: another server; incomplete: a body still arriving)."""
    seen: list[bool] = []

    async def route(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(receive is not original)

    async def original() -> dict[str, object]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(_message: object) -> None:
        return None

    scope: dict[str, object] = {
        "type": "http",
        "headers": [(b"content-length", b"2")],
        "extensions": extensions,
    }
    asyncio.run(BodyDeadlineMiddleware(route, timeout=10)(scope, original, send))  # type: ignore[arg-type]
    assert [guarded] == seen


def test_the_protocol_says_when_the_body_is_in(short_server: tuple[str, int]) -> None:
    """Over a real connection, a body sent with its headers and one sent after a pause are
    both answered (the first without the deadline's timer, the second with it)."""
    url, _ = short_server
    payload = json.dumps({"hypotheses": ["a cat"], "references": ["a cat"]}).encode()
    length = f"Content-Length: {len(payload)}\r\n"
    answers = []
    with socket.create_connection(address(url)) as sock:
        sock.sendall(head(CHRF, length) + payload)
        answers.append(read_response(sock)[::2])
        sock.sendall(head(CHRF, length) + payload[:5])
        time.sleep(SHORT / 4)
        sock.sendall(payload[5:])
        answers.append(read_response(sock)[::2])
    assert [(200, local("chrf-compute", payload))] * 2 == answers
