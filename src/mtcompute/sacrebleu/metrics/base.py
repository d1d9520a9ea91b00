"""sacreBLEU 2.6.0's ``metrics/base.py``: the ``Score``, ``Signature`` and ``Metric`` classes,
as a thin facade over :mod:`mtcompute.metrics`.

What sacreBLEU's ``Metric`` does, kept: the argument checks of ``corpus_score`` and
``sentence_score`` (``TypeError`` with its messages, naming the index at fault), the layout of
references (one sequence per reference set; ``None`` entries for segments with fewer
references, counted as ``nrefs:var`` in the signature), the ``references=`` cache of the
constructors (used when ``corpus_score`` gets ``None``), the tokenized-period warning (100 or
more hypotheses ending in ``" ."`` unless ``force``) on the ``sacrebleu`` logger,
``get_signature`` (an error before the number of references is known), and bootstrap
resampling: ``corpus_score(..., n_bootstrap=N)`` with ``N > 1`` gives the score with
sacreBLEU's mean and 95% half width of ``N`` resamples (``μ = ... ± ...``; ``bs:N`` and
``seed:...`` in the signature), drawn and scored by :mod:`mtcompute.significance` as
sacreBLEU does (``SACREBLEU_SEED`` read then, as in :mod:`mtcompute.sacrebleu.significance`,
whose docstring says where it differs: seed 0 is a seed).

What the facade adds: it refuses input sacreBLEU would score wrongly or crash on
(:mod:`mtcompute.sacrebleu._errors`): no hypotheses, no reference streams, a segment whose
references are all ``None``, and streams whose lengths differ from the hypotheses' (sacreBLEU's
``zip`` scores the common prefix), and an ``n_bootstrap`` that is not an int.

The statistics and the scores are computed by :mod:`mtcompute.metrics`, never here, except
on sacreBLEU's own path: a subclass (or an instance) that replaces one of sacreBLEU's hooks
(``_preprocess_segment``, ``_extract_reference_info``, ``_compute_segment_statistics``,
``_cache_references``, ``_extract_corpus_statistics``, ``_aggregate_and_compute``,
``_compute_score_from_stats`` and each metric's own, ``_HOOKS``), or settings the kernel
does not take (``max_ngram_order`` under 1, a negative chrF order, a replaced TER tokenizer,
...), is scored one segment at a time by sacreBLEU's algorithm, calling the hooks where
sacreBLEU calls them (bootstrap resampling too), so that it gets sacreBLEU's numbers and
errors.
"""

from __future__ import annotations

__all__ = ["CorpusInChunks", "Metric", "Score", "Signature", "sacrelogger"]

import logging
import numbers
from abc import ABCMeta, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from mtcompute.metrics import _base as score_line
from mtcompute.metrics._base import ABBREVIATIONS
from mtcompute.sacrebleu._errors import EmptyInput, LengthMismatch, MissingReference
from mtcompute.sacrebleu._seed import read_seed
from mtcompute.sacrebleu.utils import sum_of_lists
from mtcompute.sacrebleu.version import __version__

if TYPE_CHECKING:  # imported when resampling (numpy): see corpus_score
    from mtcompute import significance

sacrelogger = logging.getLogger("sacrebleu")
"""sacreBLEU's logger (the same name, so that code which quiets sacreBLEU quiets the facade)."""

TOKENIZED_PERIOD_LINES = 100
"""sacreBLEU warns when this many hypotheses end in a tokenized period (unless ``force``)."""


