"""The WMT sample the adapters' tests score: a system and its two references, from the
in-repo sample (the same data on every machine)."""

from __future__ import annotations

from tests.conftest import SAMPLE_WMT
from tests.harness import read_lines

PAIR = SAMPLE_WMT / "generaltest2022" / "en-cs"
HYPOTHESES: list[str] = read_lines(PAIR / "sys.CUNI-Bergamot.txt")
REFERENCE_STREAMS: list[list[str]] = [read_lines(PAIR / f"ref.{r}.txt") for r in "BC"]
# each segment's references, as torchmetrics and the batch APIs take them
REFERENCES: list[list[str]] = [list(refs) for refs in zip(*REFERENCE_STREAMS, strict=True)]
FIRST: list[str] = REFERENCE_STREAMS[0]


def batches(size: int) -> list[tuple[list[str], list[list[str]]]]:
    """The sample in batches of ``size`` segments (the last one shorter)."""
    return [
        (HYPOTHESES[i : i + size], REFERENCES[i : i + size])
        for i in range(0, len(HYPOTHESES), size)
    ]
