"""``mtcompute score`` as a subprocess (and in-process): BLEU, chrF and chrF++ of WMT files
against sacreBLEU 2.6.0, several systems and references, the contract rule, formats, errors,
progress (TER's own tests: tests/cli/test_score_ter.py).

The files are those of the WMT data in use (``tests.conftest.WMT``): every en-de system with
both references (2037 segments in the full data, 200 in the in-repo sample), and an en-zh and
an en-ja pair with their tokenizers (zh; ja-mecab where it is installed, else char, what the
registry offers). sacreBLEU is the oracle: scores are compared as Python floats, signatures
and printed lines byte for byte.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

import mtcompute
from mtcompute import __version__, cli, tokenizers
from mtcompute.errors import MtcomputeError
from mtcompute.metrics.chrf.corpus import corpus_chrf
from mtcompute.tokenizers import get_tokenizer
from tests import conftest
from tests.cli.terminal import stderr_on_a_terminal
from tests.conftest import WMT, at_least, count_zh, run_cli
from tests.oracle import assert_sacrebleu

EN_DE = WMT / "generaltest2022" / "en-de"
SYSTEMS = sorted(EN_DE.glob("sys.*.txt"))
SYS = EN_DE / "sys.JDExploreAcademy.txt"
REF_A = EN_DE / "ref.A.txt"
REF_B = EN_DE / "ref.B.txt"
SYS_B = EN_DE / "sys.Online-B.txt"
MTCOMPUTE = f"|mtcompute:{__version__}"


def lines(path: Path) -> list[str]:
    """A WMT file's segments (UTF-8, one per line, final newline ends the last one)."""
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def score_json(*args: str, stdin: bytes | None = None) -> dict[str, Any]:
    """Run ``mtcompute score --format json ARGS`` and parse its one JSON object."""
    proc = run_cli("score", "--format", "json", *args, stdin=stdin)
    assert (0, b"") == (proc.returncode, proc.stderr)
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def scores(output: dict[str, Any], system: int = 0) -> dict[str, Any]:
    """The scores by metric of one system of a JSON output."""
    found: dict[str, Any] = output["systems"][system]["scores"]
    return found


def write(tmp_path: Path, name: str, data: bytes) -> str:
    """Write ``data`` to ``tmp_path/name`` and return the path as a string."""
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def sacre(metric: BLEU | CHRF, hyps: list[str], refs: list[list[str]]) -> tuple[float, str, str]:
    """sacreBLEU's corpus score, its str() and its signature (refs: one list per file)."""
    result = metric.corpus_score(hyps, refs)
    return result.score, str(result), str(metric.get_signature())


def usage_message(proc: subprocess.CompletedProcess[bytes]) -> tuple[int, bytes, bool, str]:
    """(exit status, stdout, whether stderr starts with the usage, its last line)."""
    usage, _, last = proc.stderr.decode().rstrip("\n").rpartition("\n")
    return proc.returncode, proc.stdout, usage.startswith("usage: "), last


def ja_tokenizer() -> str:
    """ja-mecab where it can run, else char (both sacreBLEU tokenizers)."""
    try:
        return get_tokenizer("ja-mecab").name
    except MtcomputeError:
        return "char"


# -- numbers -------------------------------------------------------------------------------


def test_chrf_text_line_is_sacrebleus_with_the_signature() -> None:
    """The default: chrF2, one line, sacreBLEU's name, signature and score, then mtcompute's
    version in the signature."""
    score, _, signature = sacre(CHRF(), lines(SYS), [lines(REF_A)])
    expected = f"chrF2|{signature}{MTCOMPUTE} = {score:.2f}\n".encode()
    proc = run_cli("score", "--hypotheses", str(SYS), "--references", str(REF_A))
    assert (0, expected, b"") == (proc.returncode, proc.stdout, proc.stderr)


def test_every_en_de_system_both_references_every_metric_equals_sacrebleu() -> None:
    """One run: all en-de systems, ref.A and ref.B, BLEU, chrF and chrF++; every score,
    signature and sacreBLEU line equals sacreBLEU's."""
    refs = [lines(REF_A), lines(REF_B)]
    output = score_json(
        "-H", *map(str, SYSTEMS), "-r", str(REF_A), str(REF_B), "-m", "bleu", "chrf", "chrf++"
    )
    actual: list[list[tuple[float, str]]] = []
    for i in range(len(SYSTEMS)):
        found = scores(output, i)
        actual.append([(found[m]["score"], found[m]["signature"]) for m in found])
    header = (output["references"], output["segment_count"], len(output["systems"]))
    assert ([str(REF_A), str(REF_B)], len(refs[0]), len(SYSTEMS)) == header

    def sacrebleus() -> list[list[tuple[float, str]]]:
        expected = []
        for system in SYSTEMS:
            row = []
            for metric in (BLEU(), CHRF(), CHRF(word_order=2)):
                score, _, signature = sacre(metric, lines(system), refs)
                row.append((score, signature + MTCOMPUTE))
            expected.append(row)
        return expected

    assert_sacrebleu(
        actual,
        "corpus_score and signature: BLEU(), CHRF(), CHRF(word_order=2)",
        MTCOMPUTE,
        [[lines(system) for system in SYSTEMS], refs],
        sacrebleus,
    )