class Score:
    """A score: ``name`` (``BLEU``, ``chrF2``, ...), ``score`` (the float), and what
    :meth:`format` prints after it (``_verbose``; ``_mean`` and ``_ci`` from resampling)."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(
        self,
        width: int = 2,
        score_only: bool = False,
        signature: str = "",
        is_json: bool = False,
    ) -> str:
        """sacreBLEU's text (``BLEU|sig = 12.34 ...``), the score alone, or its JSON."""
        return score_line.format_score(
            self.name,
            self.score,
            width=width,
            score_only=score_only,
            signature=signature,
            is_json=is_json,
            verbose=self._verbose,
            mean=self._mean,
            ci=self._ci,
        )

    def estimate_ci(self, scores: Sequence[Score]) -> None:
        """Keep the mean and the 95% half width of ``scores`` (bootstrap resamples), as
        sacreBLEU's ``Score.estimate_ci``
        (:func:`mtcompute.significance.score_estimate_ci`)."""
        # Imported here, as sacreBLEU does: numpy only when resampling.
        import numpy as np  # noqa: PLC0415

        from mtcompute import significance  # noqa: PLC0415

        values = np.asarray([score.score for score in scores])
        self._mean, self._ci = significance.score_estimate_ci(values)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """A reproducibility signature: ``info`` holds sacreBLEU's fields in its order (``version``
    first, printed last); :meth:`format` writes ``nrefs:1|...|version:2.6.0``."""

    def __init__(self, args: Mapping[str, Any]) -> None:
        shared = ("version", "nrefs", "test", "lang", "subset", "origlang", "bs", "ar", "seed")
        self._abbr = {key: ABBREVIATIONS[key] for key in shared}
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        self.info: dict[str, Any] = {
            "version": __version__,
            "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap"),
            "ar": None,
            "seed": args.get("seed"),
            "test": args.get("test_set"),
            "lang": args.get("langpair"),
            "origlang": args.get("origlang"),
            "subset": args.get("subset"),
        }

    def _metric_fields(self, fields: Mapping[str, Any]) -> None:
        """Add the metric's own fields (those after the shared ones in ``fields``)."""
        for key, value in fields.items():
            if key not in self.info:
                self.info[key] = value

    def format(self, short: bool = False) -> str:
        """The signature string (the short field names when ``short``)."""
        return score_line.format_signature(self.info, short=short)

    def update(self, key: str, value: Any) -> None:
        """Add a field or change one (``test``, ``lang``, ... as sacreBLEU's command sets)."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


def _type_name(value: object) -> str:
    return "None" if value is None else type(value).__name__


def integral(value: object) -> bool:
    """Whether ``value`` is an integer sacreBLEU takes as one: an ``int`` or a numpy integer
    (any ``numbers.Integral``), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


_FACADE = "mtcompute.sacrebleu."
"""The modules whose hook methods are the facade's own (the fast path's)."""

_OWN_HOOKS: dict[int, object] = {}
"""The hook objects the facade's classes define (by ``id``, the objects kept alive): a hook
that resolves to another object, in a subclass or patched onto a class, is replaced."""


ScoreT = TypeVar("ScoreT", bound=Score)
ErrorT = TypeVar("ErrorT", bound=Exception)


