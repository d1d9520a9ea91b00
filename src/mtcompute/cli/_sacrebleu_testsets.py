"""``mtcompute sacrebleu``'s test-set branches, as sacreBLEU 2.6.0's ``main()`` takes them:
``--download``, ``--list``, ``--citation``, the checks of ``-t`` and ``-l``, ``--echo``
(``print_test_set``), the references of ``-t`` (one set or several, concatenated),
``--origlang``/``--subset`` and ``-d``'s table (``print_subset_results``), with sacreBLEU's
output and messages. The test sets are :mod:`mtcompute.testsets`' (sacreBLEU's cache). Where
sacreBLEU stops with a traceback (a ``KeyError`` for ``--origlang`` on a WMT22 pair, a
``TypeError`` for every ``--citation``, an unknown set after ``--list`` or ``--download``),
one line names the cause."""

from __future__ import annotations

__all__ = [
    "check_test_sets",
    "citation",
    "early_branch",
    "echo",
    "references",
    "subset_results",
]

import argparse
from collections.abc import Callable
from typing import Any

from mtcompute import testsets
from mtcompute.cli._sacrebleu_output import YELLOW, Session, Stop, _fail


def progress(args: argparse.Namespace) -> testsets.Progress:
    """A download's bar on a terminal's standard error (none with -q)."""
    from mtcompute.cli._progress import bar  # noqa: PLC0415

    def make(label: str, total: int | None) -> testsets.ProgressBar:
        return bar(total or 0, label, "B", quiet=args.quiet)

    return make


def _print_list(session: Session, args: argparse.Namespace) -> None:
    """sacreBLEU's ``--list``: the pairs and fields of ``-t``, else the test sets (of ``-l``)."""
    if args.test_set:
        name = args.test_set
        pairs = [args.langpair] if args.langpair else testsets.langpairs(name)
        for pair in pairs:
            fields = testsets.fieldnames(name, pair, progress(args))
            session.print(f"{pair}: {', '.join(fields)}")
        return
    if args.langpair:
        session.print(f"The available test sets for {args.langpair} are:")
        names = testsets.testsets_for_langpair(args.langpair)
    else:
        session.print("The available test sets are:")
        names = testsets.list_testsets()
    for name in sorted(names):
        session.print(f"{name:<30}: {testsets.DATASETS[name].description.strip()}")


def early_branch(session: Session, args: argparse.Namespace) -> bool:
    """``--download`` and ``--list``, which end the run (True when one ran)."""
    if args.download:
        testsets.download(args.download, args.langpair, progress(args))
        return True
    if args.list:
        _print_list(session, args)
        return True
    return False


def citation(session: Session, args: argparse.Namespace) -> None:
    """``--citation``: each test set's BibTeX entry (sacreBLEU 2.6.0 crashes here)."""
    if not args.test_set:
        raise _fail(session, "I need a test set (-t).")
    for name in args.test_set.split(","):
        text = testsets.get(name).citation
        if text is None:
            session.log(f"No citation found for {name}")
        else:
            session.print(text)


def check_test_sets(session: Session, args: argparse.Namespace) -> None:
    """sacreBLEU's checks of ``-t`` (known sets), of references beside it and of ``-l``."""
    names = args.test_set.split(",")
    for name in names:
        if name not in testsets.DATASETS:
            raise _fail(
                session,
                f"Unknown test set {name!r}",
                "Please run with --list to see the available test sets.",
            )
    if args.refs:
        raise _fail(
            session,
            "I need exactly one of (a) a predefined test set (-t) or (b) a list of references",
        )
    if args.langpair is None:
        raise _fail(
            session,
            "I need a language pair (-l). Use --list to see available language pairs for this "
            "test set.",
        )
    for name in names:
        pairs = testsets.langpairs(name)
        if args.langpair not in pairs:
            session.log(f"No such language pair {args.langpair!r}")
            session.log(f"Available language pairs for {name!r} are:")
            for pair in pairs:
                session.log(f" > {pair}")
            raise Stop(1)


def _lines(path: str) -> list[str]:
    """A text file's lines with their ``\\n`` (as sacreBLEU iterates them)."""
    with open(path, encoding="utf-8", newline="\n") as handle:
        return handle.readlines()