def test_several_systems_text_layout() -> None:
    """Text: one line per system and metric, the file name padded first, then sacreBLEU's
    line with the signature."""
    systems = [SYS_B, SYS]
    refs = [lines(REF_A), lines(REF_B)]
    width = max(len(str(s)) for s in systems)
    args = ("-H", str(SYS_B), str(SYS), "-r", str(REF_A), str(REF_B), "-m", "bleu", "chrf++")
    proc = run_cli("score", *args)
    assert (0, b"") == (proc.returncode, proc.stderr)

    def sacrebleus() -> str:
        expected = []
        for system in systems:
            for metric in (BLEU(), CHRF(word_order=2)):
                score = metric.corpus_score(lines(system), refs)
                line = score.format(signature=str(metric.get_signature()) + MTCOMPUTE)
                expected.append(f"{system!s:<{width}}  {line}")
        return "\n".join(expected) + "\n"

    assert_sacrebleu(
        proc.stdout.decode(),
        "format(signature): BLEU(), CHRF(word_order=2), padded names",
        [MTCOMPUTE, [str(system) for system in systems]],
        [[lines(system) for system in systems], refs],
        sacrebleus,
    )


@pytest.mark.parametrize(
    ("flags", "metric"),
    [
        ((), BLEU()),
        (("--lowercase",), BLEU(lowercase=True)),
        (("--tokenize", "none"), BLEU(tokenize="none")),
        (("--tokenize", "char", "--max-order", "6"), BLEU(tokenize="char", max_ngram_order=6)),
        (("--smooth-method", "floor"), BLEU(smooth_method="floor")),
        (
            ("--smooth-method", "floor", "--smooth-value", "0.3"),
            BLEU(smooth_method="floor", smooth_value=0.3),
        ),
        (
            ("--smooth-method", "add-k", "--smooth-value", "2"),
            BLEU(smooth_method="add-k", smooth_value=2),
        ),
        (
            ("--smooth-method", "none", "--effective-order"),
            BLEU(smooth_method="none", effective_order=True),
        ),
        (
            ("--max-order", "2", "--lowercase", "--tokenize", "13a"),
            BLEU(max_ngram_order=2, lowercase=True),
        ),
    ],
    ids=[
        "default",
        "lowercase",
        "none",
        "char-6",
        "floor",
        "floor-0.3",
        "add-k-2",
        "none-eff",
        "2-lc",
    ],
)
def test_bleu_options_equal_sacrebleu(flags: tuple[str, ...], metric: BLEU) -> None:
    """Each BLEU option as sacreBLEU's BLEU() takes it: the printed line (score, precisions,
    BP, lengths) and the signature, byte for byte, with both references."""
    refs = [lines(REF_A), lines(REF_B)]
    proc = run_cli("score", "-H", str(SYS_B), "-r", str(REF_A), str(REF_B), "-m", "bleu", *flags)
    assert 0 == proc.returncode

    def sacrebleus() -> bytes:
        score = metric.corpus_score(lines(SYS_B), refs)
        return (score.format(signature=str(metric.get_signature()) + MTCOMPUTE) + "\n").encode()

    assert_sacrebleu(
        proc.stdout,
        "BLEU format(signature)",
        [MTCOMPUTE, list(flags)],
        (lines(SYS_B), refs),
        sacrebleus,
    )


@pytest.mark.parametrize(
    ("flags", "metric"),
    [
        (("-m", "chrf", "--beta", "3"), CHRF(beta=3)),
        (("-m", "chrf", "--lowercase"), CHRF(lowercase=True)),
        (
            ("-m", "chrf++", "--beta", "1", "--lowercase"),
            CHRF(word_order=2, beta=1, lowercase=True),
        ),
    ],
    ids=["beta-3", "lowercase", "chrf++-beta-1-lowercase"],
)
def test_chrf_options_equal_sacrebleu(flags: tuple[str, ...], metric: CHRF) -> None:
    """--beta and --lowercase for chrF and chrF++, one reference and two: sacreBLEU's line and
    signature."""
    for refs in ([REF_A], [REF_A, REF_B]):
        texts = [lines(r) for r in refs]
        proc = run_cli("score", "-H", str(SYS), "-r", *map(str, refs), *flags)
        assert 0 == proc.returncode
        assert_sacrebleu(
            proc.stdout,
            "chrF format(signature)",
            [MTCOMPUTE, list(flags)],
            (lines(SYS), texts),
            lambda texts=texts: (
                metric.corpus_score(lines(SYS), texts).format(
                    signature=str(metric.get_signature()) + MTCOMPUTE
                )
                + "\n"
            ).encode(),
        )