class Metric(Generic[ScoreT], metaclass=ABCMeta):
    """The shared part of :class:`~mtcompute.sacrebleu.metrics.BLEU`,
    :class:`~mtcompute.sacrebleu.metrics.CHRF` and :class:`~mtcompute.sacrebleu.metrics.TER`:
    argument checks, the references' layout and
    cache, the corpus and sentence entry points, the signature."""

    _SIGNATURE_TYPE: ClassVar[type[Signature]] = Signature
    _HOOKS: ClassVar[tuple[str, ...]] = (
        "_preprocess_segment",
        "_extract_reference_info",
        "_compute_segment_statistics",
        "_cache_references",
        "_extract_corpus_statistics",
        "_aggregate_and_compute",
        "_compute_score_from_stats",
    )
    """sacreBLEU's methods that a subclass may replace: any replaced, sacreBLEU's path runs."""
    _CACHE_STATE: ClassVar[tuple[str, ...]] = ()
    """The attributes the constructor's reference cache depends on: sacreBLEU's cache keeps
    their values of that time, so a change of one afterwards takes sacreBLEU's path."""
    # Whether the statistics hold floats, summed one segment at a time in segment order
    # (TER's reference lengths), rather than ints, which any grouping sums alike.
    _SUMMED_IN_ORDER: ClassVar[bool] = False

    def __init__(self) -> None:
        self._ref_cache: list[list[str]] | None = None
        self._hook_cache: list[Any] | None = None  # sacreBLEU's cache, for its path
        self._cache_state: tuple[Any, ...] = ()  # _CACHE_STATE's values when cached
        # only BLEU looks for tokenized periods; other metrics never warn
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: str | None = None  # SACREBLEU_SEED's text, lowercased, once resampled
        self.num_refs: int

    # --- argument checks ----------------------------------------------------------------

    def _error(self, kind: type[ErrorT], message: str) -> ErrorT:
        """A ``kind`` error whose message names the metric first (``BLEU: ...``)."""
        return kind(f"{type(self).__name__}: {message}")

    def _check_sequence(
        self, value: object, subject: str, expected: str, least: str, text: bool = True
    ) -> Sequence[Any]:
        """``value`` (``subject`` in the messages), a sequence (``expected``; a string only if
        ``text``) that is not empty (``least``: of what at least one is needed)."""
        if (isinstance(value, str) and not text) or not isinstance(value, Sequence):
            raise self._error(
                TypeError, f"{subject} should be {expected}, got {_type_name(value)}."
            )
        if len(value) == 0:
            raise self._error(EmptyInput, f"{subject} is empty: give at least {least}.")
        return value

    def _check_strings(
        self, items: Sequence[object], subject: str, expected: str, name: str, none: str = ""
    ) -> None:
        """Each of ``items`` (``name[i]``) is a string or None (None refused with the message
        ``none`` when given), else ``subject should be expected``."""
        for index, item in enumerate(items):
            if item is None and none:
                raise self._error(TypeError, f"{none}: `{name}[{index}]` is None.")
            if item is not None and not isinstance(item, str):
                raise self._error(
                    TypeError,
                    f"{subject} should be {expected}; `{name}[{index}]` is {_type_name(item)}.",
                )

    def _check_sentence_score_args(self, hyp: object, refs: object) -> None:
        """sacreBLEU's checks of ``sentence_score``'s arguments, every reference checked."""
        if not isinstance(hyp, str):
            raise self._error(
                TypeError, f"The argument `hyp` should be a string, got {_type_name(hyp)}."
            )
        lines = self._check_sequence(
            refs, "The argument `refs`", "a sequence of strings", "one reference", text=False
        )
        self._check_strings(lines, "Each element of `refs`", "a string", "refs")

    def _check_references(self, refs: object, name: str) -> None:
        """``refs`` is a non-empty sequence of sequences of strings (or None) of one length."""
        streams = self._check_sequence(
            refs,
            f"`{name}`",
            "a sequence of sequence of strings",
            "one reference stream (a sequence with one reference per hypothesis)",
        )
        for j, stream in enumerate(streams):
            if not isinstance(stream, Sequence):
                raise self._error(
                    TypeError,
                    f"Each element of `{name}` should be a sequence of strings; "
                    f"`{name}[{j}]` is {_type_name(stream)}.",
                )
            self._check_strings(
                stream, f"`{name}`", "a sequence of sequence of strings", f"{name}[{j}]"
            )
        for j, stream in enumerate(streams[1:], start=1):
            if len(stream) != len(streams[0]):
                raise self._error(
                    LengthMismatch,
                    f"the reference streams differ in length: `{name}[0]` has "
                    f"{len(streams[0])} segments, `{name}[{j}]` has {len(stream)}.",
                )

    def _check_corpus_score_args(self, hyps: object, refs: object) -> None:
        """sacreBLEU's checks of ``corpus_score``'s arguments, every element checked."""
        lines = self._check_sequence(hyps, "`hyps`", "a sequence of strings", "one hypothesis")
        self._check_strings(
            lines,
            "Each element of `hyps`",
            "a string",
            "hyps",
            none="Undefined line in hypotheses stream",
        )
        if refs is not None:
            self._check_references(refs, "refs")

    # --- which path ----------------------------------------------------------------------

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__.startswith(_FACADE):  # BLEU, CHRF, TER: their hooks are the fast path
            for klass in (Metric, cls):
                for name in cls._HOOKS:
                    if name in vars(klass):
                        _OWN_HOOKS[id(vars(klass)[name])] = vars(klass)[name]

    def _uses_hooks(self) -> bool:
        """Whether a subclass, the instance itself, or a patch of a class replaces one of
        ``_HOOKS``."""
        for name in self._HOOKS:
            if name in self.__dict__:
                return True
            for cls in type(self).__mro__:
                if name in vars(cls):
                    if id(vars(cls)[name]) not in _OWN_HOOKS:
                        return True
                    break
        return False

    def _kernel_takes(self) -> bool:
        """Whether :mod:`mtcompute.metrics` scores this metric's present settings as
        sacreBLEU would (each metric says which it does not)."""
        return True

    def _fast(self, cached: bool = False) -> bool:
        """Whether the statistics come from :mod:`mtcompute.metrics` (else: sacreBLEU's
        path, one segment at a time through the hooks); ``cached``: against the
        constructor's references."""
        if cached and self._ref_cache and not self._state_is(self._cache_state):
            return False
        return self._kernel_takes() and not self._uses_hooks()

    def _state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._CACHE_STATE)

    def _state_is(self, state: tuple[Any, ...]) -> bool:
        return all(a is b or a == b for a, b in zip(self._state(), state, strict=True))

    # --- references ----------------------------------------------------------------------

    def _keep_references(self, references: Sequence[Sequence[str | None]] | None) -> None:
        """The constructor's ``references=``, when given: checked, then cached per segment
        for ``corpus_score(hyps, None)`` (and, for sacreBLEU's path, as it caches them)."""
        if references is not None:
            self._check_references(references, "references")
            self._ref_cache = self._reference_lines(references)
            self._cache_state = self._state()
            if not self._fast():
                self._hook_cache = self._cache_references(references)

    def _cache_references(self, references: Sequence[Sequence[str | None]]) -> list[Any]:
        """sacreBLEU's reference cache: per segment, ``_extract_reference_info`` of its
        references (``None`` dropped) each through ``_preprocess_segment``; sets
        ``num_refs`` (-1 when segments have different numbers of references)."""
        ref_cache = []
        num_refs = set()
        for refs in zip(*references):  # noqa: B905 (sacreBLEU's zip; lengths checked)
            lines = [x for x in refs if x is not None]
            num_refs.add(len(lines))
            lines = [self._preprocess_segment(x) for x in lines]
            ref_cache.append(self._extract_reference_info(lines))
        self.num_refs = next(iter(num_refs)) if len(num_refs) == 1 else -1
        return ref_cache

    def _hooked_reference_cache(self) -> list[Any]:
        """sacreBLEU's reference cache of the constructor's references (made from the kept
        lines when the constructor took the fast path, with the settings of that time)."""
        if self._hook_cache is None:
            assert self._ref_cache is not None  # checked by _segment_references
            now = self._state()
            self._set_state(self._cache_state)
            try:
                self._hook_cache = [
                    self._extract_reference_info([self._preprocess_segment(x) for x in lines])
                    for lines in self._ref_cache
                ]
            finally:
                self._set_state(now)
        return self._hook_cache

    def _set_state(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self._CACHE_STATE, state, strict=True):
            setattr(self, name, value)

    def _reference_lines(self, references: Sequence[Sequence[str | None]]) -> list[list[str]]:
        """The references per segment (sacreBLEU's streams turned around, ``None`` dropped);
        sets ``num_refs`` (-1 when segments have different numbers of references)."""
        segments: list[list[str]] = []
        counts: set[int] = set()
        for index, refs in enumerate(zip(*references, strict=True)):
            lines = [ref for ref in refs if ref is not None]
            if not lines:
                raise self._error(
                    MissingReference,
                    f"segment {index} has no reference: every reference stream has None there.",
                )
            counts.add(len(lines))
            segments.append(lines)
        self.num_refs = counts.pop() if len(counts) == 1 else -1
        return segments

    def _segment_references(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]] | None
    ) -> list[list[str]]:
        """The references of each hypothesis: those given (``num_refs`` set from them), else
        the constructor's cache (as sacreBLEU, any empty ``references`` means the cache)."""
        if references:
            segments = self._reference_lines(references)
        elif self._ref_cache:
            segments = self._ref_cache
        else:
            raise self._error(
                RuntimeError,
                "No references provided and the cache is empty: give `refs`, or "
                "`references=` to the constructor.",
            )
        if len(segments) != len(hypotheses):
            raise self._error(
                LengthMismatch,
                f"{len(hypotheses)} hypotheses but {len(segments)} reference "
                "segments: every reference stream needs one line per hypothesis.",
            )
        return segments

    def _warn_tokenized(self, hypotheses: Sequence[str]) -> None:
        """sacreBLEU's warning for hypotheses that look tokenized (not when ``force``)."""
        if self._force:
            return
        self._warn_tokenized_count(sum(1 for hyp in hypotheses if hyp.endswith(" .")))

    def _warn_tokenized_count(self, count: int) -> None:
        """The warning for ``count`` hypotheses ending in a tokenized period (not when
        ``force``)."""
        if self._force:
            return
        if count >= TOKENIZED_PERIOD_LINES:
            sacrelogger.warning("That's 100 lines that end in a tokenized period ('.')")
            sacrelogger.warning(
                "It looks like you forgot to detokenize your test data, which may hurt your score."
            )
            sacrelogger.warning(
                "If you insist your data is detokenized, or don't care, you can suppress this "
                "message with the `force` parameter."
            )

    # --- the metric's part ----------------------------------------------------------------

    @abstractmethod
    def _statistics(
        self, hypotheses: Sequence[str], references: list[list[str]], per_segment: bool
    ) -> tuple[list[Any], list[list[Any]] | None]:
        """The corpus statistics (and per segment when asked), from :mod:`mtcompute.metrics`
        (ints; TER's reference lengths are floats)."""

    @abstractmethod
    def _compute_score_from_stats(self, stats: Sequence[Any]) -> ScoreT:
        """The score of corpus statistics."""

    @abstractmethod
    def _significance_metric(self) -> significance.Metric:
        """The :mod:`mtcompute.significance` metric that scores summed statistics as this
        metric does (for resampling and paired tests)."""

    # --- entry points -----------------------------------------------------------------------

    @abstractmethod
    def _preprocess_segment(self, sent: str) -> str:
        """sacreBLEU's hook: a line as the metric compares it (lowercased, tokenized, ...)."""

    @abstractmethod
    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        """sacreBLEU's hook: what ``_compute_segment_statistics`` needs of a segment's
        (preprocessed) references."""

    @abstractmethod
    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> Any:
        """sacreBLEU's hook: the statistics of a (preprocessed) hypothesis against its
        segment's reference info."""

    def _extract_corpus_statistics(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str | None]] | None,
    ) -> list[Any]:
        """The statistics of every segment (sacreBLEU's layout), the cache used when
        ``references`` is empty; warns as sacreBLEU does."""
        segments = self._segment_references(hypotheses, references)
        if self._fast(cached=not references):
            self._warn_tokenized(hypotheses)
            _, per_segment = self._statistics(hypotheses, segments, True)
            assert per_segment is not None  # asked for
            return per_segment
        # sacreBLEU's path, its steps in its order
        ref_cache = (
            self._cache_references(references) if references else self._hooked_reference_cache()
        )
        stats = []
        tok_count = 0
        for hyp, ref_kwargs in zip(hypotheses, ref_cache):  # noqa: B905 (a hook's cache)
            if not self._force and hyp.endswith(" ."):
                tok_count += 1
            stats.append(
                self._compute_segment_statistics(self._preprocess_segment(hyp), ref_kwargs)
            )
        self._warn_tokenized_count(tok_count)
        return stats

    def _aggregate_and_compute(self, stats: Sequence[Sequence[Any]]) -> ScoreT:
        """The score of a list of segment statistics."""
        return self._compute_score_from_stats(sum_of_lists(stats))

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> ScoreT:
        """The metric of one hypothesis against one or more references."""
        self._check_sentence_score_args(hypothesis, references)
        if not self._fast():
            stats = self._extract_corpus_statistics([hypothesis], [[ref] for ref in references])
            return self._aggregate_and_compute(stats)
        segments = self._segment_references([hypothesis], [[ref] for ref in references])
        self._warn_tokenized([hypothesis])
        total, _ = self._statistics([hypothesis], segments, False)
        return self._compute_score_from_stats(total)

    def corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]] | None,
        n_bootstrap: int = 1,
    ) -> ScoreT:
        """The metric of a corpus: ``references`` holds one sequence per reference set
        (``None`` entries where a segment has fewer), or is ``None`` for the cache."""
        self._check_corpus_score_args(hypotheses, references)
        if not integral(n_bootstrap):
            raise self._error(
                TypeError, f"n_bootstrap should be an int, got {_type_name(n_bootstrap)}."
            )
        if not self._fast(cached=not references):
            return self._hooked_corpus_score(hypotheses, references, n_bootstrap)
        segments = self._segment_references(hypotheses, references)
        self._warn_tokenized(hypotheses)
        if n_bootstrap <= 1:
            total, _ = self._statistics(hypotheses, segments, False)
            return self._compute_score_from_stats(total)
        # Imported here, as sacreBLEU does: numpy only when resampling, so that scoring (and
        # the start of `mtcompute sacrebleu`) does not pay for importing it.
        from mtcompute import significance  # noqa: PLC0415

        text, seed = read_seed()
        total, per_segment = self._statistics(hypotheses, segments, True)
        assert per_segment is not None  # asked for
        score = self._compute_score_from_stats(total)
        resampled = significance.bootstrap_resample(
            self._significance_metric(),
            per_segment,
            samples=int(n_bootstrap),
            seed=seed,
            arithmetic="sacrebleu",
        )
        score._mean, score._ci = significance.score_estimate_ci(resampled)
        self.n_bootstrap = n_bootstrap
        self.seed = text.lower()  # sacreBLEU's: the variable's text
        return score

    def _hooked_corpus_score(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]] | None,
        n_bootstrap: int,
    ) -> ScoreT:
        """``corpus_score`` on sacreBLEU's path: its hooks, and its bootstrap resampling
        (the same draws, each resample's float32 sums scored by
        ``_compute_score_from_stats``)."""
        stats = self._extract_corpus_statistics(hypotheses, references)
        score = self._aggregate_and_compute(stats)
        if n_bootstrap > 1:
            import numpy as np  # noqa: PLC0415 (numpy only when resampling)

            text, seed = read_seed()
            rng = np.random.default_rng(seed)
            idxs = rng.choice(len(stats), size=(n_bootstrap, len(stats)), replace=True)
            stats_np = np.array(stats, dtype="float32")
            self.n_bootstrap = n_bootstrap
            self.seed = text.lower()
            score.estimate_ci([self._compute_score_from_stats(s.sum(0)) for s in stats_np[idxs]])
        return score

    def get_signature(self) -> Signature:
        """The signature (known once references have been read: after scoring, or after the
        constructor's ``references=``)."""
        return self._SIGNATURE_TYPE(self.__dict__)


