"""``SACREBLEU_SEED`` as sacreBLEU 2.6.0 reads it (its ``significance.py``): unset means 12345,
``none`` in any case means unseeded, anything else goes through ``int()``; here 0 is a seed
(sacreBLEU's ``PairedTest`` runs its comparisons unseeded then), and a value ``int()`` refuses
or a negative one raises :class:`~mtcompute.sacrebleu._errors.ArgumentError` naming the
variable (sacreBLEU: ``ValueError`` from ``int()`` or from numpy). No numpy here: the metrics
read the seed before they import the resampling."""

from __future__ import annotations

__all__ = ["DEFAULT_SEED_TEXT", "SEED_VARIABLE", "read_seed"]

import os

from mtcompute.sacrebleu._errors import ArgumentError

SEED_VARIABLE = "SACREBLEU_SEED"
DEFAULT_SEED_TEXT = "12345"  # sacreBLEU's default (mtcompute.significance.DEFAULT_SEED)


def read_seed() -> tuple[str, int | None]:
    """``SACREBLEU_SEED``'s text (``"12345"`` when unset) and the seed it gives (None for
    ``none`` in any case)."""
    text = os.environ.get(SEED_VARIABLE, DEFAULT_SEED_TEXT)
    if text.lower() == "none":
        return text, None
    try:
        seed = int(text)
    except ValueError:
        seed = -1
    if seed < 0:
        raise ArgumentError(
            f"{SEED_VARIABLE}: expected a non-negative integer or 'None', got {text!r}"
        )
    return text, seed