@pytest.mark.parametrize(
    ("pair", "tokenize", "references"),
    [("en-zh", "zh", ("A", "B")), ("en-ja", ja_tokenizer(), ("A",))],
)
def test_chinese_and_japanese_with_their_tokenizers(
    pair: str, tokenize: str, references: tuple[str, ...]
) -> None:
    """en-zh with zh and en-ja with ja-mecab (char where MeCab is not installed), every
    system: BLEU, chrF and chrF++ equal sacreBLEU's, signatures included."""
    folder = WMT / "generaltest2022" / pair
    systems = sorted(folder.glob("sys.*.txt"))
    ref_files = [folder / f"ref.{r}.txt" for r in references]
    refs = [lines(r) for r in ref_files]
    output = score_json(
        "-H", *map(str, systems), "-r", *map(str, ref_files), "-m", "bleu", "chrf", "chrf++",
        "--tokenize", tokenize,
    )  # fmt: skip
    actual = []
    for i in range(len(systems)):
        actual += [(s["score"], s["signature"]) for s in scores(output, i).values()]

    def sacrebleus() -> list[tuple[float, str]]:
        expected = []
        for system in systems:
            for metric in (BLEU(tokenize=tokenize), CHRF(), CHRF(word_order=2)):
                score, _, signature = sacre(metric, lines(system), refs)
                expected.append((score, signature + MTCOMPUTE))
        return expected

    assert_sacrebleu(
        actual,
        "corpus_score and signature: BLEU(tokenize), CHRF(), CHRF(word_order=2)",
        [MTCOMPUTE, tokenize],
        [[lines(system) for system in systems], refs],
        sacrebleus,
    )


def test_several_systems_tokenize_each_line_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`score -l en-zh` of three systems against two references: each call builds its own
    zh tokenizer, all sharing one memo, so each distinct line is tokenized once (the
    references were tokenized again for each system); the output is the same as without."""
    folder = WMT / "generaltest2022" / "en-zh"
    systems = [str(p) for p in sorted(folder.glob("sys.*.txt"))[:3]]
    references = [str(folder / "ref.A.txt"), str(folder / "ref.B.txt")]
    seen = count_zh(monkeypatch)
    args = ["score", "-H", *systems, "-r", *references, "-l", "en-zh", "-m", "bleu", "chrf"]

    def output() -> str:
        assert cli.main([*args, "--format", "json"]) == 0
        return capsys.readouterr().out

    shared = output()
    distinct = {line.rstrip() for path in (*systems, *references) for line in lines(Path(path))}
    assert sorted(seen) == sorted(distinct)
    seen.clear()
    monkeypatch.setattr(tokenizers, "shared_memo", lambda _name: contextlib.nullcontext())
    assert output() == shared
    assert len(seen) == len(systems) * (len(lines(Path(systems[0]))) * 3)


def _json_head(name: str, metric: BLEU | CHRF, score: float) -> dict[str, Any]:
    """The first fields of a metric's JSON: its name, sacreBLEU's ``score`` and its text to
    two decimals, and sacreBLEU's signature with mtcompute's part."""
    return {
        "name": name,
        "score": score,
        "score_text": f"{score:.2f}",
        "signature": str(metric.get_signature()) + MTCOMPUTE,
    }


def test_bleu_json_fields() -> None:
    """BLEU JSON: sacreBLEU's numbers (counts, totals, precisions, bp, lengths) and the
    settings, in order."""
    metric = BLEU(smooth_method="floor", smooth_value=0.2)
    theirs = metric.corpus_score(lines(SYS), [lines(REF_A)])
    expected = {
        **_json_head("BLEU", metric, theirs.score),
        "tokenize": "13a",
        "lowercase": False,
        "smooth_method": "floor",
        "smooth_value": 0.2,
        "max_order": 4,
        "effective_order": False,
        "nrefs": 1,
        "counts": theirs.counts,
        "totals": theirs.totals,
        "precisions": theirs.precisions,
        "bp": theirs.bp,
        "ratio": theirs.ratio,
        "sys_len": theirs.sys_len,
        "ref_len": theirs.ref_len,
    }
    args = ("-H", str(SYS), "-r", str(REF_A), "-m", "bleu", "--smooth-method", "floor")
    actual = scores(score_json(*args, "--smooth-value", "0.2"))["bleu"]
    assert (expected, list(expected)) == (actual, list(actual))


def test_chrf_json_fields() -> None:
    """chrF JSON: sacreBLEU's score, the settings and the summed statistics, in order."""
    metric = CHRF(beta=3, lowercase=True)
    theirs = metric.corpus_score(lines(SYS), [lines(REF_A)])
    result = corpus_chrf(lines(SYS), lines(REF_A), beta=3, lowercase=True)
    expected = {
        **_json_head("chrF3", metric, theirs.score),
        "rules": "sacrebleu",
        "char_order": 6,
        "word_order": 0,
        "beta": 3,
        "lowercase": True,
        "whitespace": False,
        "eps_smoothing": False,
        "nrefs": 1,
        "statistics": list(result.statistics),
    }
    actual = scores(score_json("-H", str(SYS), "-r", str(REF_A), "--beta", "3", "--lowercase"))
    assert (expected, list(expected)) == (actual["chrf"], list(actual["chrf"]))