class CorpusInChunks(Generic[ScoreT]):
    """``metric.corpus_score(hypotheses, references)`` of a corpus given a chunk of
    segments at a time, in bounded memory: each chunk's statistics (``add``, the references
    per segment) added up as sacreBLEU's ``sum_of_lists`` adds every segment's (ints in any
    grouping; TER's lengths one segment at a time, in order), and the hypotheses that end in
    a tokenized period counted; :meth:`score` warns as ``corpus_score`` would (when enough
    do) and gives the score. A metric on sacreBLEU's path (settings the kernel does not
    take) keeps each segment's statistics instead, and sums them as sacreBLEU does.

    >>> from mtcompute.sacrebleu import CHRF
    >>> whole = CHRF().corpus_score(["a b", "c d"], [["a c", "c e"]])
    >>> chunks = CorpusInChunks(CHRF())
    >>> chunks.add(["a b"], [["a c"]])
    >>> chunks.add(["c d"], [["c e"]])
    >>> chunks.score().score == whole.score
    True
    """

    def __init__(self, metric: Metric[ScoreT]) -> None:
        self.metric = metric
        self.total: list[Any] = []
        self.segments: list[Any] = []  # each segment's, on sacreBLEU's path
        self.tokenized = 0

    def add(self, hypotheses: Sequence[str], references: list[list[str]]) -> None:
        """Count the next chunk (``references[i]``: segment ``i``'s references)."""
        metric = self.metric
        self.tokenized += sum(1 for hyp in hypotheses if hyp.endswith(" ."))
        if not metric._fast():  # sacreBLEU's path: each segment's statistics kept
            for hyp, refs in zip(hypotheses, references, strict=True):
                info = metric._extract_reference_info([metric._preprocess_segment(r) for r in refs])
                stats = metric._compute_segment_statistics(metric._preprocess_segment(hyp), info)
                self.segments.append(stats)
            return
        if metric._SUMMED_IN_ORDER:
            _, each = metric._statistics(hypotheses, references, True)
            assert each is not None  # asked for
            total = self.total or [0] * len(each[0])
            for i, column in enumerate(zip(*each, strict=True)):
                value = total[i]
                for item in column:  # one segment at a time, in order
                    value += item
                total[i] = value
        else:
            summed, _ = metric._statistics(hypotheses, references, False)
            total = (
                summed
                if not self.total
                else [a + b for a, b in zip(self.total, summed, strict=True)]
            )
        self.total = total

    def score(self) -> ScoreT:
        """The corpus score of every chunk added (after sacreBLEU's warning, if due)."""
        self.metric._warn_tokenized_count(self.tokenized)
        if not self.metric._fast():
            return self.metric._aggregate_and_compute(self.segments)
        return self.metric._compute_score_from_stats(self.total)
