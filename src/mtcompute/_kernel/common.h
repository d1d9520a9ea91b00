/*
 * common.h: the declarations shared by the files of mtcompute._kernel, the optional C
 * speed layer of mtcompute's sufficient statistics.
 *
 * What it computes, each with exactly the integers of the pure Python core:
 *
 *   - chrF (Popovic 2015, section 2): per segment and order n = 1..N, the hypothesis
 *     n-grams, the reference n-grams and the clipped matches (the sum over n-grams g of
 *     min(hyp count, ref count)), over Unicode code points after removing the 29
 *     whitespace code points of the chrf-compute contract (mtcompute.metrics.chrf.ngrams);
 *   - sentence chrF scores as the double nearest (ties to even) to the exact rational of
 *     mtcompute.metrics.chrf.ngrams.chrf_fraction, from counts or for every hypothesis/reference
 *     pair (MBR), in 128-bit integers (u128.h) with a correctly rounded division; a pair whose
 *     integers would not fit is handed back to Python, which finishes it with Fraction;
 *   - BLEU sentence statistics (Papineni et al. 2002, section 2.1): clipped n-gram
 *     matches with the largest count in any single reference, totals, the candidate
 *     length and the closest reference length (ties to the shorter), from token lists or
 *     from texts split on whitespace exactly as str.split() splits them, or tokenized on
 *     the way as sacreBLEU 2.6.0's BLEU tokenizes with 13a (rstrip, Tokenizer13a, split);
 *   - sacreBLEU 2.6.0's 13a tokenizer alone (tokenize_13a), and its chrF/chrF++ segment
 *     statistics with its best-reference rule and its f-score in doubles, operation by
 *     operation (sacrebleu_chrf_counts);
 *   - sacreBLEU 2.6.0's TER edits (translation_edit_rate: greedy block shifts, then the
 *     beam edit distance) over interned word ids, per hypothesis and reference (ter_edits),
 *     as mtcompute.metrics.ter.edits computes them, and TER segment statistics from tokenized
 *     texts (ter_statistics_text: words split and interned inside the kernel);
 *   - the number of lines in UTF-8 bytes (skip_lines), without the GIL;
 *   - the JSON text of JSON values as JSON.stringify writes it (js_dumps), for the values of
 *     exact JSON types, the text of mtcompute.core.jsjson.dumps;
 *   - the exact chrF of the total and of each segment of a counts buffer, as a reduced
 *     fraction (chrf_ratios), when its integers fit in 128 bits.
 *
 * Keys are exact, never bare hashes.  N-grams are counted order by order, and an n-gram of
 * order n is keyed by the pair (slot or id of its (n-1)-gram prefix + 1, its last code point
 * or token id + 1) in 64 bits; that pair identifies the n-gram exactly because the prefix
 * slot does.  Tokens are interned by content (kind, length, bytes: CPython's own notion of
 * str equality).  Hash tables use linear probing and compare whole keys, so a hash
 * collision costs time, never a wrong count.
 *
 * The GIL is released while counting.  Every str is referenced (INCREF) by the call
 * before the GIL is released, and only its immutable data are read without the GIL.
 * Scratch tables live in a small pool of workspaces taken and returned under the GIL,
 * so concurrent calls from several Python threads each have their own.
 */
#ifndef MTK_COMMON_H
#define MTK_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "u128.h"

typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t i64;

#define MAX_ORDER 64               /* char_order / max_order accepted by the kernel */
#define MAX_BETA 16                /* chrF beta accepted by the scorers */
#define MAX_TEXT ((size_t)1 << 28) /* longer texts and token lists go to the pure path */
#define NOGIL_WORK 2048            /* release the GIL only for at least this much input */
#define POOL_MAX 8                 /* idle workspaces kept */

/* ------------------------------------------------------------------------------------ */
/* Compiler attributes (GCC and Clang, MSVC, else none)                                  */
/* ------------------------------------------------------------------------------------ */

/* Functions and data shared between the kernel's files: hidden from the shared object's
 * exported symbols (only PyInit__kernel is exported).  A Windows DLL exports only what is
 * marked dllexport (PyMODINIT_FUNC), so there it needs no attribute. */