# -- the contract rule ---------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["chrf", "chrf++"])
def test_rules_contract_is_the_exact_corpus_fraction(metric: str) -> None:
    """--rules contract: the contracts' exact corpus fraction (literal sums), printed to six
    decimals, rules:contract in the signature; JSON carries the fraction."""
    word_order = 2 if metric == "chrf++" else 0
    result = corpus_chrf(lines(SYS), lines(REF_A), word_order=word_order, rules="contract")
    assert result.fraction is not None
    name = "chrF2++" if word_order else "chrF2"
    expected_line = (
        f"{name}|nrefs:1|case:mixed|eff:yes|nc:6|nw:{word_order}|space:no|version:2.6.0|"
        f"rules:contract{MTCOMPUTE} = {result.score_text}\n"
    )
    args = ("-H", str(SYS), "-r", str(REF_A), "-m", metric, "--rules", "contract")
    proc = run_cli("score", *args)
    data = scores(score_json(*args))[metric]
    fraction = f"{result.fraction.numerator}/{result.fraction.denominator}"
    assert (0, expected_line.encode(), fraction, result.score) == (
        proc.returncode,
        proc.stdout,
        data["score_fraction"],
        data["score"],
    )


def test_rules_contract_segments_are_the_tools(tmp_path: Path) -> None:
    """--rules contract --segments on 200 segments: chrf-compute's segment fractions as
    floats (the tool takes 256 segments at most)."""
    hyps, refs = lines(SYS)[:200], lines(REF_A)[:200]
    expected = [float(f) for f in mtcompute.chrf(hyps, refs).segment_fractions]
    hyp_file = write(tmp_path, "hyp.txt", "\n".join(hyps).encode())
    ref_file = write(tmp_path, "ref.txt", "\n".join(refs).encode())
    output = score_json("-H", hyp_file, "-r", ref_file, "--rules", "contract", "--segments")
    assert expected == scores(output)["chrf"]["segment_scores"]


# -- segments ------------------------------------------------------------------------------


def test_segments_are_sacrebleus_sentence_scores(tmp_path: Path) -> None:
    """--segments: each segment's sentence BLEU (same settings) and sentence chrF against its
    best reference, sacreBLEU's, exactly."""
    hyps, ref_a, ref_b = lines(SYS_B)[:300], lines(REF_A)[:300], lines(REF_B)[:300]
    bleu, chrf = BLEU(smooth_method="add-k"), CHRF()
    triples = list(zip(hyps, ref_a, ref_b, strict=True))
    expected = {
        "bleu": [bleu.sentence_score(h, [a, b]).score for h, a, b in triples],
        "chrf": [chrf.sentence_score(h, [a, b]).score for h, a, b in triples],
    }
    files = [
        write(tmp_path, name, "\n".join(texts).encode())
        for name, texts in (("h.txt", hyps), ("a.txt", ref_a), ("b.txt", ref_b))
    ]
    actual = score_json(
        "-H", files[0], "-r", *files[1:], "-m", "bleu", "chrf", "--smooth-method", "add-k",
        "--segments",
    )  # fmt: skip
    found = scores(actual)
    assert expected == {m: found[m]["segment_scores"] for m in found}


