"""``mtcompute doctor``: what this installation runs, so that a slow or refused run can be
explained: the compute path (the C kernel or pure Python, and why), the versions, the
extras, the tokenizers that work here, the threads and the test-set cache."""

from __future__ import annotations

__all__ = ["add_parser", "run"]

import argparse
from typing import Any

from mtcompute.cli._common import EXIT_OK, Subparsers, add_command

_TEXTS = (  # help, description, epilog
    "say what this installation runs (kernel, versions, extras, tokenizers)",
    "Print which compute path runs (the C kernel or the pure Python path, and why), the "
    "versions of mtcompute, Python and the packages it uses, which extras are installed, "
    "the tokenizers that work here, the kernel's threads and the test-set cache folder.",
    "example:\n  mtcompute doctor\n  mtcompute doctor --json",
)

# The extras a user installs (pyproject.toml); the others (test, lint, docs, bench, fuzz)
# are for development, and `torch` is another name of `torchmetrics`. What each holds is
# read from the installed package's metadata.
_USER_EXTRAS = (
    "significance",
    "report",
    "server",
    "dask",
    "ja",
    "ko",
    "spm",
    "torchmetrics",
    "evaluate",
    "pandas",
)


def add_parser(subparsers: Subparsers) -> None:
    """Register ``doctor [--json]``."""
    parser = add_command(subparsers, "doctor", run, _TEXTS)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def _requirements() -> tuple[list[str], dict[str, list[str]]]:
    """The distributions the plain install needs, and those of each user extra, as this
    installation's metadata lists them (so that the report cannot go stale)."""
    import re  # noqa: PLC0415
    from importlib import metadata  # noqa: PLC0415

    required: list[str] = []
    extras: dict[str, list[str]] = {extra: [] for extra in _USER_EXTRAS}
    for requirement in metadata.requires("mtcompute") or []:
        name = re.match(r"[A-Za-z0-9._-]+", requirement)
        marker = re.search(r"""extra == ["']([^"']+)["']""", requirement)
        if name is None or name[0] == "mtcompute":
            continue
        if marker is None:
            required.append(name[0])
        elif marker[1] in extras:
            extras[marker[1]].append(name[0])
    return required, extras


def _version(distribution: str) -> str | None:
    """The installed version of ``distribution``, or None."""
    from importlib import metadata  # noqa: PLC0415

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _spm_state(name: str) -> str:
    """An spBLEU tokenizer's state, without downloading its model: ``ok`` when sentencepiece
    and the cached model are there, else what is missing."""
    from importlib.util import find_spec  # noqa: PLC0415

    from mtcompute.spm import MODELS, cached_model_path  # noqa: PLC0415

    if find_spec("sentencepiece") is None:
        return "needs sentencepiece, which is not installed: pip install 'mtcompute[spm]'"
    file = cached_model_path(name)
    if file.is_file():
        return "ok"
    return (
        f"ok once its model is at {file}: downloaded there on first use from "
        f"{MODELS[name].url} (or --spm-model PATH)"
    )


def _tokenizers() -> dict[str, str]:
    """Each of sacreBLEU's BLEU tokenizer names: ``ok``, or why it does not run here (a
    SentencePiece model is looked for, never downloaded)."""
    from mtcompute.errors import MtcomputeError, where  # noqa: PLC0415
    from mtcompute.tokenizer_names import NAMES, SPM  # noqa: PLC0415
    from mtcompute.tokenizers import get_tokenizer  # noqa: PLC0415

    found = {}
    for name in NAMES:
        if name in SPM:
            found[name] = _spm_state(name)
            continue
        try:
            get_tokenizer(name, "/tokenize")
        except MtcomputeError as error:  # its message says where, for a request's field
            found[name] = error.message.replace(f" {where('/tokenize')}", "")
        else:
            found[name] = "ok"
    return found


def report() -> dict[str, Any]:
    """The facts ``doctor`` prints, as JSON values."""
    import os  # noqa: PLC0415
    import platform  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from mtcompute import __version__, native  # noqa: PLC0415
    from mtcompute.counting import thread_count  # noqa: PLC0415

    cache = os.environ.get("SACREBLEU") or os.path.join(os.path.expanduser("~"), ".sacrebleu")
    required, extras = _requirements()
    return {
        "mtcompute": __version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "executable": sys.executable,
        "path": dict(zip(("name", "reason"), native.path(), strict=True)),
        "threads": thread_count(),
        "dependencies": {name: _version(name) for name in required},
        "extras": {
            extra: {name: _version(name) for name in names} for extra, names in extras.items()
        },
        "tokenizers": _tokenizers(),
        "test_set_cache": {"folder": cache, "exists": os.path.isdir(cache)},
    }


def _text(facts: dict[str, Any]) -> list[str]:
    """The report as aligned lines."""
    path, cache = facts["path"], facts["test_set_cache"]
    lines = [
        f"mtcompute     {facts['mtcompute']}",
        f"python        {facts['python']} ({facts['executable']})",
        f"platform      {facts['platform']}",
        f"compute path  {path['name']}: {path['reason']}",
        f"threads       {facts['threads']} (MTCOMPUTE_THREADS, else the CPUs)",
        "dependencies",
    ]
    versions = facts["dependencies"]
    lines += [f"  {name:<14}{version or 'MISSING'}" for name, version in versions.items()]
    lines.append("extras")
    for extra, names in facts["extras"].items():
        missing = [name for name, version in names.items() if version is None]
        state = (
            f"not installed: pip install 'mtcompute[{extra}]'"
            if missing
            else ", ".join(f"{name} {version}" for name, version in names.items())
        )
        lines.append(f"  {extra:<14}{state}")
    lines.append("tokenizers")
    lines += [f"  {name:<14}{state}" for name, state in facts["tokenizers"].items()]
    lines.append(
        f"test-set cache {cache['folder']} ({'exists' if cache['exists'] else 'not there yet'};"
        " SACREBLEU sets it)"
    )
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the report (text or JSON)."""
    from mtcompute.cli._common import write  # noqa: PLC0415

    facts = report()
    if args.json:
        import json  # noqa: PLC0415

        write(json.dumps(facts, indent=2))
    else:
        for line in _text(facts):
            write(line)
    return EXIT_OK
