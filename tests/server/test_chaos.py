"""A short pass of scripts/chaos.py (imported, not copied): heavy clients that leave, a cheap
client measuring, the body worker killed mid-run; the promises it checks hold."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import load_script

KEPT: dict[str, Any] = {
    "cheap_p99": 0.2,
    "overrun_max": 0.1,
    "idle_after_clients": 0.2,
    "killed_worker": 4242,
    "replaced_by": [4243],
    "death_logged": ["body worker process 4242 died computing ... (request 1-2)"],
    "not_envelope_count": 0,
    "rss_before_mb": 90.0,
    "rss_after_mb": 100.0,
}


def test_a_short_chaos_run_keeps_every_promise(capsys: pytest.CaptureFixture[str]) -> None:
    """6 clients for 4 s, the body worker killed halfway: the cheap client's p99 under 1 s,
    no abandoned work past its client by more than 1 s, the worker replaced and its death
    logged, every answer an envelope, the server's memory flat (exit status 0)."""
    chaos = load_script("chaos")
    status = chaos.main(["--clients", "6", "--seconds", "4", "--json"])
    assert 0 == status, capsys.readouterr().out


@pytest.mark.parametrize(
    ("change", "broken"),
    [
        ({"cheap_p99": 1.5}, "cheap p99 1.500 s is not under 1 s"),
        ({"overrun_max": 2.0}, "abandoned work ran 2.000 s past its client"),
        ({"idle_after_clients": 3.0}, "abandoned work ran 3.000 s past its client"),
        ({"replaced_by": []}, "the killed body worker was not replaced"),
        ({"death_logged": []}, "the killed body worker's death was not logged"),
        ({"not_envelope_count": 3}, "3 answers were not envelopes"),
        ({"rss_after_mb": 200.0}, "the server grew 110.0 MB (margin 64)"),
    ],
)
def test_each_broken_promise_is_reported(change: dict[str, Any], broken: str) -> None:
    """Each promise the chaos script checks fails its run when broken (the checks bite)."""
    chaos = load_script("chaos")
    assert ([], [broken]) == (
        chaos.broken_promises(KEPT, 64.0),
        chaos.broken_promises({**KEPT, **change}, 64.0),
    )