def test_segments_text_follow_their_corpus_line() -> None:
    """Text --segments: the corpus line, then one line per segment (six decimals)."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), "--segments")
    out = proc.stdout.decode().splitlines()
    metric = CHRF()
    first = [
        f"{metric.sentence_score(h, [r]).score:.6f}"
        for h, r in zip(lines(SYS)[:5], lines(REF_A)[:5], strict=True)
    ]
    expected = (0, 1 + len(lines(SYS)), True, first)
    assert expected == (proc.returncode, len(out), out[0].startswith("chrF2|"), out[1:6])


def test_stdin_stands_for_the_hypotheses() -> None:
    """'-' reads the hypotheses from stdin; the scores are the same as from the file."""
    from_file = score_json("-H", str(SYS), "-r", str(REF_A), "-m", "bleu", "chrf")
    from_stdin = score_json(
        "-H", "-", "-r", str(REF_A), "-m", "bleu", "chrf", stdin=SYS.read_bytes()
    )
    assert scores(from_file) == scores(from_stdin)
    assert ["<stdin>", str(SYS)] == [
        from_stdin["systems"][0]["hypotheses"],
        from_file["systems"][0]["hypotheses"],
    ]


def test_in_process_equals_the_subprocess(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """cli.main in this process prints what the installed command prints."""
    args = ["score", "-H", str(SYS_B), str(SYS), "-r", str(REF_A), "-m", "chrf", "bleu"]
    code = cli.main(args)
    out = capsysbinary.readouterr()
    proc = run_cli(*args)
    assert (0, proc.stdout, b"") == (code, out.out, out.err)


# -- input handling ------------------------------------------------------------------------


def test_final_newline_does_not_add_a_segment(tmp_path: Path) -> None:
    """'a\\nb\\n' and 'a\\nb' are both two segments; a '\\r' before '\\n' stays (whitespace)."""
    with_newline = write(tmp_path, "h1.txt", b"abc def\r\nxyz\n")
    without = write(tmp_path, "r1.txt", b"abc def\nxyz")
    actual = score_json("-H", with_newline, "-r", without)
    assert (2, 100.0) == (actual["segment_count"], scores(actual)["chrf"]["score"])


def test_empty_line_is_a_segment(tmp_path: Path) -> None:
    """An empty line is an empty segment (a file holding just '\\n' is one segment)."""
    hyp = write(tmp_path, "h.txt", b"\n")
    ref = write(tmp_path, "r.txt", b"\n")
    actual = score_json("-H", hyp, "-r", ref, "-m", "chrf", "bleu")
    found = scores(actual)
    assert (1, 0.0, 0.0) == (
        actual["segment_count"],
        found["chrf"]["score"],
        found["bleu"]["score"],
    )


@pytest.mark.parametrize(
    ("hyp_bytes", "ref_bytes", "message"),
    [
        pytest.param(
            b"a\nb\nc\n",
            b"a\nb\n",
            "the files have different numbers of lines: {hyp} has 3, {ref} has 2; every file "
            "needs one line per segment",
            id="different lengths",
        ),
        pytest.param(
            b"ok\nfine\nba\xffd\n",
            b"ok\nfine\nbad\n",
            "{hyp}: line 3 is not valid UTF-8: byte 0xff at byte offset 10 of the file (offset 2 "
            "in the line): invalid start byte",
            id="bad utf-8",
        ),
    ],
)
def test_data_errors_exit_1_naming_the_file(
    tmp_path: Path, hyp_bytes: bytes, ref_bytes: bytes, message: str
) -> None:
    """Files of different lengths (both files and their line counts), a byte that is not UTF-8
    (the file, line number and byte offsets): exit 1 with the whole message."""
    hyp = write(tmp_path, "hyp.txt", hyp_bytes)
    ref = write(tmp_path, "ref.txt", ref_bytes)
    proc = run_cli("score", "-H", hyp, "-r", ref)
    expected = f"mtcompute score: error: {message.format(hyp=hyp, ref=ref)}\n".encode()
    assert (1, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)


def test_bad_utf8_with_json_format_prints_the_error_envelope(tmp_path: Path) -> None:
    """With --format json a data error is an invalid_input envelope on stdout, exit 1."""
    hyp = write(tmp_path, "hyp.txt", b"ok\n")
    ref = write(tmp_path, "ref.txt", b"\xc3\n")
    proc = run_cli("score", "-H", hyp, "-r", ref, "--format", "json")
    error = json.loads(proc.stdout)["error"]
    assert (1, "invalid_input", True, b"") == (
        proc.returncode,
        error["code"],
        error["message"].startswith(f"{ref}: line 1 is not valid UTF-8"),
        proc.stderr,
    )


def test_empty_files_are_a_data_error(tmp_path: Path) -> None:
    """Empty files have no segment to score: exit 1 with a message saying so."""
    hyp = write(tmp_path, "hyp.txt", b"")
    ref = write(tmp_path, "ref.txt", b"")
    proc = run_cli("score", "-H", hyp, "-r", ref)
    expected = f"mtcompute score: error: no segments to score: {hyp} is empty\n".encode()
    assert (1, expected) == (proc.returncode, proc.stderr)


def test_rules_contract_with_two_reference_files_is_refused() -> None:
    """--rules contract with two reference files: exit 2 with the reason and what to do."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), str(REF_B), "--rules", "contract")
    expected = (
        f"mtcompute score: error: --rules contract takes exactly one reference file, got 2 "
        f"({REF_A}, {REF_B}): the chrf-compute contract scores each segment against one "
        "reference; without --rules contract, chrF takes several (sacreBLEU's best reference "
        "per segment)\n"
    ).encode()
    assert (2, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)


def test_a_system_of_another_length_is_a_data_error(tmp_path: Path) -> None:
    """The second system shorter than the first: exit 1 naming both files."""
    short = write(tmp_path, "short.txt", b"a\n")
    proc = run_cli("score", "-H", str(SYS), short, "-r", str(REF_A))
    expected = (
        f"mtcompute score: error: the files have different numbers of lines: {SYS} has "
        f"{len(lines(SYS))}, {short} has 1; every file needs one line per segment\n"
    ).encode()
    assert (1, b"", expected) == (proc.returncode, proc.stdout, proc.stderr)


def test_stdin_twice_is_a_usage_error() -> None:
    """'-' for two files is a usage error (exit 2)."""
    proc = run_cli("score", "-H", "-", "-r", "-", "--metric", "bleu", stdin=b"a\n")
    expected = b"mtcompute score: error: '-' (stdin) can stand for at most one file\n"
    assert (2, expected) == (proc.returncode, proc.stderr)


