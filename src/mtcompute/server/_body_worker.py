"""The body worker's process: ``python -P -m mtcompute.server._body_worker``, started by
:class:`mtcompute.server.executor.BodyWorker`.

Once it has imported the tools it writes :data:`READY` (one byte), then reads requests from
its standard input and writes answers to the standard output it was given, one at a time,
until its input ends:

- a request: three big-endian 32-bit lengths (tool id, version, body), then those bytes (the id
  and version UTF-8);
- an answer: the HTTP status (32 bits) and the length (64 bits) of the envelope's JSON, then
  the JSON bytes: :func:`mtcompute._execute.execute_json` of the request, exactly what the
  server would have answered itself.

File descriptor 1 is pointed at standard error once the answers have their own descriptor, so
that nothing else written to standard output can mix with them. Ctrl-C is ignored (a terminal
sends it to the server's whole process group; the server closes this process's input when it
stops).
"""

from __future__ import annotations

__all__ = ["ANSWER", "READY", "REQUEST", "read_exactly", "serve"]

import os
import signal
import struct
import sys
from typing import IO

from mtcompute._execute import execute_json

REQUEST = struct.Struct(">III")  # lengths of the tool id, the version and the body
ANSWER = struct.Struct(">IQ")  # the HTTP status and the length of the JSON
READY = b"R"  # written once, before the first answer: the tools are imported


def read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    """``size`` bytes of ``stream``, or None when it ends first."""
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


def serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """Answer every request of ``requests`` on ``answers`` until ``requests`` ends."""
    while True:
        head = read_exactly(requests, REQUEST.size)
        if head is None:
            return
        tool_size, version_size, body_size = REQUEST.unpack(head)
        fields = read_exactly(requests, tool_size + version_size + body_size)
        if fields is None:
            return
        tool_id = fields[:tool_size].decode("utf-8")
        version = fields[tool_size : tool_size + version_size].decode("utf-8")
        envelope = execute_json(tool_id, version, fields[tool_size + version_size :])
        data = envelope.json_bytes()
        answers.write(ANSWER.pack(envelope.http_status, len(data)))
        answers.write(data)
        answers.flush()


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    with answers:
        answers.write(READY)
        answers.flush()
        serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
