"""Shared fixtures and helpers: the CLI command, a live server, the WMT data folder, programs
the machine may lack, and ``MTCOMPUTE_REQUIRE_ALL``.

The WMT data (one source of truth, :data:`WMT`): ``MTCOMPUTE_WMT_DIR`` when set (a folder
that must exist: no fallback), else the full data in ``../shared/data/wmt`` when it is there,
else the 200-line sample shipped in ``tests/data/wmt`` (made by ``scripts/make_wmt_sample.py``),
so that a fresh clone's tests run with nothing beside it. The pytest header says which.

``MTCOMPUTE_REQUIRE_ALL=1`` (set by ``.ci/run``) turns every skip into a failure, whether it
is raised in a test, a fixture, a marker or at collection: CI runs everything or fails.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from mtcompute import native

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

# Issue 12's example (the ter-compute contract's): two segments, two references each.
ISSUE_HYPOTHESES = ["The cat sat on mat.", "A quick brown fox jumps over the dog."]
ISSUE_REFERENCES = [
    ["The cat sat on the mat.", "There is a cat on the mat."],
    ["A fast brown fox jumped over the lazy dog.", "The quick brown fox jumps over the lazy dog."],
]

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_WMT = SHARED / "data" / "wmt"
SAMPLE_WMT = REPO / "tests" / "data" / "wmt"
REQUIRE_ALL = os.environ.get("MTCOMPUTE_REQUIRE_ALL") == "1"
T = TypeVar("T")

# Where each program is looked for beyond PATH, and the Debian package that provides it.
PROGRAMS = {
    "chromium": (Path("/usr/bin/chromium"), "chromium"),
    "node": (None, "nodejs"),
    "cc": (None, "gcc"),
    "nm": (None, "binutils"),
}


def _wmt_folder() -> Path:
    """MTCOMPUTE_WMT_DIR (which must be a folder), else ../shared/data/wmt, else the sample."""
    configured = os.environ.get("MTCOMPUTE_WMT_DIR")
    if configured is not None:
        if not configured or not Path(configured).is_dir():
            raise pytest.UsageError(
                f"MTCOMPUTE_WMT_DIR={configured!r} is not a folder: point it at the WMT data "
                f"(the full data is {SHARED_WMT}), or unset it to use the full data there when "
                f"it exists and the in-repo sample {SAMPLE_WMT} otherwise"
            )
        return Path(configured).resolve()
    if SHARED_WMT.is_dir():
        return SHARED_WMT
    return SAMPLE_WMT


def _is_sample(folder: Path) -> bool:
    """Whether the folder says it is a sample: its MANIFEST.tsv has the sample_* columns that
    scripts/make_wmt_sample.py adds (the full data's has none)."""
    manifest = folder / "MANIFEST.tsv"
    if not manifest.is_file():
        return False
    with manifest.open(encoding="utf-8") as fh:
        return "sample_lines" in fh.readline().rstrip("\n").split("\t")


WMT: Path = _wmt_folder()
WMT_IS_SAMPLE: bool = _is_sample(WMT)


def pytest_report_header(config: pytest.Config) -> str:
    """Which WMT data this run reads (and the skip policy)."""
    source = ", from MTCOMPUTE_WMT_DIR" if "MTCOMPUTE_WMT_DIR" in os.environ else ""
    if not WMT_IS_SAMPLE:
        kind = f"full data{source}"
    elif source:
        kind = f"the 200-line sample{source}"
    else:
        kind = (
            "the 200-line in-repo sample; set MTCOMPUTE_WMT_DIR or put the full data in "
            f"{SHARED_WMT} to run on all of it"
        )
    policy = "; MTCOMPUTE_REQUIRE_ALL=1: a skip is a failure" if REQUIRE_ALL else ""
    return f"WMT data: {WMT} ({kind}){policy}"


# The test files that take longest on the full data, longest first (a CI run's durations).
# The suite runs with pytest-xdist's --dist loadfile, which hands files to workers in
# collection order: starting these first keeps one long file from running alone at the end.
LONGEST_FILES = (
    "tests/sacrebleu/test_sacrebleu_facade.py",
    "tests/metrics/test_differential_sacrebleu.py",
    "tests/tools/test_fuzz.py",
    "tests/cli/test_cli_sacrebleu.py",
    "tests/server/test_surface_http.py",
    "tests/kernel/test_kernel.py",
    "tests/metrics/test_properties.py",
    "tests/kernel/test_kernel_text13a.py",
    "tests/metrics/test_tokenizers.py",
    "tests/cli/test_score_cli.py",
    "tests/tools/test_tool_bleu_corpus_compute.py",
    "tests/metrics/test_ter_core.py",
    "tests/server/test_clients.py",
    "tests/metrics/test_batch_ter.py",
    "tests/metrics/test_batch.py",
    "tests/server/test_surface_pages.py",
    "tests/benchmarks/test_benchmarks_quick.py",
    "tests/tools/test_reference_agreement_bleu_tools.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run :data:`LONGEST_FILES` first, in that order; the rest keep their order."""
    rank = {name: index for index, name in enumerate(LONGEST_FILES)}
    root = Path(__file__).resolve().parent.parent

    def key(item: pytest.Item) -> int:
        try:
            name = item.path.resolve().relative_to(root).as_posix()
        except ValueError:
            return len(rank)
        return rank.get(name, len(rank))

    items.sort(key=key)


@pytest.fixture(autouse=True, scope="session")
def no_download_from_the_internet() -> Iterator[None]:
    """No test downloads from the internet: in this process :mod:`mtcompute.downloads` fetches
    the tests' own loopback servers only, and another URL fails the test that reached it (a
    test set or spBLEU model it did not serve)."""
    from urllib.parse import urlsplit

    from mtcompute import downloads

    attempt = downloads._attempt

    def loopback_only(url: str, part: Path, progress: downloads.Progress | None) -> None:
        if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            raise AssertionError(f"a test tried to download {url} from the internet")
        attempt(url, part, progress)

    downloads._attempt = loopback_only
    yield
    downloads._attempt = attempt


@pytest.fixture(scope="session")
def wmt_dir() -> Path:
    """The WMT data folder in use (:data:`WMT`: the full data or the in-repo sample)."""
    return WMT


def wmt_window(lines: Sequence[str], start: int, stop: int) -> list[str]:
    """``lines[start:stop]`` when the file reaches ``stop`` (every full WMT file does for the
    windows the tests take); on a shorter file (the sample) the last ``stop - start`` lines, or
    all of them, so that a window past the sample's end still holds real segments."""
    if len(lines) >= stop:
        return list(lines[start:stop])
    return list(lines[max(0, len(lines) - (stop - start)) :])


def at_least(lines: Sequence[T], count: int) -> list[T]:
    """``lines`` repeated whole until there are at least ``count`` (unchanged when there
    are): the sample's 200 lines are too few for work split over threads (256 segments a
    thread) or for the score command's progress bar (over 10,000 segments)."""
    if not lines:
        raise ValueError("no lines to repeat")
    return list(lines) * -(-count // len(lines))


def require_program(name: str) -> str:
    """The path of the program ``name`` (on PATH, or where Debian installs it); skips the
    test, with the reason, when the machine lacks it (a failure under
    MTCOMPUTE_REQUIRE_ALL=1)."""
    place, package = PROGRAMS.get(name, (None, name))
    found = shutil.which(name)
    if found is None and place is not None and os.access(place, os.X_OK):
        found = str(place)
    if found is None:
        where = "on PATH" + (f" nor at {place}" if place is not None else "")
        pytest.skip(
            f"{name} not installed: not found {where}; install it with "
            f"`apt-get install -y {package}` (.ci/run does)"
        )
    return found


# The flags Chromium runs with in the page tests: headless, no sandbox (root), no network of
# its own beyond the pages under test.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium(driver: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless with :data:`CHROMIUM_ARGS`, launched through Playwright's
    ``driver`` and closed after the block (skips without it, see :func:`require_program`)."""
    launched = driver.chromium.launch(
        executable_path=require_program("chromium"), headless=True, args=CHROMIUM_ARGS
    )
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, through Playwright (skipped without it): one for each
    module's page tests (see :func:`chromium`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver, chromium(driver) as launched:
        yield launched


@contextmanager
def fresh_page(browser: Browser, timeout: float, **context: Any) -> Iterator[Page]:
    """A page of ``browser`` in a browser context of its own (made with the ``context``
    options: viewport, JavaScript, permissions, ...), waiting at most ``timeout`` ms by
    default; the context is closed after the block."""
    opened_context = browser.new_context(**context)
    try:
        opened = opened_context.new_page()
        opened.set_default_timeout(timeout)
        yield opened
    finally:
        opened_context.close()


def runnable_tokenizers() -> list[str]:
    """The names of mtcompute.tokenizers.NAMES that get_tokenizer does not refuse as
    unsupported here (MeCab's dictionaries missing), spBLEU's left out (tried, they would
    download their model: tests/sacrebleu/test_spbleu.py serves it)."""
    from mtcompute.errors import UnsupportedInput
    from mtcompute.tokenizer_names import SPM
    from mtcompute.tokenizers import NAMES, get_tokenizer

    runnable = []
    for name in NAMES:
        if name in SPM:
            continue
        try:
            get_tokenizer(name)
        except UnsupportedInput:
            continue
        runnable.append(name)
    return runnable


def shared_file(relative: str) -> Path:
    """A file of the specification in ../shared (beside the repository, not part of it);
    skips the test, with the reason, when it is absent (a failure under
    MTCOMPUTE_REQUIRE_ALL=1)."""
    path = SHARED / relative
    if not path.is_file():
        pytest.skip(f"{relative} not found in {SHARED}: the specification is not beside the repo")
    return path


# --- MTCOMPUTE_REQUIRE_ALL=1: every skip is a failure -----------------------------------------


def _skip_reason(longrepr: object) -> str:
    """The reason of a skipped report (its longrepr is (path, line, "Skipped: reason"))."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _require_all_message(longrepr: object) -> str:
    return f"MTCOMPUTE_REQUIRE_ALL=1 makes this skip a failure: {_skip_reason(longrepr)}"


class RequireAll:
    """A plugin (registered for the whole session, src/ doctests included) that reports every
    skipped test phase and every skipped collector as failed, with the skip's reason. An
    expected failure (xfail) is not a skip and is left alone. (The hooks take none of the
    hook's arguments: pluggy passes only those an implementation names.)"""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if report.skipped and not hasattr(report, "wasxfail"):
            report.outcome = "failed"
            report.longrepr = _require_all_message(report.longrepr)
        return report

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(
        self,
    ) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
        report = yield
        if report.skipped:
            report.outcome = "failed"
            report.longrepr = _require_all_message(report.longrepr)
        return report


def pytest_configure(config: pytest.Config) -> None:
    """Register :class:`RequireAll` when MTCOMPUTE_REQUIRE_ALL=1 (a plugin, not conftest
    hooks, so that it sees every node, not only those under tests/)."""
    if REQUIRE_ALL and not config.pluginmanager.has_plugin("mtcompute-require-all"):
        config.pluginmanager.register(RequireAll(), "mtcompute-require-all")


# --- the CLI and a live server ------------------------------------------------------------------


def cli_command() -> list[str]:
    """The installed ``mtcompute`` console script (next to this interpreter)."""
    script = Path(sys.executable).with_name("mtcompute")
    if script.exists():
        return [str(script)]
    found = shutil.which("mtcompute")
    if found:
        return [found]
    return [sys.executable, "-m", "mtcompute.cli"]


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI as a subprocess, capturing bytes."""
    return subprocess.run(
        [*cli_command(), *args], input=stdin, capture_output=True, timeout=60, check=False
    )


def run_python(
    code: str,
    *,
    missing: Sequence[str] = (),
    env: dict[str, str] | None = None,
    cwd: Path = REPO,
    path: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python, as text: the modules ``missing`` made absent (set to
    None in ``sys.modules``, so that import and ``find_spec`` see them missing), without
    the caller's ``MTCOMPUTE_*`` variables, with ``env`` added and ``path`` (if any) first
    on ``PYTHONPATH``."""
    blocked = "".join(f"sys.modules[{name!r}] = None\n" for name in missing)
    variables = {k: v for k, v in os.environ.items() if not k.startswith("MTCOMPUTE_")}
    if path is not None:
        variables["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-c", f"import sys\n{blocked}{code}", str(cwd)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env={**variables, **(env or {})},
    )


def count_zh(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines the zh tokenizer is called with from now on, in order (it still tokenizes
    them): for tests that count how often a line is tokenized."""
    from mtcompute.core.tokenizers import TOKENIZERS

    seen: list[str] = []
    zh = TOKENIZERS["zh"]

    def counted(line: str) -> str:
        seen.append(line)
        return zh(line)

    monkeypatch.setitem(TOKENIZERS, "zh", counted)
    return seen


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(
    *extra: str, env: dict[str, str] | None = None, stderr_path: Path | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start `mtcompute serve` on a free port, its stderr going to ``stderr_path`` (a
    temporary file when None); return the process and its base URL once it answers
    /healthz."""
    port = free_port()
    if stderr_path is None:
        fd, log_path = tempfile.mkstemp(prefix="mtcompute-serve-", suffix=".log")
        os.close(fd)
        stderr_path = Path(log_path)
    with stderr_path.open("wb") as log:  # a file, not a pipe: a full pipe would block the server
        proc = subprocess.Popen(
            [*cli_command(), "serve", "--port", str(port), "--log-level", "warning", *extra],
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, **(env or {})},
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = stderr_path.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"server exited {proc.returncode}: {tail}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
                if response.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    proc.wait()
    raise RuntimeError("server did not answer /healthz within 30 s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then wait (kill after 15 s)."""
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """A real `mtcompute serve` in a subprocess on a free port, for the whole session."""
    proc, url = start_server()
    try:
        yield url
    finally:
        stop_server(proc)


class RawResponses:
    """HTTP/1.1 responses with a Content-Length read one after another from a raw socket,
    keeping the bytes of later responses that arrive with earlier ones (pipelining)."""

    def __init__(self, sock: socket.socket, timeout: float = 10) -> None:
        sock.settimeout(timeout)
        self.sock = sock
        self.buffer = b""

    def _fill(self, what: str) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before {what}: {self.buffer[:200]!r}")
        self.buffer += chunk

    def next(self) -> tuple[int, dict[str, str], bytes]:
        """(status, headers with lower-cased names, body) of the next response."""
        while b"\r\n\r\n" not in self.buffer:
            self._fill("a full response head")
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers["content-length"])
        while len(self.buffer) < length:
            self._fill("the whole response body")
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(lines[0].split()[1]), headers, body


def send_unsent_body(server_url: str, head: bytes, end: bytes) -> bytes:
    """Send a request ``head`` whose body never follows on a raw socket to the server at
    ``server_url``; the reply read until it holds ``end`` or the server closes."""
    host, port = server_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head)
        reply = b""
        while end not in reply:
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    return reply


def read_raw_response(
    sock: socket.socket, timeout: float = 10
) -> tuple[int, dict[str, str], bytes]:
    """(status, headers with lower-cased names, body) of the one response expected on a raw
    socket (for several in a row, use one :class:`RawResponses`)."""
    return RawResponses(sock, timeout).next()


@contextmanager
def kernel_switch(on: bool) -> Iterator[None]:
    """Run the block with every twin on the C kernel's path or on the pure path
    (:func:`mtcompute.native.switch`; the kernel's only where it is built), restored after."""
    previous = native.switch(on)
    try:
        yield
    finally:
        native.switch(previous)


def assert_one_error(
    message: str,
    error: type[Exception],
    kernel: Callable[..., object],
    python: Callable[..., object],
    *args: object,
) -> None:
    """``kernel(*args)``, and ``python(*args)`` with the kernel on and with it off, all raise
    ``error`` with the whole ``message``."""
    messages = []
    with pytest.raises(error, match=re.escape(message)) as caught:
        kernel(*args)
    messages.append(str(caught.value))
    for on in (True, False):
        with kernel_switch(on), pytest.raises(error, match=re.escape(message)) as caught:
            python(*args)
        messages.append(str(caught.value))
    assert [message] * 3 == messages


@pytest.fixture(params=["kernel", "pure"])
def kernel_and_pure(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test on the C kernel's path and on the pure path (``"kernel"`` or
    ``"pure"``); the kernel's case is skipped where it is not built."""
    if request.param == "kernel" and not native.AVAILABLE:
        pytest.skip("built without the C kernel")
    with kernel_switch(request.param == "kernel"):
        yield request.param


def wmt_lines(relative: str) -> list[str]:
    """The segments of one file of the WMT data in use (the full data or the in-repo sample;
    fails, not skips, when the file is absent)."""
    path = WMT / relative
    if not path.is_file():
        pytest.fail(f"WMT file not found: {path}")
    return path.read_text(encoding="utf-8").splitlines()


def load_script(name: str) -> ModuleType:
    """The module ``scripts/NAME.py`` (the scripts are not a package), imported once."""
    spec = importlib.util.spec_from_file_location(
        f"mtcompute_scripts_{name}", REPO / "scripts" / f"{name}.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
