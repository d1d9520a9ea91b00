"""spBLEU (spm, flores101, flores200): sacreBLEU 2.6.0's numbers, signatures and command-line
bytes with the same SentencePiece model, a tiny one trained here on the in-repo WMT sample; the
model sacreBLEU caches (downloaded there when missing, from a loopback server here), or one
named; a model that cannot be downloaded, unloadable or (where pinned) wrong."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sacrebleu
import sentencepiece
from sacrebleu.tokenizers import tokenizer_spm as their_spm

import mtcompute
from mtcompute import sacrebleu as facade
from mtcompute import spm
from mtcompute.errors import InvalidInput, UnsupportedInput
from mtcompute.sacrebleu._errors import TokenizerError
from mtcompute.sacrebleu.metrics.bleu import bleu_with_spm_model
from mtcompute.sacrebleu.tokenizers import tokenizer_spm as our_spm
from mtcompute.tokenizers import get_tokenizer
from tests.conftest import SAMPLE_WMT, WMT, cli_command, run_python
from tests.testsets import world as w

# sacreBLEU's TokenizerSPM("spm") calls the deprecated Logger.warn (its code, not ours)
pytestmark = pytest.mark.filterwarnings("ignore:The 'warn' method is deprecated:DeprecationWarning")

NAMES = ("spm", "flores101", "flores200", "spBLEU-1K")
FILE_NAMES = {"spm": "sacrebleu_tokenizer_spm.model", "flores101": "sacrebleu_tokenizer_spm.model"}
FILE_NAMES["flores200"] = "flores200sacrebleuspm"
FILE_NAMES["spBLEU-1K"] = "spbleu-1k_tokenizer_spm.model"
# a pair per script: Latin, Chinese, Japanese (each with a system and two references where the
# data has them)
PAIRS = ("generaltest2022/en-de", "generaltest2022/en-zh", "generaltest2022/en-ja")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def model_bytes() -> bytes:
    """A 1000-piece unigram model trained on 5000 lines of the in-repo WMT sample (about a
    second; the same lines, whether or not the full data is there)."""
    lines: list[str] = []
    for file in sorted(SAMPLE_WMT.glob("generaltest2022/*/*.txt")):
        lines += _lines(file)
    out = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(lines[:5000]),
        model_writer=out,
        vocab_size=1000,
        character_coverage=0.98,
        num_threads=1,
        minloglevel=2,
    )
    return out.getvalue()


@pytest.fixture
def cache(tmp_path: Path, model_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A sacreBLEU cache holding the tiny model under each name's file, for both sides
    (sacreBLEU reads SACREBLEU when imported: its module's copy is set too)."""
    models = tmp_path / "cache" / "models"
    models.mkdir(parents=True)
    for name in set(FILE_NAMES.values()):
        (models / name).write_bytes(model_bytes)
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))
    monkeypatch.setattr(their_spm, "SACREBLEU_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def model_file(tmp_path: Path, model_bytes: bytes) -> Path:
    """The tiny model in a file of its own."""
    path = tmp_path / "tiny.model"
    path.write_bytes(model_bytes)
    return path


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A sacreBLEU cache without any model."""
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "empty"))
    return tmp_path / "empty"


def _pair(pair: str) -> tuple[list[str], list[list[str]]]:
    folder = WMT / pair
    system = sorted(folder.glob("sys.*.txt"))[0]
    references = [_lines(ref) for ref in sorted(folder.glob("ref.*.txt"))]
    return _lines(system), references


@pytest.mark.parametrize(
    ("name", "pair"),
    [("flores200", pair) for pair in PAIRS]
    + [(name, PAIRS[0]) for name in NAMES if name != "flores200"],
)
def test_corpus_and_sentence_bleu_are_sacrebleus(name: str, pair: str, cache: Path) -> None:
    """Corpus BLEU (every reference), its signature and the first 100 sentence scores equal
    sacreBLEU's with the same model, as floats, on WMT data (the full data when present)."""
    hypotheses, references = _pair(pair)
    theirs, ours = sacrebleu.BLEU(tokenize=name), facade.BLEU(tokenize=name)
    expected = theirs.corpus_score(hypotheses, references)
    actual = ours.corpus_score(hypotheses, references)
    assert (expected.score, str(expected), str(theirs.get_signature())) == (
        actual.score,
        str(actual),
        str(ours.get_signature()),
    )
    pairs = list(zip(hypotheses[:100], references[0], strict=False))
    assert [theirs.sentence_score(h, [r]).score for h, r in pairs] == [
        ours.sentence_score(h, [r]).score for h, r in pairs
    ]


def test_lowercased_flores200_and_the_library_api_are_sacrebleus(
    cache: Path, model_file: Path, empty_cache: Path
) -> None:
    """mtcompute.corpus_bleu with spm_model (and the facade's bleu_with_spm_model), the cache
    empty, gives sacreBLEU's lowercased flores200 BLEU and signature over the cached copy."""
    hypotheses, references = _pair(PAIRS[0])
    their_cache = Path(their_spm.SACREBLEU_DIR)
    assert (their_cache / "models" / FILE_NAMES["flores200"]).is_file()
    theirs = sacrebleu.BLEU(tokenize="flores200", lowercase=True)
    expected = theirs.corpus_score(hypotheses, references)
    found = mtcompute.corpus_bleu(
        hypotheses,
        list(zip(*references, strict=True)),
        tokenize="flores200",
        lowercase=True,
        spm_model=model_file,
    )
    ours = bleu_with_spm_model(model_file, tokenize="flores200", lowercase=True)
    assert (expected.score, str(theirs.get_signature())) == (
        found.score,
        found.signature.split("|mtcompute:")[0],
    )
    assert (expected.score, str(theirs.get_signature())) == (
        ours.corpus_score(hypotheses, references).score,
        str(ours.get_signature()),
    )


@pytest.mark.parametrize("name", NAMES)
def test_tokenizer_classes_are_sacrebleus(name: str, cache: Path) -> None:
    """The tokenizer classes under sacreBLEU's names tokenize as sacreBLEU's, one line at a
    time; the batched call gives the same lines."""
    classes = {"spm": "TokenizerSPM", "flores101": "Flores101Tokenizer"}
    classes |= {"flores200": "Flores200Tokenizer", "spBLEU-1K": "spBLEU1KTokenizer"}
    theirs = getattr(their_spm, classes[name])()
    ours = getattr(our_spm, classes[name])()
    hypotheses, references = _pair(PAIRS[1])
    lines = [*hypotheses[:200], *references[0][:200], "", " a . b ", "  \t x  ", "€1,000.50"]
    expected = (theirs.signature(), [theirs(line) for line in lines])
    assert expected == (ours.signature(), [ours(line) for line in lines])
    assert expected[1] == ours.tokenizer.many(lines)
    assert ours.name == theirs.name


def test_the_commands_print_sacrebleus_bytes(cache: Path, model_file: Path, tmp_path: Path) -> None:
    """mtcompute sacrebleu -tok spBLEU-1K and flores200 print sacreBLEU's bytes with the same
    cached model, and the same with --spm-model and no cache; mtcompute score gives its BLEU
    (the sample)."""
    folder = SAMPLE_WMT / PAIRS[0]
    ref, system = str(folder / "ref.A.txt"), str(sorted(folder.glob("sys.*.txt"))[0])
    env = {**os.environ, "SACREBLEU": str(cache)}
    bare = {**os.environ, "SACREBLEU": str(tmp_path / "none")}

    def run(command: list[str], environment: dict[str, str]) -> bytes:
        done = subprocess.run(
            command, capture_output=True, env=environment, timeout=60, check=False
        )
        assert (0, b"") == (done.returncode, done.stderr)
        return done.stdout

    args = [ref, "-i", system, "-m", "bleu", "chrf", "-tok", "spBLEU-1K"]
    expected = run([sys.executable, "-m", "sacrebleu", *args], env)
    assert expected == run([*cli_command(), "sacrebleu", *args], env)
    args[-1] = "flores200"
    expected = run([sys.executable, "-m", "sacrebleu", *args], env)
    assert expected == run([*cli_command(), "sacrebleu", *args], env)
    assert expected == run(
        [*cli_command(), "sacrebleu", *args, "--spm-model", str(model_file)], bare
    )
    score = run(
        [*cli_command(), "score", "-H", system, "-r", ref, "-m", "bleu", "--tokenize",
         "flores200", "--spm-model", str(model_file), "--format", "json"],
        bare,
    )  # fmt: skip
    theirs = sacrebleu.BLEU(tokenize="flores200").corpus_score(
        _lines(Path(system)), [_lines(Path(ref))]
    )
    assert f'"score":{theirs.score!r}'.encode() in score


@pytest.fixture
def mirror(model_bytes: bytes, monkeypatch: pytest.MonkeyPatch) -> Iterator[w.Server]:
    """A loopback server holding the tiny model at each of sacreBLEU's model URLs' paths,
    and this process's :data:`mtcompute.spm.MODELS` pointing there (the file names stay
    sacreBLEU's: a URL's last part names the cached file)."""
    world = w.World(
        files={w.World().served_path(m.url): model_bytes for m in spm.MODELS.values()},
        md5s={m.url: "" for m in spm.MODELS.values()},
    )
    with w.serving(world) as server:
        for name, model in spm.MODELS.items():
            loopback = spm.SpmModel(world.urls[model.url], model.signature)
            monkeypatch.setitem(spm.MODELS, name, loopback)
        yield server


def test_a_missing_cached_model_is_downloaded_once(
    empty_cache: Path, mirror: w.Server, model_file: Path
) -> None:
    """No model in sacreBLEU's cache: it is downloaded there (as sacreBLEU does) once, and
    scores as the same model named."""
    hypotheses, references = _pair(PAIRS[0])
    segments = list(zip(*references, strict=True))
    ours = mtcompute.corpus_bleu(hypotheses, segments, tokenize="flores200")
    target = empty_cache / "models" / "flores200sacrebleuspm"
    assert target.read_bytes() == model_file.read_bytes()
    assert [path for path, _ in mirror.requests] == ["/tinyurl.com/flores200sacrebleuspm"]
    assert sorted(os.listdir(target.parent)) == [
        "flores200sacrebleuspm",
        "flores200sacrebleuspm.lock",
    ]
    facade.BLEU(tokenize="flores200")  # cached now: no second request
    assert 1 == len(mirror.requests)
    named = mtcompute.corpus_bleu(hypotheses, segments, tokenize="flores200", spm_model=model_file)
    assert (ours.score, ours.signature) == (named.score, named.signature)


def test_a_model_that_cannot_be_downloaded_is_a_clear_error(
    empty_cache: Path, mirror: w.Server
) -> None:
    """A failed download: where the model goes, why it failed, where to get it, how to name
    one; nothing is left where the tokenizer would look."""
    url = spm.MODELS["flores200"].url
    mirror.world.files.clear()  # every model URL is 404 now
    target = empty_cache / "models" / "flores200sacrebleuspm"
    expected = (
        f"The flores200 tokenizer at /tokenize needs the SentencePiece model sacreBLEU caches "
        f"at {target}, which is not there, and it could not be downloaded (cannot download "
        f"{url}: HTTP 404 Not Found): download {url} to that file, or name a model file "
        "(--spm-model PATH; spm_model= in Python).",
        "/tokenize",
    )
    with pytest.raises(UnsupportedInput) as caught:
        get_tokenizer("flores200")
    assert expected == (caught.value.message, caught.value.path)
    assert not target.exists()
    with pytest.raises(TokenizerError) as raised:
        facade.BLEU(tokenize="flores200")
    assert f"Flores200Tokenizer: {expected[0].replace(' at /tokenize', '')}" == str(raised.value)


def test_a_download_that_is_no_model_is_not_kept(
    empty_cache: Path, mirror: w.Server, model_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 200 answer that is no model (a proxy's page, a body cut short with no length): not
    renamed into the cache, a clear error; once the server sends the model, it is taken."""
    served = w.World().served_path("https://tinyurl.com/flores200sacrebleuspm")
    mirror.world.files[served] = b"<html>captive portal</html>"
    target = empty_cache / "models" / "flores200sacrebleuspm"
    with pytest.raises(UnsupportedInput) as caught:
        get_tokenizer("flores200")
    assert (
        f"it could not be downloaded ({spm.MODELS['flores200'].url}: the downloaded file is "
        "not a SentencePiece model (" in caught.value.message
    )
    assert sorted(os.listdir(target.parent)) == ["flores200sacrebleuspm.lock"]
    monkeypatch.setattr(spm, "_FAILED", {})  # no wait before trying again
    mirror.world.files[served] = model_bytes
    assert "flores200" == get_tokenizer("flores200").signature
    assert target.read_bytes() == model_bytes


def test_a_cached_model_that_does_not_load_says_to_delete_it(cache: Path) -> None:
    """A file in the cache that is no model (put there by hand, or by an older version):
    the error names it and says to delete it, so that it is downloaded again."""
    file = cache / "models" / "flores200sacrebleuspm"
    file.write_bytes(b"<html>captive portal</html>")
    with pytest.raises(UnsupportedInput) as caught:
        get_tokenizer("flores200")
    message = caught.value.message
    assert message.startswith(
        f"The flores200 tokenizer at /tokenize could not load the SentencePiece model {file}: "
    )
    assert message.endswith(f"; delete {file} to download it again.")


# The command (ARGS) in a child process whose model URLs point at the loopback server (BASE).
_PATCHED_MAIN = """
from mtcompute import spm
from mtcompute.cli import main
for name, model in list(spm.MODELS.items()):
    served = BASE + "/" + model.url.split("://", 1)[1]
    spm.MODELS[name] = spm.SpmModel(served, model.signature)
sys.exit(main(ARGS))
"""


@pytest.mark.parametrize("command", ["sacrebleu", "score"])
def test_the_commands_download_a_missing_model(
    command: str, tmp_path: Path, mirror: w.Server, cache: Path
) -> None:
    """The commands with no model cached: downloaded (mtcompute sacrebleu says so on stderr
    as sacreBLEU does) and scored as with the model cached; a model that cannot be downloaded
    is one error line naming the cached file, no traceback."""
    folder = SAMPLE_WMT / PAIRS[0]
    ref, system = str(folder / "ref.A.txt"), str(sorted(folder.glob("sys.*.txt"))[0])
    args = {
        "sacrebleu": ["sacrebleu", ref, "-i", system, "-m", "bleu", "-tok", "flores101"],
        "score": ["score", "-H", system, "-r", ref, "-m", "bleu", "--tokenize", "flores101"],
    }[command]
    base = mirror.world.base

    def run(folder: Path) -> subprocess.CompletedProcess[str]:
        code = f"BASE, ARGS = {base!r}, {args!r}\n{_PATCHED_MAIN}"
        return run_python(code, env={"SACREBLEU": str(folder)})

    expected = run(cache)
    assert (0, "") == (expected.returncode, expected.stderr)
    done = run(tmp_path / "fresh")
    target = tmp_path / "fresh" / "models" / "sacrebleu_tokenizer_spm.model"
    url = f"{base}/dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model"
    said = f"sacreBLEU: Downloading {url} to {target}\n" if command == "sacrebleu" else ""
    assert (0, expected.stdout, said) == (done.returncode, done.stdout, done.stderr)
    assert target.is_file()
    mirror.world.files.clear()
    failed = run(tmp_path / "offline")
    *said_lines, error = failed.stderr.splitlines()
    offline = tmp_path / "offline" / "models" / "sacrebleu_tokenizer_spm.model"
    said = [f"sacreBLEU: Downloading {url} to {offline}"] if command == "sacrebleu" else []
    assert (1, "", said) == (failed.returncode, failed.stdout, said_lines)
    assert error.startswith(f"mtcompute {command}: error: ")
    assert "which is not there, and it could not be downloaded (cannot download " in error


def test_a_wrong_md5_under_a_fixed_name_is_refused(
    cache: Path, model_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model whose md5 is not the one pinned for its name is refused, cached or named (spm
    from the cache is flores101's file); the pinned one is taken; spm with a named model is
    any model."""
    right = hashlib.md5(model_bytes, usedforsecurity=False).hexdigest()
    monkeypatch.setitem(spm.PINNED_MD5, "flores200", "0" * 32)
    monkeypatch.setitem(spm.PINNED_MD5, "flores101", "0" * 32)
    file = cache / "models" / "flores200sacrebleuspm"
    expected = (
        f"The flores200 tokenizer at /tokenize needs sacreBLEU's flores200 model (md5 "
        f"{'0' * 32}); {file} has md5 {right}: download "
        "https://tinyurl.com/flores200sacrebleuspm again.",
        "/tokenize",
    )
    with pytest.raises(UnsupportedInput) as caught:
        get_tokenizer("flores200")
    assert expected == (caught.value.message, caught.value.path)
    with pytest.raises(UnsupportedInput):
        get_tokenizer("flores200", spm_model=file)
    with pytest.raises(UnsupportedInput, match="needs sacreBLEU's flores101 model"):
        get_tokenizer("spm")
    assert "flores101" == get_tokenizer("spm", spm_model=file).signature
    monkeypatch.setitem(spm.PINNED_MD5, "flores200", right)
    assert "flores200" == get_tokenizer("flores200").signature


def test_a_named_model_must_be_a_loadable_file(tmp_path: Path) -> None:
    """A named path that is no file, or no SentencePiece model, or not a path: each its error."""
    missing, text = tmp_path / "none.model", tmp_path / "text.model"
    text.write_text("not a model\n", encoding="utf-8")
    found = []
    for model in (missing, text, 5):
        with pytest.raises((UnsupportedInput, InvalidInput)) as caught:
            get_tokenizer("flores101", spm_model=model)  # type: ignore[arg-type]
        found.append((type(caught.value).__name__, caught.value.message.split(":")[0]))
    assert [
        ("UnsupportedInput", "The flores101 tokenizer at /tokenize needs a SentencePiece model "
         f"file; {missing} is not one (no such file)."),
        ("UnsupportedInput", "The flores101 tokenizer at /tokenize could not load the "
         f"SentencePiece model {text}"),
        ("InvalidInput", "Expected the SentencePiece model as a file path at /spm_model, got int."),
    ] == found  # fmt: skip


def test_a_lone_surrogate_is_invalid_input(model_file: Path) -> None:
    """sentencepiece reads UTF-8: a lone surrogate is named, not a UnicodeEncodeError."""
    tokenizer = get_tokenizer("flores200", spm_model=model_file)
    with pytest.raises(InvalidInput) as caught:
        tokenizer.many(["fine", "bad \ud800 here"])
    assert (
        "Expected text without lone surrogates for the flores200 tokenizer (SentencePiece "
        "reads UTF-8), got U+D800 at character 4."
    ) == caught.value.message


def test_the_tools_still_refuse_spbleu(cache: Path) -> None:
    """The tools' contracts refuse spBLEU's tokenizers even with the model cached."""
    for name in NAMES:
        envelope = mtcompute.execute(
            "bleu-tokenize", "1.0.0", {"segments": ["a"], "tokenizer": name}
        )
        error = envelope.error
        assert ("unsupported_input", "/tokenizer") == (
            error and error.code,
            error and error.path,
        )


def test_without_sentencepiece_the_extra_is_named(model_file: Path) -> None:
    """sentencepiece not installed: the error names the extra to install."""
    done = run_python(
        "from mtcompute.errors import UnsupportedInput\n"
        "from mtcompute.tokenizers import get_tokenizer\n"
        "try:\n"
        f"    get_tokenizer('flores200', spm_model={str(model_file)!r})\n"
        "except UnsupportedInput as error:\n"
        "    print(error.message)\n",
        missing=("sentencepiece",),
    )
    assert (
        "The flores200 tokenizer at /tokenize needs sentencepiece, which is not installed: "
        "install it with pip install 'mtcompute[spm]'.\n",
        "",
    ) == (done.stdout, done.stderr)