def echo(session: Session, args: argparse.Namespace) -> None:
    """``--echo``: the requested fields of every ``-t`` set, tab-separated (sacreBLEU's
    ``print_test_set``), cut by ``--origlang``/``--subset``."""
    if args.langpair is None or args.test_set is None:
        raise _fail(session, "--echo requires a test set (--t) and a language pair (-l)")
    for name in args.test_set.split(","):
        fieldnames = testsets.fieldnames(name, args.langpair, progress(args))
        all_files = testsets.files(name, args.langpair, progress(args))
        requested = list(args.echo)
        if "all" in requested and len(requested) != 1:
            raise _fail(session, "Cannot use --echo all with other fields")
        if "all" in requested:
            requested = fieldnames
        refs = [f for f in fieldnames if f.startswith("ref")]
        if "ref" in requested and "ref" not in fieldnames and refs:
            requested = [f if f != "ref" else min(refs) for f in requested]
        for field in requested:
            if field not in fieldnames:
                session.log(
                    f"No such field {field} in test set {name} for language pair {args.langpair}."
                )
                session.log(f"available fields for {name}/{args.langpair}: {', '.join(fieldnames)}")
                if "ref" not in fieldnames and refs:
                    session.log(
                        f"'ref' also allowed for backwards compatibility (will return {min(refs)})"
                    )
                raise Stop(1)
        streams = [_lines(all_files[fieldnames.index(field)]) for field in requested]
        streams = testsets.filter_subset(streams, name, args.langpair, args.origlang, args.subset)
        rows = ["\t".join(x.rstrip() for x in row) for row in zip(*streams, strict=False)]
        if rows:
            session.print("\n".join(rows))


def references(
    session: Session, args: argparse.Namespace, read: Callable[[str], list[str]]
) -> list[list[str]]:
    """The reference streams of the ``-t`` sets, concatenated set after set (``read`` gives
    a file's lines as sacreBLEU's ``smart_open`` with ``-e``)."""
    concat = []
    for name in args.test_set.split(","):
        files = testsets.reference_files(name, args.langpair, progress(args))
        if not files:
            session.log(f"No references found for test set {name}/{args.langpair}.")
        concat.append(files)
    full_refs: list[list[str]] = [[] for _ in range(max(len(concat[0]), args.num_refs))]
    for files in concat:
        if len(files) > len(full_refs):  # sacreBLEU: IndexError
            raise _fail(
                session,
                f"-t {args.test_set}: the test sets have different numbers of references "
                f"({len(full_refs)} and {len(files)}); give them one at a time",
            )
        for refno, path in enumerate(files):
            full_refs[refno].extend(line.rstrip() for line in read(path))
    return full_refs


def subset_results(
    session: Session,
    args: argparse.Namespace,
    metrics: dict[str, Any],
    system: list[str],
    refs: list[list[str]],
) -> None:
    """``-d`` with a test set: each original language (and domain or country) scored alone
    (sacreBLEU's ``print_subset_results``; ``--origlang X`` is the one language X, where
    sacreBLEU iterates the characters of X)."""
    origlangs = (
        [args.origlang]
        if args.origlang
        else testsets.available_origlangs(args.test_set, args.langpair)
    )
    if not origlangs:
        session.print("No subset information found. Consider using --origlang argument.")
        return
    results: dict[str, list[tuple[int, Any]]] = {}
    for origlang in origlangs:
        subsets: list[str | None] = [None]
        if args.subset is not None:
            subsets.append(args.subset)
        else:
            subsets += testsets.available_subsets(args.test_set, args.langpair)
        for subset in subsets:
            kept, *kept_refs = testsets.filter_subset(
                [system, *refs], args.test_set, args.langpair, origlang, subset
            )
            if not kept:
                continue
            key = f"origlang={origlang}"
            if subset is None:
                key += " domain=ALL"
            elif subset.startswith("country:"):
                key += f" country={subset[8:]}"
            else:
                key += f" domain={subset}"
            for metric in metrics.values():
                score = metric.corpus_score(kept, kept_refs)
                results.setdefault(key, []).append((len(kept), score))
    if not results:
        session.print(f"No sentence of test set {args.test_set} has origlang={args.origlang}.")
        return
    left = max(len(key) for key in results) + 1
    width = max(len(score.name) for _, score in next(iter(results.values())))
    w = args.width
    for key, scores in results.items():
        shown = session.color(f"{key:<{left}}", YELLOW)
        for count, score in scores:
            session.print(
                f"{shown}: sentences={count:<6} {score.name:<{width}} = {score.score:.{w}f}"
            )
