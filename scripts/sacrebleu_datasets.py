"""Write ``src/mtcompute/testsets/datasets.json``: sacreBLEU's registry of test sets (its
``DATASETS`` and ``SUBSETS``) as data, read from the installed sacreBLEU (2.6.0, the test
extra). Re-runnable: the output depends only on sacreBLEU's registry.

    .venv/bin/python scripts/sacrebleu_datasets.py [--check]

With ``--check`` nothing is written; the exit status is 1 when the shipped file differs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "src" / "mtcompute" / "testsets" / "datasets.json"

# sacreBLEU's dataset classes and the format names the shipped registry uses for them
FORMATS = {
    "WMTXMLDataset": "wmt_xml",
    "FakeSGMLDataset": "fake_sgml",
    "WMTAdditionDataset": "wmt_addition",
    "IWSLTXMLDataset": "iwslt_xml",
    "PlainTextDataset": "plain_text",
    "TSVDataset": "tsv",
}


def registry() -> dict[str, Any]:
    """sacreBLEU's DATASETS and SUBSETS as one JSON-ready mapping, in sacreBLEU's order."""
    import sacrebleu  # noqa: PLC0415
    from sacrebleu.dataset import DATASETS, SUBSETS  # noqa: PLC0415

    datasets: dict[str, Any] = {}
    for name, dataset in DATASETS.items():
        entry: dict[str, Any] = {
            "format": FORMATS[type(dataset).__name__],
            "data": list(dataset.data),
            "md5": list(dataset.md5) if dataset.md5 else None,
            "description": dataset.description,
            "citation": dataset.citation,
            "langpairs": dataset.langpairs,
        }
        if "refs" in dataset.kwargs:
            entry["refs"] = list(dataset.kwargs["refs"])
        datasets[name] = entry
    return {"sacrebleu_version": sacrebleu.__version__, "datasets": datasets, "subsets": SUBSETS}


def main() -> int:
    text = json.dumps(registry(), ensure_ascii=False, indent=1) + "\n"
    if sys.argv[1:] == ["--check"]:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from sacreBLEU's registry")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text)} characters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
