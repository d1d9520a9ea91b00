"""sacreBLEU 2.6.0's ``metrics/lib_ter.py``: ``translation_edit_rate`` of one hypothesis's
words against one reference's (Snover et al. 2006, §2-3: edits with greedy block shifts),
:func:`mtcompute.metrics.ter.edits.translation_edit_rate` under sacreBLEU's name.
sacreBLEU's private helpers (``_shift``, ``BeamEditDistance``, ...) are not reproduced."""

from __future__ import annotations

__all__ = ["translation_edit_rate"]

from mtcompute.metrics.ter.edits import translation_edit_rate