#if defined(__GNUC__) && !defined(_WIN32)
#define MTK_INTERNAL __attribute__((visibility("hidden")))
#else
#define MTK_INTERNAL
#endif

/* `static MTK_ALWAYS_INLINE T f(...)`: always inlined; `static MTK_NOINLINE T f(...)`: never. */
#if defined(__GNUC__)
#define MTK_ALWAYS_INLINE inline __attribute__((always_inline))
#define MTK_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define MTK_ALWAYS_INLINE __forceinline
#define MTK_NOINLINE __declspec(noinline)
#else
#define MTK_ALWAYS_INLINE inline
#define MTK_NOINLINE
#endif

/* `static inline MTK_MAYBE_UNUSED T f(...)`: a file may leave it unused (the functions each
 * CHAIN_TABLE makes), which Clang would warn about. */
#if defined(__GNUC__)
#define MTK_MAYBE_UNUSED __attribute__((unused))
#else
#define MTK_MAYBE_UNUSED
#endif

/* No fused multiply-add: Python rounds each double operation, and so must the kernel (the
 * sacreBLEU float steps are bit for bit).  setup.py passes -ffp-contract=off; besides, GCC
 * gets the optimize attribute on the functions that compute in doubles (NO_FP_CONTRACT),
 * Clang the standard pragma for the whole file, and MSVC its own pragma (its default
 * /fp:precise does not contract since Visual Studio 2022 17.0, earlier ones did; /fp:fast
 * and /fp:contract would). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#define NO_FP_CONTRACT
#elif defined(__GNUC__)
#define NO_FP_CONTRACT __attribute__((optimize("fp-contract=off")))
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#define NO_FP_CONTRACT
#else
#pragma STDC FP_CONTRACT OFF
#define NO_FP_CONTRACT
#endif

/* ------------------------------------------------------------------------------------ */
/* Small helpers                                                                         */
/* ------------------------------------------------------------------------------------ */

static inline u64
mix64(u64 lo, u64 hi)
{
    u64 x = lo ^ (hi * 0x9E3779B97F4A7C15ULL);
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ULL;
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ULL;
    x ^= x >> 32;
    return x;
}

static inline unsigned
ceil_log2(size_t x)
{
    unsigned b = 0;
    while (((size_t)1 << b) < x) b++;
    return b;
}

/* table bits for `items` insertions at load <= 1/2 */
static inline unsigned
table_bits(size_t items)
{
    unsigned b = ceil_log2(2 * items);
    return b < 4 ? 4 : b;
}

static inline u64
gcd64(u64 a, u64 b)
{
    if (a == 0) return b;
    if (b == 0) return a;
    int shift = mtk_ctz64(a | b);
    a >>= mtk_ctz64(a);
    do {
        b >>= mtk_ctz64(b);
        if (a > b) {
            u64 t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b);
    return a << shift;
}

/* dealloc (free, PyMem_Free, ...) of each pointer given, in order; NULL ones are fine. */
#define FREE_EACH(dealloc, ...)                                                                    \
    do {                                                                                           \
        void *free_each_[] = {__VA_ARGS__};                                                        \
        for (size_t k_ = 0; k_ < sizeof free_each_ / sizeof free_each_[0]; k_++)                   \
            dealloc(free_each_[k_]);                                                               \
    } while (0)

/* Resize the PyMem block *p to `count` items of `size` bytes, keeping its contents; -1 with
 * MemoryError (and *p as it was) if out of memory. */
static inline int
pymem_resize(void **p, size_t count, size_t size)
{
    void *q = PyMem_Realloc(*p, count * size);
    if (!q) {
        PyErr_NoMemory();
        return -1;
    }
    *p = q;
    return 0;
}

/* 0 when ok, else -1 with ValueError "<what> out of range for the kernel". */
static inline int
in_range(int ok, const char *what)
{
    if (ok) return 0;
    PyErr_Format(PyExc_ValueError, "%s out of range for the kernel", what);
    return -1;
}

/* Whether an n-gram order (char_order, max_order, word_order but 0) is one the kernel takes. */
static inline int
order_ok(int order)
{
    return order >= 1 && order <= MAX_ORDER;
}

/* Whether a chrF beta is one the exact scorers take. */
static inline int
beta_ok(int beta)
{
    return beta >= 1 && beta <= MAX_BETA;
}

/* When per_segment, a bytes object for n rows of `width` native int64 at *buf and its data at
 * *seg; else both NULL.  -1 with an exception. */
static inline int
segment_rows(int per_segment, Py_ssize_t n, size_t width, PyObject **buf, i64 **seg)
{
    *buf = NULL;
    *seg = NULL;
    if (!per_segment) return 0;
    *buf = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)n * width * sizeof(i64)));
    if (!*buf) return -1;
    *seg = (i64 *)PyBytes_AS_STRING(*buf);
    return 0;
}

