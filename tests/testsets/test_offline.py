"""Offline first: a cache made by sacreBLEU serves mtcompute with the server gone, and one
made by mtcompute serves sacreBLEU; both print the same bytes from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import load_script
from tests.testsets import world as w

diff = load_script("diff_sacrebleu_cli")

PAIRS: dict[str, tuple[str, ...]] = {
    "wmt22": ("en-de",),
    "wmt19": ("de-en",),
    "mtnt2019": ("en-fr",),
}
COMMANDS = (
    ("-t", "wmt22", "-l", "en-de", "--echo", "all"),
    ("-t", "wmt19", "-l", "de-en", "--echo", "src", "ref", "origlang", "--origlang", "de"),
    ("-t", "mtnt2019", "-l", "en-fr", "--echo", "src", "ref"),
    ("-t", "wmt22", "-l", "en-de", "-i", "sys.txt", "-m", "bleu", "chrf"),
)


@pytest.mark.parametrize("first", ["sacrebleu", "mtcompute"])
def test_a_cache_made_by_either_serves_the_other_offline(tmp_path: Path, first: str) -> None:
    """The first tool fills the cache from the server; with the server stopped, the other
    prints from that cache what the first printed, with nothing on standard error."""
    world = w.build(PAIRS)
    count = world.counts["wmt22", "en-de"]
    lines = "".join(w._sentence("sys", i) + "\n" for i in range(count))
    (tmp_path / "sys.txt").write_text(lines, encoding="utf-8")
    sacrebleu_entry, mtcompute_entry = w.patched_entries(world, diff.forked_entries())
    fill, read = (
        (sacrebleu_entry, mtcompute_entry)
        if first == "sacrebleu"
        else (mtcompute_entry, sacrebleu_entry)
    )
    env = (("SACREBLEU", str(tmp_path / "cache")),)
    with w.serving(world):
        filled = [diff.run_forked(fill, diff.Case(c, env=env), tmp_path) for c in COMMANDS]
    offline = [diff.run_forked(read, diff.Case(c, env=env), tmp_path) for c in COMMANDS]
    assert [(0, o.stdout) for o in filled] == [(o.status, o.stdout) for o in offline]
    assert [b""] * len(COMMANDS) == [o.stderr for o in offline]