def test_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    """A file that cannot be read is a usage error (exit 2) naming it."""
    missing = str(tmp_path / "nope.txt")
    proc = run_cli("score", "-H", missing, "-r", str(REF_A))
    expected = f"mtcompute score: error: cannot read {missing}: No such file or directory\n"
    assert (2, expected.encode()) == (proc.returncode, proc.stderr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--metric", "bleu", "--beta", "3"), "--beta do(es) not apply to --metric bleu"),
        (("--max-order", "3"), "--max-order do(es) not apply to --metric chrf"),
        (
            ("-m", "chrf", "chrf++", "--tokenize", "zh", "--effective-order"),
            "--tokenize, --effective-order do(es) not apply to --metric chrf chrf++",
        ),
        (
            ("-m", "chrf", "--smooth-method", "floor", "--smooth-value", "0.2"),
            "--smooth-method, --smooth-value do(es) not apply to --metric chrf",
        ),
        (
            ("--metric", "bleu", "--smooth-value", "0.2"),
            "--smooth-value applies only to --smooth-method floor or add-k, got "
            "--smooth-method exp",
        ),
        (
            ("-m", "bleu", "--smooth-method", "none", "--smooth-value", "0"),
            "--smooth-value applies only to --smooth-method floor or add-k, got "
            "--smooth-method none",
        ),
        (
            ("-m", "chrf", "bleu", "--rules", "contract"),
            "--rules contract applies to chrf and chrf++ only: BLEU is scored by sacreBLEU's "
            "rules alone (for the contracts' BLEU on whitespace tokens, run the "
            "bleu-corpus-compute tool: mtcompute run bleu-corpus-compute 1.0.0)",
        ),
        (("-m", "bleu", "chrf", "bleu"), "--metric bleu is given more than once"),
    ],
    ids=[
        "beta",
        "max-order",
        "two-for-chrf",
        "smoothing-for-chrf",
        "value-exp",
        "value-none",
        "contract-bleu",
        "twice",
    ],
)
def test_options_that_do_not_apply_are_refused(args: tuple[str, ...], message: str) -> None:
    """An option none of the metrics asked for takes, or a combination that means nothing,
    is a usage error (exit 2) saying so."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    assert (2, b"", f"mtcompute score: error: {message}\n".encode()) == (
        proc.returncode,
        proc.stdout,
        proc.stderr,
    )


@pytest.mark.parametrize(
    "args",
    [("--beta", "0"), ("--beta", "17"), ("-m", "bleu", "--max-order", "9"), ("--rules", "x")],
)
def test_option_values_out_of_range_are_usage_errors(args: tuple[str, ...]) -> None:
    """beta outside 1..16, max order outside 1..8, an unknown rule: argparse usage error,
    exit 2."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    assert (2, b"") == (proc.returncode, proc.stdout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--beta", "0"), "argument --beta: Expected an integer of at least 1 at --beta, got 0."),
        (("--beta", "x"), "argument --beta: expected a number, got 'x'"),
        (
            ("--max-order", "1.5"),
            "argument --max-order: Expected an integer at --max-order, got 1.5.",
        ),
        (
            ("--smooth-value", "nan"),
            "argument --smooth-value: Expected a finite number at --smooth-value, got NaN.",
        ),
        (("--smooth-value", "abc"), "argument --smooth-value: expected a number, got 'abc'"),
        (
            ("--metric", "meteor"),
            "argument --metric/-m: invalid choice: 'meteor' (choose from 'bleu', 'chrf', "
            "'chrf++', 'ter', 'wer', 'cer')",
        ),
        (("--lowercase=1",), "argument --lowercase: ignored explicit argument '1'"),
        (
            ("--smooth-value", "-1"),
            "argument --smooth-value: Expected a number from 0 to 100 at --smooth-value, got -1.",
        ),
        (
            ("--smooth-method", "method1"),
            "argument --smooth-method: Expected one of none, floor, add-k, exp at "
            '--smooth-method, got the string "method1".',
        ),
        (
            ("--rules", "exact"),
            "argument --rules: Expected one of sacrebleu, contract at --rules, got the string "
            '"exact".',
        ),
        (
            ("--tokenize", "moses"),
            "argument --tokenize: Expected one of none, zh, 13a, intl, char, ja-mecab, ko-mecab, "
            'spm, flores101, flores200, spBLEU-1K at --tokenize, got the string "moses".',
        ),
    ],
)
def test_bad_option_values_are_argparse_usage_errors(args: tuple[str, ...], message: str) -> None:
    """A bad option value: the usage, then the option and what it expects, on stderr; exit 2."""
    proc = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    assert (2, b"", True, f"mtcompute score: error: {message}") == usage_message(proc)


def test_help_shows_examples_and_exit_statuses() -> None:
    """score --help documents examples, line handling, the rules and the exit statuses."""
    proc = run_cli("score", "--help")
    text = proc.stdout.decode()
    wanted = (
        "examples:",
        "mtcompute score -H",
        "exit status:",
        "--rules contract",
        "chrf++",
        "-m ter",
    )
    assert (0, [True] * 6) == (proc.returncode, [w in text for w in wanted])