/* Make sure `o` is a ready str (PEP 393); 0 on success. */
static inline int
ready(PyObject *o)
{
#if PY_VERSION_HEX < 0x030C0000
    return PyUnicode_READY(o);
#else
    (void)o;
    return 0;
#endif
}

/* ------------------------------------------------------------------------------------ */
/* Workspaces (work.c): scratch tables reused across calls                              */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    u64 key;    /* chain_key; 0 = empty */
    u32 c1, c2; /* counts in the inserted and in the probed text */
} CEnt;         /* chrF n-gram of one order */

typedef struct {
    u64 h;
    u32 tok, id1; /* index of the first token with this content; local id + 1 (0 = empty) */
} TEnt;           /* token interning within a segment */

typedef struct {
    u64 key;           /* chain_key over token ids; 0 = empty */
    u32 hc, rc, maxrc; /* hypothesis count, count in the current reference, largest */
    u32 stamp;         /* the reference rc belongs to */
} BEnt;                /* BLEU n-gram of one order */

typedef struct Work {
    struct Work *next;
    CEnt *ctab;
    size_t ctab_n;
    BEnt *btab;
    size_t btab_n;
    TEnt *ttab;
    size_t ttab_n;
    u32 *touched;
    size_t touched_n;
    u32 *cpa, *cpb; /* code points (chrF) or token ids (BLEU) */
    u32 *sa, *sb;   /* per position: prefix slot + 1 (chrF) */
    size_t cp_n;
} Work;

/* ------------------------------------------------------------------------------------ */
/* Exact n-gram keys and the open-addressing tables                                     */
/* ------------------------------------------------------------------------------------ */

/* The exact key of an n-gram: (the slot or id of its (n-1)-gram prefix + 1, or 0 for
 * n = 1) in the high half, its last code point or token id + 1 in the low half.  Never 0. */
static inline u64
chain_key(u32 prefix1, u32 last)
{
    return ((u64)prefix1 << 32) | (u64)(last + 1);
}