def test_help_example_numbers_are_real() -> None:
    """The help's example lines are what the examples print on the WMT en-de files it names
    (full data only: the sample's 200 lines give other numbers)."""
    if conftest.WMT_IS_SAMPLE:
        pytest.skip("the help's numbers are the full en-de test set's")
    text = run_cli("score", "--help").stdout.decode()
    one = run_cli("score", "-H", str(SYS_B), "-r", str(REF_A)).stdout.decode().strip()
    two = (
        run_cli("score", "-H", str(SYS_B), "-r", str(REF_A), str(REF_B), "-m", "bleu", "chrf++")
        .stdout.decode()
        .splitlines()
    )
    contract = run_cli("score", "-H", str(SYS_B), "-r", str(REF_A), "--rules", "contract")
    ter = run_cli("score", "-H", str(SYS_B), "-r", str(REF_A), str(REF_B), "-m", "ter")
    bleu_head, _, bleu_tail = two[0].partition(" = 52.32 ")
    shown = [
        one,
        f"{bleu_head} = 52.32 \\",
        f"    {bleu_tail}   (one line)",
        two[1],
        f" = {contract.stdout.decode().strip().rpartition(' = ')[2]}",
        f"\n  {ter.stdout.decode().strip()}\n",
    ]
    assert [True] * 6 == [line in text for line in shown]


# -- progress ------------------------------------------------------------------------------