static inline u32
slot_of(u64 key, unsigned bits)
{
    return (u32)((key * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

#define DEAD ((u32)-1)

/*
 * The probes of the open-addressing tables, one pair per entry type.  Every table has
 * 2^bits slots, a load of at most 1/2 (so a probe always ends) and linear probing.  The
 * n-gram tables (CEnt, BEnt, GEnt) are keyed by chain_key, 0 marking an empty slot:
 * X_find sets *slot to the slot of `key` and returns 1, or returns 0 when it is absent;
 * X_add (find-or-insert) returns the slot of `key`, storing the key in the empty slot
 * where it belongs if it was absent and recording that slot in touched[(*nt)++] (the
 * caller zeroes those slots again; GEnt's table is only added to).  The token table
 * (TEnt) has tent_probe, beside bleu_tok_eq.
 */
#define CHAIN_TABLE(X, Ent)                                                                        \
    static inline MTK_MAYBE_UNUSED int X##_find(const Ent *tab, unsigned bits, u64 key, u32 *slot) \
    {                                                                                              \
        u32 mask = (u32)(((u64)1 << bits) - 1), s = slot_of(key, bits);                            \
        for (;; s = (s + 1) & mask) {                                                              \
            if (tab[s].key == key) {                                                               \
                *slot = s;                                                                         \
                return 1;                                                                          \
            }                                                                                      \
            if (!tab[s].key) return 0;                                                             \
        }                                                                                          \
    }                                                                                              \
    static inline MTK_MAYBE_UNUSED u32 X##_add(Ent *tab, unsigned bits, u64 key, u32 *touched,     \
                                               size_t *nt)                                         \
    {                                                                                              \
        u32 mask = (u32)(((u64)1 << bits) - 1), s = slot_of(key, bits);                            \
        for (;; s = (s + 1) & mask) {                                                              \
            if (tab[s].key == key) return s;                                                       \
            if (!tab[s].key) {                                                                     \
                tab[s].key = key;                                                                  \
                touched[(*nt)++] = s;                                                              \
                return s;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }

/* ------------------------------------------------------------------------------------ */
/* Text classes                                                                         */
/* ------------------------------------------------------------------------------------ */

/* Py_UNICODE_ISSPACE (str.split()'s whitespace) with a call only for U+1680..U+3000: no
 * other code point from U+0080 on but U+0085 and U+00A0 is whitespace (tests check every
 * code point). */
static inline int
is_space(u32 c)
{
    if (c < 128) return Py_UNICODE_ISSPACE(c);
    if (c < 0x1680) return c == 0x85 || c == 0xA0;
    return c <= 0x3000 && Py_UNICODE_ISSPACE(c);
}

/* ------------------------------------------------------------------------------------ */
/* BLEU input (bleu.c)                                                                  */
/* ------------------------------------------------------------------------------------ */

/* The flattened input: tokens, per segment the hypothesis token range and the range of its
 * references, per reference its token range.  Tokens are either str objects (referenced;
 * `tok`) or, for texts split on whitespace, spans of one code point buffer (`text`,
 * `tpos`, `tlen`: every text widened to UCS4, so equal tokens have equal units). */
typedef struct {
    PyObject **tok;
    Py_UCS4 *text;
    size_t *tpos;
    u32 *tlen;
    size_t ntok, tok_cap;
    size_t *hoff; /* nseg + 1 */
    size_t *rseg; /* nseg + 1: reference index range per segment */
    size_t *roff; /* nref + 1 */
    size_t nref, ref_cap;
    size_t maxhyp, maxrefsum; /* longest hypothesis, most reference tokens of a segment */
    u64 *hash;                /* per token: tok_hash */
    PyObject **held;          /* texts: the str read (referenced), in reading order */
    size_t nheld;
    size_t units;     /* code points of the texts */
    Py_UCS4 *scratch; /* room for the longest text (13a's working copy) */
} BleuIn;

/* A problem found while reading the input: (code, path, position). */
typedef struct {
    const char *code;
    const char *field;
    Py_ssize_t idx[3];
    int depth;
    Py_ssize_t pos;
} Problem;

/* ------------------------------------------------------------------------------------ */
/* UTF-8 lines (lines.c, lines_metrics.c)                                               */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    size_t start, bytes; /* byte range of the line in the input, without its \n */
    size_t length;       /* code points */
    u32 maxchar;         /* largest code point (0 for an empty line) */
} LineSpan;

/* The inputs of bleu_counts_lines: per input its buffer and its checked lines. */
typedef struct LinesIn {
    Py_buffer *views;
    LineSpan **spans;
    size_t *caps;
    Py_ssize_t inputs; /* the hypotheses', then one per reference */
} LinesIn;

/* ------------------------------------------------------------------------------------ */
/* sacreBLEU's chrF (sacre_chrf.c)                                                      */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    u64 h;
    u32 pos, len; /* the word's code points in the hypothesis's buffer */
    u32 id1;      /* its id + 1; 0 = empty slot */
    u32 pad;
} WEnt;

/* One sacrebleu_chrf_counts call: options, the texts held, scratch. */
typedef struct {
    int C, W;
    int beta, whitespace, eps_smoothing;
    Py_ssize_t n;    /* segments */
    PyObject **held; /* the hypotheses, then the references segment by segment */
    size_t nheld;
    size_t *rseg; /* n + 1: segment i's references are held[n + rseg[i] .. n + rseg[i+1]) */
    size_t maxlen, total;
    Py_UCS4 *hw, *rw; /* the hypothesis and the reference, widened */
    u32 *hid, *rid;   /* their word ids */
    u32 *wpos, *wlen; /* word spans of one text */
    WEnt *wtab;       /* the hypothesis's words; 2^wbits slots */
    unsigned wbits;
    u32 *wtouched;
    const struct LinesIn *lines; /* sacrebleu_chrf_lines: the texts as lines, not held */
} Sacre;

/* An entry of a file's method table: the export NAME, its C function py_NAME (METH_O or
 * METH_VARARGS, as FLAGS says) and its docstring NAME_doc; KERNEL_METHODS_END ends a table. */
/* clang-format off */
#define KERNEL_METHOD(NAME, FLAGS) {#NAME, py_##NAME, FLAGS, NAME##_doc}
#define KERNEL_METHODS_END {NULL, NULL, 0, NULL}
/* clang-format on */

/* The head of the function a KERNEL_METHOD entry exports, its body following: the docstring
 * NAME_doc (the text signature SIG, marked as CPython's "--" convention wants, then the one
 * sentence DOC) and the C function py_NAME of the module and ARG (the argument tuple of
 * METH_VARARGS, the argument of METH_O).  The full documentation of every kernel function is
 * kept once, in its stub src/mtcompute/_kernel.pyi. */
#define KERNEL_FUNCTION(NAME, ARG, SIG, DOC)                                                       \
    PyDoc_STRVAR(NAME##_doc, SIG "\n--\n\n" DOC "\nDocumented in full in mtcompute/_kernel.pyi."); \
    static PyObject *py_##NAME(PyObject *Py_UNUSED(module), PyObject *ARG)

/* work.c */
MTK_INTERNAL Work *mtk_work_get(void);
MTK_INTERNAL void mtk_work_put(Work *w);
MTK_INTERNAL int mtk_grow_zeroed(void **p, size_t *have, size_t n, size_t size);
MTK_INTERNAL int mtk_grow_plain(void **p, size_t *have, size_t n, size_t size);
MTK_INTERNAL int mtk_work_chrf(Work *w, size_t maxlen);
MTK_INTERNAL int mtk_work_positions(Work *w, size_t cp);

/* chrf.c */
MTK_INTERNAL int mtk_chrf_exact(u128 p, u128 q, u64 H, u64 S, u32 k, u32 beta, double *out);
MTK_INTERNAL int mtk_lcm_mults(const u64 *v, int k, u64 *lcm, u64 *mult);
MTK_INTERNAL size_t mtk_strip_text(PyObject *s, u32 *out);
MTK_INTERNAL void mtk_chrf_segment_counts(Work *w, const u32 *h, size_t lh, const u32 *r, size_t lr,
                                          int N, i64 *o);
MTK_INTERNAL int mtk_hold_texts(PyObject *seq, const char *what, PyObject **held, Py_ssize_t at,
                                Py_ssize_t step, size_t *maxlen, size_t *total);
MTK_INTERNAL void mtk_release_held(PyObject **held, Py_ssize_t n);
MTK_INTERNAL PyObject *mtk_tuple_of(const i64 *v, int n);
MTK_INTERNAL PyObject *mtk_counts_answer(PyObject *buf, const i64 *totals, int k);
MTK_INTERNAL extern PyMethodDef mtk_chrf_methods[];

/* bleu.c */
MTK_INTERNAL u64 mtk_units_hash(const unsigned char *p, size_t n, int kind);
MTK_INTERNAL int mtk_is_array(PyObject *o);
MTK_INTERNAL Py_ssize_t mtk_array_size(PyObject *o);
MTK_INTERNAL PyObject **mtk_array_items(PyObject *o);
MTK_INTERNAL int mtk_end_hypothesis(BleuIn *b, Py_ssize_t i, Problem *pb);
MTK_INTERNAL int mtk_end_reference(BleuIn *b, Py_ssize_t i, Py_ssize_t j, Problem *pb);
MTK_INTERNAL void mtk_end_segment(BleuIn *b, Py_ssize_t i);
MTK_INTERNAL void mtk_end_input(BleuIn *b, Py_ssize_t n);
MTK_INTERNAL size_t mtk_widen(PyObject *s, Py_UCS4 *out);
MTK_INTERNAL void mtk_split_text(BleuIn *b, PyObject *s, size_t *used);
MTK_INTERNAL void mtk_split_units(BleuIn *b, size_t n, size_t *used);
MTK_INTERNAL int mtk_measure_text(PyObject *s, int tok13a, Problem *pb, BleuIn *b, size_t *bound,
                                  size_t *maxlen);
MTK_INTERNAL int mtk_bleu_read_text(PyObject *hyps, PyObject *refs, int tok13a, BleuIn *b,
                                    Problem *pb);
MTK_INTERNAL int mtk_bleu_tokenize(BleuIn *b, Py_ssize_t n, int tok13a, Problem *pb);
MTK_INTERNAL int mtk_work_bleu(Work *w, size_t maxhyp, size_t maxrefsum);
MTK_INTERNAL void mtk_bleu_count_loop(Work *w, const BleuIn *b, Py_ssize_t n, int N, i64 *seg,
                                      i64 *totals);
MTK_INTERNAL extern PyMethodDef mtk_bleu_methods[];

/* tok13a.c */
MTK_INTERNAL void mtk_tok13a_text(BleuIn *b, PyObject *s, size_t *used);
MTK_INTERNAL void mtk_tok13a_units(BleuIn *b, size_t n, size_t *used);
MTK_INTERNAL int mtk_tok13a_named(const char *name);
MTK_INTERNAL extern PyMethodDef mtk_tok13a_methods[];

/* sacre_chrf.c */
MTK_INTERNAL void mtk_sacre_free(Sacre *S);
MTK_INTERNAL void mtk_sacre_segment(Sacre *S, Work *w, Py_ssize_t i, i64 *out);
MTK_INTERNAL int mtk_sacre_scratch(Sacre *S);
MTK_INTERNAL int mtk_sacre_options_ok(const Sacre *S);
MTK_INTERNAL PyObject *mtk_sacre_answer(Sacre *S, int per_segment, int nogil);
MTK_INTERNAL extern PyMethodDef mtk_sacre_chrf_methods[];

/* text.c */
MTK_INTERNAL Py_ssize_t mtk_first_surrogate(PyObject *s);
MTK_INTERNAL int mtk_lower1_init(void);
MTK_INTERNAL extern Py_UCS4 mtk_lower1[256];
MTK_INTERNAL extern int mtk_lower1_ok;
MTK_INTERNAL extern PyMethodDef mtk_text_methods[];

/* lines.c */
MTK_INTERNAL int mtk_utf8_seq(const unsigned char *p, const unsigned char *end, u32 *cp);
MTK_INTERNAL int mtk_measure_line(const unsigned char *p, LineSpan *line);
MTK_INTERNAL int mtk_scan_lines(const unsigned char *data, size_t size, size_t start, size_t count,
                                int final, LineSpan **spans, size_t *n, size_t *cap, size_t *stop,
                                Py_ssize_t *bad);
MTK_INTERNAL extern PyMethodDef mtk_lines_methods[];

/* lines_metrics.c */
MTK_INTERNAL size_t mtk_lines_widen(const struct LinesIn *L, Py_ssize_t f, size_t i, Py_UCS4 *out);
MTK_INTERNAL extern PyMethodDef mtk_lines_metrics_methods[];

/* chrf_pairwise.c */
MTK_INTERNAL extern PyMethodDef mtk_chrf_pairwise_methods[];

/* ter.c */
MTK_INTERNAL extern PyMethodDef mtk_ter_methods[];

/* json.c */
MTK_INTERNAL extern PyMethodDef mtk_json_methods[];

/* resample.c */
MTK_INTERNAL extern PyMethodDef mtk_resample_methods[];

/* ------------------------------------------------------------------------------------ */
/* Inline helpers over the shared types                                                 */
/* ------------------------------------------------------------------------------------ */

/* Push token k of b: the code points text[pos..pos+len). */
static inline void
push_span(BleuIn *b, size_t pos, size_t len)
{
    size_t k = b->ntok++;
    b->tpos[k] = pos;
    b->tlen[k] = (u32)len;
    b->hash[k] = mtk_units_hash((const unsigned char *)(b->text + pos), len * sizeof(Py_UCS4),
                                PyUnicode_4BYTE_KIND);
}

#endif /* MTK_COMMON_H */