def long_input(tmp_path: Path) -> tuple[str, str, int]:
    """en-de repeated past the progress bar's threshold of 10,000 segments: five times over on
    the full data (10,185 segments), 51 times the sample's 200 lines; and the segment count."""
    copies = max(5, 10_000 // len(lines(SYS)) + 1)
    hyp = write(tmp_path, "hyp.txt", SYS.read_bytes() * copies)
    ref = write(tmp_path, "ref.txt", REF_A.read_bytes() * copies)
    return hyp, ref, copies * len(lines(SYS))


def test_no_progress_bar_when_stderr_is_not_a_tty(tmp_path: Path) -> None:
    """Over 10,000 segments with stderr a pipe: stderr stays empty."""
    hyp, ref, _ = long_input(tmp_path)
    proc = run_cli("score", "-H", hyp, "-r", ref)
    assert (0, b"") == (proc.returncode, proc.stderr)


@pytest.mark.parametrize("metric", ["chrf", "bleu", "chrf++", "ter"])
def test_progress_bar_on_a_tty_leaves_the_result_unchanged(tmp_path: Path, metric: str) -> None:
    """On a terminal the bar is drawn on stderr and the printed score is the same."""
    hyp, ref, count = long_input(tmp_path)
    args = ["score", "-H", hyp, "-r", ref, "--metric", metric, "--format", "json"]
    plain = run_cli(*args)
    proc, drawn = stderr_on_a_terminal(args, timeout=60)
    done = f"{count}/{count}".encode()  # 10185/10185 on the full data
    assert (0, plain.stdout, True) == (proc.returncode, proc.stdout, done in drawn)


# -- a fresh process -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "threads"),
    [
        (("-H", str(SYS_B), "-r", str(REF_A)), "1"),
        (("-H", str(SYS_B), "-r", str(REF_A)), "2"),
        (("-H", str(SYS_B), "-r", str(REF_A), "--segments", "--beta", "3", "--lowercase"), "1"),
        (("-H", str(SYS_B), "-r", str(REF_A), str(REF_B), "--metric", "bleu"), "1"),
        (("-H", str(SYS_B), "-r", str(REF_A), "--metric", "bleu", "--smooth-method", "floor"), "2"),
        (("-H", str(SYS_B), "-r", str(REF_A), "--metric", "bleu", "--segments"), "1"),
        (("-H", str(SYS_B), "-r", str(REF_A), "--rules", "contract", "-m", "chrf++"), "2"),
        (("-H", str(SYS_B), "-r", str(REF_A), str(REF_B), "--metric", "ter"), "2"),
        (("-H", str(SYS_B), "-r", str(REF_A), "-m", "ter", "--segments", "--normalized"), "1"),
    ],
    ids=[
        "chrf",
        "chrf-2-threads",
        "chrf-segments",
        "bleu-2-refs",
        "bleu-floor",
        "bleu-segments",
        "contract-chrf++",
        "ter-2-refs-2-threads",
        "ter-segments",
    ],
)
def test_score_scores_in_a_fresh_process(
    args: tuple[str, ...], threads: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Text output, on one thread or two: the command scores (exit 0, a score line). Two
    threads need over 256 segments a thread: shorter files (the in-repo sample's) are repeated
    to 512 lines first."""
    monkeypatch.setenv("MTCOMPUTE_THREADS", threads)
    if threads == "2":
        args = tuple(_repeated(arg, 512, tmp_path) for arg in args)
    proc = run_cli("score", *args)
    assert (0, True) == (proc.returncode, proc.stdout.startswith((b"chrF", b"BLEU|", b"TER|")))


def _repeated(arg: str, lines: int, folder: Path) -> str:
    """``arg``, or for a data file shorter than ``lines`` a copy in ``folder`` repeated to at
    least that many lines."""
    path = Path(arg)
    if not path.is_file():
        return arg
    segments = path.read_bytes().splitlines(keepends=True)
    if len(segments) >= lines:
        return arg
    copy = folder / path.name
    copy.write_bytes(b"".join(at_least(segments, lines)))
    return str(copy)


# -- -l and compressed files ---------------------------------------------------------------


def test_language_pair_chooses_bleus_tokenizer_as_sacrebleu() -> None:
    """-l en-zh scores BLEU with the zh tokenizer (sacreBLEU's -l en-zh), exactly as
    --tokenize zh; a pair without a '-' is a usage error naming -l."""
    folder = WMT / "generaltest2022" / "en-zh"
    hyp, ref = folder / "sys.Online-B.txt", folder / "ref.A.txt"
    args = ["score", "-H", str(hyp), "-r", str(ref), "-m", "bleu"]
    by_pair, named = run_cli(*args, "-l", "en-zh"), run_cli(*args, "--tokenize", "zh")
    expected = BLEU(trg_lang="zh").corpus_score(lines(hyp), [lines(ref)])
    assert (0, named.stdout) == (by_pair.returncode, by_pair.stdout)
    assert by_pair.stdout.decode().startswith("BLEU|nrefs:1|case:mixed|eff:no|tok:zh|")
    assert f"= {expected.score:.2f} " in by_pair.stdout.decode()
    wrong = run_cli(*args, "-l", "enzh")
    assert (2, True) == (wrong.returncode, b"-l/--language-pair: expected a pair" in wrong.stderr)


def test_gzipped_files_score_as_the_plain_ones(tmp_path: Path) -> None:
    """*.gz files are decompressed (sacreBLEU's smart_open); a corrupt one is a usage error
    naming the file."""
    hyp = write(tmp_path, "hyp.txt.gz", gzip.compress(SYS.read_bytes()))
    ref = write(tmp_path, "ref.txt.gz", gzip.compress(REF_A.read_bytes()))
    args = ["-m", "bleu", "chrf", "ter", "--format", "json"]
    plain = run_cli("score", "-H", str(SYS), "-r", str(REF_A), *args)
    packed = run_cli("score", "-H", hyp, "-r", ref, *args)
    strip = [
        {k: v for k, v in system.items() if k != "hypotheses"}
        for system in json.loads(plain.stdout)["systems"]
    ]
    assert (0, strip) == (
        packed.returncode,
        [
            {k: v for k, v in system.items() if k != "hypotheses"}
            for system in json.loads(packed.stdout)["systems"]
        ],
    )
    packed_ref = Path(ref).read_bytes()
    bad = write(tmp_path, "bad.gz", packed_ref[: len(packed_ref) // 2])  # cut short
    failed = run_cli("score", "-H", bad, "-r", ref)
    assert (2, b"") == (failed.returncode, failed.stdout)
    assert failed.stderr.decode().startswith(f"mtcompute score: error: cannot read {bad}: ")


def test_a_device_that_never_ends_is_refused_at_its_first_fault() -> None:
    """/dev/urandom as a system: its first line that is not UTF-8 is the error (exit 1), at
    once (it was read on forever, looking for its end)."""
    proc = subprocess.run(
        [*conftest.cli_command(), "score", "-H", "/dev/urandom", "-r", str(REF_A)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert (1, b"") == (proc.returncode, proc.stdout)
    assert proc.stderr.startswith(b"mtcompute score: error: /dev/urandom: line ")
    assert b"is not valid UTF-8" in proc.stderr


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_a_line_longer_than_the_limit_is_a_data_error(tmp_path: Path, where: str) -> None:
    """A line over MAX_LINE_BYTES (no newline for 64 MiB) is a data error naming the file
    and the line, read from a file or from standard input; memory stays bounded."""
    from mtcompute.cli._files import MAX_LINE_BYTES

    long = tmp_path / "long.txt"
    with long.open("wb") as handle:
        handle.write(b"first line\nsecond\n")
        handle.write(b"x" * (MAX_LINE_BYTES + 10))
    ref = write(tmp_path, "ref.txt", b"a\nb\nc\n")
    name = "-" if where == "stdin" else str(long)
    with long.open("rb") as stdin:
        proc = subprocess.run(
            [*conftest.cli_command(), "score", "-H", name, "-r", ref],
            stdin=stdin,
            capture_output=True,
            timeout=120,
            check=False,
        )
    shown = "<stdin>" if where == "stdin" else str(long)
    assert (1, b"") == (proc.returncode, proc.stdout)
    assert proc.stderr.decode().startswith(
        f"mtcompute score: error: {shown} line 3 is longer than {MAX_LINE_BYTES} bytes"
    ), proc.stderr[:300]
