/*
 * ter.c: sacreBLEU 2.6.0's TER: edits over interned word ids (ter_edits) and segment statistics
 * from tokenized texts (ter_statistics_text).
 * Python twin: mtcompute.metrics.ter.edits.translation_edit_rate (through
 * mtcompute.metrics.ter.statistics).
 */
#include "common.h"

/* ------------------------------------------------------------------------------------ */
/* TER: sacreBLEU 2.6.0's translation_edit_rate over word ids (metrics.ter.edits)       */
/* ------------------------------------------------------------------------------------ */

/*
 * The port of mtcompute.metrics.ter.edits.translation_edit_rate (sacrebleu/metrics/lib_ter.py):
 * greedy block shifts (blocks of at most 10 words, starts at most 50 apart), each search
 * taking the best candidate by (gain, block length, earlier start, earlier target), the
 * first of equals kept; at most 1000 candidates per hypothesis and reference over all the
 * searches, counted after each pair of blocks that passes the filters (a search that
 * reaches it ends the loop with its best shift unapplied); the Levenshtein distance over a
 * band of cells around the length-ratio diagonal (sacreBLEU's float steps), 10^16 outside.
 *
 * Rows are kept only over their band, so memory is linear in the segment.  sacreBLEU's row
 * cache is replaced by what it amounts to: a row depends only on the words before it (and
 * the fixed lengths), so a candidate's rows are computed from the last row its prefix
 * shares with the current hypothesis, whose rows are kept.  The trace is read back from
 * the costs (the first of match or substitution, deletion, insertion reaching a cell's
 * cost), as the pure core does.
 */

#define TER_INF 10000000000000000LL /* sacreBLEU's int(1e16) */
#define TER_MAX_SHIFT_SIZE 10
#define TER_MAX_SHIFT_DIST 50
#define TER_BEAM_WIDTH 25
#define TER_MAX_CANDIDATES 1000
#ifndef TER_BACK_MIN
#define TER_BACK_MIN 16 /* rows after a candidate's change from which B is used */
#endif

typedef struct {
    const i64 *ref;
    Py_ssize_t m, n;               /* reference and hypothesis lengths */
    Py_ssize_t *lo, *hi, *off;     /* row i: columns [lo[i], hi[i]) at cells off[i].. */
    i64 *M, *S;                    /* rows of the current words; rows of a candidate */
    i64 *B;                        /* the current words' costs to the end (ter_fill_back) */
    int back;                      /* whether B is of the current words */
    i64 *words, *shifted;          /* n each */
    Py_ssize_t *align;             /* m: hypothesis position aligned with each ref position */
    Py_ssize_t *hyp_sum, *ref_sum; /* n + 1, m + 1: prefix sums of the error flags */
    unsigned char *ops;            /* n + m: the trace, last operation first */
    size_t rows_cap, words_cap, cells_cap, ref_cap, ops_cap; /* room, kept between pairs */
} Ter;

static void
ter_free(Ter *T)
{
    FREE_EACH(free, T->lo, T->hi, T->off, T->M, T->S, T->B, T->words, T->shifted, T->align,
              T->hyp_sum, T->ref_sum, T->ops);
    memset(T, 0, sizeof *T);
}

/* The band of each row, in sacreBLEU's float steps (BeamEditDistance._edit_distance). */
static NO_FP_CONTRACT size_t
ter_bounds(Ter *T)
{
    Py_ssize_t n = T->n, m = T->m;
    double ratio = n ? (double)m / (double)n : 1.0;
    Py_ssize_t beam = TER_BEAM_WIDTH;
    if ((double)TER_BEAM_WIDTH < ratio / 2) beam = (Py_ssize_t)ceil(ratio / 2 + TER_BEAM_WIDTH);
    size_t cells = (size_t)m + 1;
    T->lo[0] = 0;
    T->hi[0] = m + 1;
    T->off[0] = 0;
    for (Py_ssize_t i = 1; i <= n; i++) {
        Py_ssize_t diag = (Py_ssize_t)floor((double)i * ratio);
        Py_ssize_t lo = diag - beam > 0 ? diag - beam : 0;
        Py_ssize_t hi = diag + beam < m + 1 ? diag + beam : m + 1;
        if (i == n) hi = m + 1;
        if (hi < lo) hi = lo;
        T->lo[i] = lo;
        T->hi[i] = hi;
        T->off[i] = (Py_ssize_t)cells;
        cells += (size_t)(hi - lo);
    }
    return cells;
}

/* Grow each of the `count` arrays at ps to room for `need` items of `size` bytes (at least
 * double the room it had; contents not kept); -1 if out of memory. */
static int
ter_grow(void **ps[], int count, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 0;
    size_t room = 2 * *cap > need ? 2 * *cap : need;
    for (int k = 0; k < count; k++) {
        void *q = malloc(room * size);
        if (!q) return -1;
        free(*ps[k]);
        *ps[k] = q;
    }
    *cap = room;
    return 0;
}

/* Make the workspace ready for one hypothesis length against one reference, reusing its
 * room (a zeroed Ter to begin with; ter_free after the last pair); -1 if out of memory. */
static int
ter_init(Ter *T, const i64 *ref, Py_ssize_t m, Py_ssize_t n)
{
    T->ref = ref;
    T->m = m;
    T->n = n;
    T->back = 0;
    size_t rows = (size_t)n + 1;
    void **by_row[] = {(void **)&T->lo, (void **)&T->hi, (void **)&T->off, (void **)&T->hyp_sum};
    void **words[] = {(void **)&T->words, (void **)&T->shifted};
    if (ter_grow(by_row, 4, &T->rows_cap, rows, sizeof(Py_ssize_t)) < 0) return -1;
    if (ter_grow(words, 2, &T->words_cap, rows, sizeof(i64)) < 0) return -1;
    size_t cells = ter_bounds(T);
    void **by_cell[] = {(void **)&T->M, (void **)&T->S, (void **)&T->B};
    if (ter_grow(by_cell, 3, &T->cells_cap, cells, sizeof(i64)) < 0) return -1;
    void **by_ref[] = {(void **)&T->align, (void **)&T->ref_sum};
    if (ter_grow(by_ref, 2, &T->ref_cap, (size_t)m + 1, sizeof(Py_ssize_t)) < 0) return -1;
    void **trace[] = {(void **)&T->ops};
    if (ter_grow(trace, 1, &T->ops_cap, (size_t)n + (size_t)m + 1, 1) < 0) return -1;
    for (Py_ssize_t j = 0; j <= m; j++) T->M[j] = j; /* row 0: j insertions */
    return 0;
}

/* Cell (i, j) of the rows at `cells` (10^16 outside the band). */
static inline i64
ter_at(const Ter *T, const i64 *cells, Py_ssize_t i, Py_ssize_t j)
{
    if (j < T->lo[i] || j >= T->hi[i]) return TER_INF;
    return cells[T->off[i] + (j - T->lo[i])];
}

/* Rows from + 1 .. to of `w` into `dst`, row `from` read from `src` (unit costs; a cell
 * stays at 10^16 unless an operation is below it; column 0 unconditionally from above). */
static void
ter_fill(const Ter *T, const i64 *w, Py_ssize_t from, Py_ssize_t to, const i64 *src, i64 *dst)
{
    const i64 *ref = T->ref;
    const i64 *prev_cells = src;
    for (Py_ssize_t i = from + 1; i <= to; i++) {
        Py_ssize_t plo = T->lo[i - 1], phi = T->hi[i - 1];
        const i64 *prev = prev_cells + T->off[i - 1];
        Py_ssize_t lo = T->lo[i], hi = T->hi[i];
        i64 *cur = dst + T->off[i];
        i64 word = w[i - 1];
        i64 left = TER_INF;
        Py_ssize_t j = lo;
        if (j == 0 && j < hi) {
            i64 above = plo == 0 && phi > 0 ? prev[0] : TER_INF;
            cur[0] = above + 1;
            left = cur[0];
            j = 1;
        }
        for (; j < hi; j++) {
            i64 diag = j - 1 >= plo && j - 1 < phi ? prev[j - 1 - plo] : TER_INF;
            i64 up = j >= plo && j < phi ? prev[j - plo] : TER_INF;
            i64 cost = diag + (word != ref[j - 1]);
            i64 deletion = up + 1;
            if (deletion < cost) cost = deletion;
            i64 insertion = left + 1;
            if (insertion < cost) cost = insertion;
            if (cost > TER_INF) cost = TER_INF;
            cur[j - lo] = cost;
            left = cost;
        }
        prev_cells = dst;
    }
}

/*
 * B: for each cell (i, j) of the band, the cheapest way from it to (n, m) for the current
 * words: the same moves as the forward rows (a match or substitution to (i + 1, j + 1), a
 * deletion to (i + 1, j), an insertion to (i, j + 1)), each only onto a cell of the band,
 * 10^16 where none is.  The forward costs are the cheapest paths from (0, 0) over the same
 * cells and moves, so for any row q the distance is min over j of forward(q, j) + B(q, j):
 * the cheapest path passes row q, and leaves it from one of its cells.  A candidate that
 * equals the current words from position q on has the current words' B from row q on, so
 * its distance needs its own rows only up to q (ter_candidate_distance).
 */
static void
ter_fill_back(Ter *T)
{
    const i64 *w = T->words, *ref = T->ref;
    Py_ssize_t n = T->n, m = T->m;
    i64 *last = T->B + T->off[n];
    for (Py_ssize_t j = T->lo[n]; j < T->hi[n]; j++) last[j - T->lo[n]] = m - j; /* hi = m + 1 */
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        Py_ssize_t lo = T->lo[i], hi = T->hi[i], nlo = T->lo[i + 1], nhi = T->hi[i + 1];
        i64 *cur = T->B + T->off[i];
        const i64 *next = T->B + T->off[i + 1];
        i64 word = w[i], right = TER_INF;
        for (Py_ssize_t j = hi - 1; j >= lo; j--) {
            i64 cost = right + 1; /* 10^16 + 1 past the band's last cell: clamped below */
            if (j < m && j + 1 >= nlo && j + 1 < nhi) {
                i64 diag = next[j + 1 - nlo] + (word != ref[j]);
                if (diag < cost) cost = diag;
            }
            if (j >= nlo && j < nhi) {
                i64 deletion = next[j - nlo] + 1;
                if (deletion < cost) cost = deletion;
            }
            if (cost > TER_INF) cost = TER_INF;
            cur[j - lo] = cost;
            right = cost;
        }
    }
    T->back = 1;
}

/* The alignment and error prefix sums of the current words (their rows in M). */
static void
ter_align(Ter *T)
{
    const i64 *w = T->words, *ref = T->ref, *M = T->M;
    Py_ssize_t i = T->n, j = T->m, k = 0;
    while (i > 0 || j > 0) {
        unsigned char op;
        if (i == 0) {
            op = 3; /* a reference word only */
        } else if (j == 0) {
            op = 2; /* a hypothesis word only */
        } else {
            i64 cost = ter_at(T, M, i, j);
            int sub = w[i - 1] != ref[j - 1];
            if (ter_at(T, M, i - 1, j - 1) + sub == cost)
                op = (unsigned char)sub;
            else if (ter_at(T, M, i - 1, j) + 1 == cost)
                op = 2;
            else
                op = 3;
        }
        T->ops[k++] = op;
        if (op <= 1) {
            i--;
            j--;
        } else if (op == 2) {
            i--;
        } else {
            j--;
        }
    }
    Py_ssize_t pos_hyp = -1, h = 0, r = 0;
    T->hyp_sum[0] = 0;
    T->ref_sum[0] = 0;
    while (k > 0) {
        unsigned char op = T->ops[--k];
        if (op <= 1) {
            pos_hyp++;
            T->align[r] = pos_hyp;
            T->ref_sum[r + 1] = T->ref_sum[r] + op;
            r++;
            T->hyp_sum[h + 1] = T->hyp_sum[h] + op;
            h++;
        } else if (op == 2) {
            pos_hyp++;
            T->hyp_sum[h + 1] = T->hyp_sum[h] + 1;
            h++;
        } else {
            T->align[r] = pos_hyp;
            T->ref_sum[r + 1] = T->ref_sum[r] + 1;
            r++;
        }
    }
}

/* sacreBLEU's _perform_shift of `w` into `out`. */
static void
ter_perform_shift(const i64 *w, Py_ssize_t n, Py_ssize_t start, Py_ssize_t length,
                  Py_ssize_t target, i64 *out)
{
    Py_ssize_t k = 0;
#define TER_COPY(a, b)                                                                             \
    do {                                                                                           \
        Py_ssize_t a_ = (a), b_ = (b) < n ? (b) : n;                                               \
        for (Py_ssize_t x_ = a_; x_ < b_; x_++) out[k++] = w[x_];                                  \
    } while (0)
    if (target < start) {
        TER_COPY(0, target);
        TER_COPY(start, start + length);
        TER_COPY(target, start);
        TER_COPY(start + length, n);
    } else if (target > start + length) {
        TER_COPY(0, start);
        TER_COPY(start + length, target);
        TER_COPY(start, start + length);
        TER_COPY(target, n);
    } else {
        TER_COPY(0, start);
        TER_COPY(start + length, length + target);
        TER_COPY(start, start + length);
        TER_COPY(length + target, n);
    }
#undef TER_COPY
}

/* The edit distance of T->shifted: its rows from the last one it shares with the words up
 * to the first from which it equals them again, q, then min over row q of its cost there
 * plus the current words' cost to the end (ter_fill_back). */
static i64
ter_candidate_distance(Ter *T, Py_ssize_t from)
{
    Py_ssize_t n = T->n, p = from, q = n;
    while (p < n && T->shifted[p] == T->words[p]) p++;
    if (p == n) return ter_at(T, T->M, n, T->m);
    while (q > p && T->shifted[q - 1] == T->words[q - 1]) q--;
    if (n - q < TER_BACK_MIN) q = n; /* a short rest: its rows cost less than B */
    ter_fill(T, T->shifted, p, q, T->M, T->S);
    if (q == n) return ter_at(T, T->S, n, T->m);
    if (!T->back) ter_fill_back(T);
    const i64 *fwd = T->S + T->off[q], *back = T->B + T->off[q];
    i64 best = 2 * TER_INF;
    for (Py_ssize_t k = 0; k < T->hi[q] - T->lo[q]; k++) {
        i64 through = fwd[k] + back[k];
        if (through < best) best = through;
    }
    return best;
}

typedef struct {
    i64 gain;
    Py_ssize_t length, start, target;
} TerShift;

/* sacreBLEU's _shift of T->words: 1 and the best shift in *best, or 0 when there is no
 * candidate; *checked counts the candidates of every search. */
static int
ter_search(Ter *T, Py_ssize_t *checked, TerShift *best)
{
    const i64 *w = T->words, *ref = T->ref;
    Py_ssize_t n = T->n, m = T->m;
    const Py_ssize_t *align = T->align, *hs = T->hyp_sum, *rs = T->ref_sum;
    i64 pre = ter_at(T, T->M, n, m);
    int found = 0;
    ter_align(T);
    for (Py_ssize_t sh = 0; sh < n; sh++) {
        Py_ssize_t r_lo = sh - TER_MAX_SHIFT_DIST > 0 ? sh - TER_MAX_SHIFT_DIST : 0;
        Py_ssize_t r_hi = sh + TER_MAX_SHIFT_DIST < m - 1 ? sh + TER_MAX_SHIFT_DIST : m - 1;
        for (Py_ssize_t sr = r_lo; sr <= r_hi; sr++) {
            Py_ssize_t length = 0;
            while (length < TER_MAX_SHIFT_SIZE && w[sh + length] == ref[sr + length]) {
                length++;
                /* a hypothesis error and a reference error in the block, and not where
                 * the reference's first word is aligned already */
                if (hs[sh + length] != hs[sh] && rs[sr + length] != rs[sr] &&
                    !(sh <= align[sr] && align[sr] < sh + length)) {
                    Py_ssize_t previous_target = -1;
                    for (Py_ssize_t offset = -1; offset < length; offset++) {
                        Py_ssize_t target = sr + offset == -1 ? 0 : align[sr + offset] + 1;
                        if (target == previous_target) continue;
                        previous_target = target;
                        ter_perform_shift(w, n, sh, length, target, T->shifted);
                        i64 gain = pre - ter_candidate_distance(T, sh < target ? sh : target);
                        (*checked)++;
                        if (!found || gain > best->gain ||
                            (gain == best->gain &&
                             (length > best->length ||
                              (length == best->length &&
                               (sh < best->start ||
                                (sh == best->start && target < best->target)))))) {
                            found = 1;
                            best->gain = gain;
                            best->length = length;
                            best->start = sh;
                            best->target = target;
                        }
                    }
                    if (*checked >= TER_MAX_CANDIDATES) return found;
                }
                if (sh + length == n || sr + length == m) break;
            }
        }
    }
    return found;
}

/* (edits) of hypothesis `hyp` (n ids) against `ref` (m > 0 ids): shifts applied while the
 * best one lowers the distance, then the distance; -1 if out of memory. */
static i64
ter_pair(Ter *W, const i64 *hyp, Py_ssize_t n, const i64 *ref, Py_ssize_t m)
{
    if (ter_init(W, ref, m, n) < 0) return -1;
#define T (*W)
    memcpy(T.words, hyp, (size_t)n * sizeof(i64));
    ter_fill(&T, T.words, 0, n, T.M, T.M);
    i64 shifts = 0;
    Py_ssize_t checked = 0;
    for (;;) {
        TerShift best = {0, 0, 0, 0};
        int found = ter_search(&T, &checked, &best);
        if (checked >= TER_MAX_CANDIDATES || !found || best.gain <= 0) break;
        shifts++;
        ter_perform_shift(T.words, n, best.start, best.length, best.target, T.shifted);
        Py_ssize_t p = best.start < best.target ? best.start : best.target;
        while (p < n && T.shifted[p] == T.words[p]) p++;
        memcpy(T.words, T.shifted, (size_t)n * sizeof(i64));
        ter_fill(&T, T.words, p, n, T.M, T.M);
        T.back = 0;
    }
    return shifts + ter_at(&T, T.M, n, m);
#undef T
}

/* The type name of x for messages (type(x).__name__). */
static PyObject *
type_name(PyObject *x)
{
    return PyType_GetName(Py_TYPE(x));
}

/* TypeError "<what> must be <expected>, got <type name>"; `what` is a printf format with
 * up to three indexes. */
static void
ter_type_error(PyObject *x, const char *expected, const char *field, Py_ssize_t a, Py_ssize_t b,
               Py_ssize_t c, int depth)
{
    PyObject *name = type_name(x);
    if (!name) return;
    if (depth == 0)
        PyErr_Format(PyExc_TypeError, "%s must be %s, got %U", field, expected, name);
    else if (depth == 1)
        PyErr_Format(PyExc_TypeError, "%s[%zd] must be %s, got %U", field, a, expected, name);
    else if (depth == 2)
        PyErr_Format(PyExc_TypeError, "%s[%zd][%zd] must be %s, got %U", field, a, b, expected,
                     name);
    else
        PyErr_Format(PyExc_TypeError, "%s[%zd][%zd][%zd] must be %s, got %U", field, a, b, c,
                     expected, name);
    Py_DECREF(name);
}

static inline int
is_seq(PyObject *x)
{
    return PyList_Check(x) || PyTuple_Check(x);
}

static inline Py_ssize_t
seq_len(PyObject *x)
{
    return PyList_Check(x) ? PyList_GET_SIZE(x) : PyTuple_GET_SIZE(x);
}

static inline PyObject *
seq_item(PyObject *x, Py_ssize_t i)
{
    return PyList_Check(x) ? PyList_GET_ITEM(x, i) : PyTuple_GET_ITEM(x, i);
}

/* Check that `ids` is a list or tuple of int (its index path in the message) and count them. */
static int
ter_check_ids(PyObject *ids, const char *field, Py_ssize_t a, Py_ssize_t b, int depth,
              size_t *total)
{
    if (!is_seq(ids)) {
        ter_type_error(ids, "a list or tuple of int", field, a, b, 0, depth);
        return -1;
    }
    Py_ssize_t len = seq_len(ids);
    for (Py_ssize_t k = 0; k < len; k++) {
        PyObject *x = seq_item(ids, k);
        if (!PyLong_Check(x)) {
            if (depth == 1)
                ter_type_error(x, "an int", field, a, k, 0, 2);
            else
                ter_type_error(x, "an int", field, a, b, k, 3);
            return -1;
        }
    }
    *total += (size_t)len;
    return 0;
}

/* Copy the ids of `ids` (checked) to out; -1 with OverflowError naming the id if one is
 * outside the 64-bit range. */
static int
ter_copy_ids(PyObject *ids, i64 *out, const char *field, Py_ssize_t a, Py_ssize_t b, int depth)
{
    Py_ssize_t len = seq_len(ids);
    for (Py_ssize_t k = 0; k < len; k++) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(seq_item(ids, k), &overflow);
        if (overflow) {
            if (depth == 1)
                PyErr_Format(PyExc_OverflowError,
                             "%s[%zd][%zd] is outside the kernel's 64-bit "
                             "range",
                             field, a, k);
            else
                PyErr_Format(PyExc_OverflowError,
                             "%s[%zd][%zd][%zd] is outside the kernel's "
                             "64-bit range",
                             field, a, b, k);
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) return -1;
        out[k] = (i64)v;
    }
    return 0;
}

/* The number of segments of a TER call's (hypotheses, references): both lists or tuples of
 * the same length; else -1 with TypeError or ValueError naming the argument. */
static Py_ssize_t
ter_segment_count(PyObject *hyps, PyObject *refs)
{
    if (!is_seq(hyps)) {
        ter_type_error(hyps, "a list or tuple", "hypotheses", 0, 0, 0, 0);
        return -1;
    }
    if (!is_seq(refs)) {
        ter_type_error(refs, "a list or tuple", "references", 0, 0, 0, 0);
        return -1;
    }
    Py_ssize_t n = seq_len(hyps);
    if (seq_len(refs) != n) {
        PyErr_Format(PyExc_ValueError, "%zd hypotheses but %zd reference lists", n, seq_len(refs));
        return -1;
    }
    return n;
}

/* A check of one item of a TER call's input (its index path a, b at depth in messages)
 * that adds to *total what the call needs room for; -1 with an exception. */
typedef int (*TerCheck)(PyObject *x, const char *field, Py_ssize_t a, Py_ssize_t b, int depth,
                        size_t *total);

/* Pass 1 of a TER call over its n segments: each hypothesis checked, each references[i] a
 * list or tuple (`segment_type` in the TypeError) of at least one reference, each checked.
 * The number of references, or -1 with an exception. */
static Py_ssize_t
ter_check_input(PyObject *hyps, PyObject *refs, Py_ssize_t n, const char *segment_type,
                TerCheck check, size_t *total)
{
    Py_ssize_t nrefs = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (check(seq_item(hyps, i), "hypotheses", i, 0, 1, total) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *segment = seq_item(refs, i);
        if (!is_seq(segment)) {
            ter_type_error(segment, segment_type, "references", i, 0, 0, 1);
            return -1;
        }
        Py_ssize_t count = seq_len(segment);
        if (count == 0) {
            PyErr_Format(PyExc_ValueError, "references[%zd] has no reference", i);
            return -1;
        }
        for (Py_ssize_t j = 0; j < count; j++)
            if (check(seq_item(segment, j), "references", i, j, 2, total) < 0) return -1;
        nrefs += count;
    }
    return nrefs;
}

KERNEL_FUNCTION(ter_edits, args, "ter_edits(hypotheses, references, /)",
                "sacreBLEU 2.6.0's TER edits of each hypothesis against each of its references.")
{
    PyObject *hyps, *refs, *result = NULL;
    if (!PyArg_ParseTuple(args, "OO:ter_edits", &hyps, &refs)) return NULL;
    Py_ssize_t n = ter_segment_count(hyps, refs);
    if (n < 0) return NULL;
    /* pass 1: types and sizes */
    size_t total = 0;
    Py_ssize_t nrefs =
        ter_check_input(hyps, refs, n, "a list or tuple of id lists", ter_check_ids, &total);
    if (nrefs < 0) return NULL;
    size_t pairs = (size_t)nrefs;
    /* pass 2: the ids, flat; per pair its hypothesis, its reference and the edits */
    i64 *ids = malloc((total ? total : 1) * sizeof(i64));
    Py_ssize_t *hyp_at = malloc(((size_t)n + 1) * sizeof(Py_ssize_t));
    Py_ssize_t *pair_hyp = malloc((pairs ? pairs : 1) * sizeof(Py_ssize_t));
    Py_ssize_t *ref_at = malloc((pairs ? pairs : 1) * sizeof(Py_ssize_t));
    Py_ssize_t *ref_len = malloc((pairs ? pairs : 1) * sizeof(Py_ssize_t));
    i64 *edits = malloc((pairs ? pairs : 1) * sizeof(i64));
    if (!ids || !hyp_at || !pair_hyp || !ref_at || !ref_len || !edits) {
        PyErr_NoMemory();
        goto done;
    }
    size_t at = 0, p = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *hyp = seq_item(hyps, i);
        if (ter_copy_ids(hyp, ids + at, "hypotheses", i, 0, 1) < 0) goto done;
        hyp_at[i] = (Py_ssize_t)at;
        at += (size_t)seq_len(hyp);
    }
    hyp_at[n] = (Py_ssize_t)at;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *segment = seq_item(refs, i);
        for (Py_ssize_t j = 0; j < seq_len(segment); j++, p++) {
            PyObject *ref = seq_item(segment, j);
            if (ter_copy_ids(ref, ids + at, "references", i, j, 2) < 0) goto done;
            pair_hyp[p] = i;
            ref_at[p] = (Py_ssize_t)at;
            ref_len[p] = seq_len(ref);
            at += (size_t)ref_len[p];
        }
    }
    int failed = 0;
    Ter T;
    memset(&T, 0, sizeof T);
    Py_BEGIN_ALLOW_THREADS for (size_t q = 0; q < pairs && !failed; q++)
    {
        Py_ssize_t h = pair_hyp[q], hn = hyp_at[h + 1] - hyp_at[h];
        if (ref_len[q] == 0) {
            edits[q] = hn; /* an empty reference: one edit per hypothesis word */
            continue;
        }
        edits[q] = ter_pair(&T, ids + hyp_at[h], hn, ids + ref_at[q], ref_len[q]);
        if (edits[q] < 0) failed = 1;
    }
    ter_free(&T);
    Py_END_ALLOW_THREADS if (failed)
    {
        PyErr_NoMemory();
        goto done;
    }
    result = PyList_New(n);
    if (!result) goto done;
    p = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t count = seq_len(seq_item(refs, i));
        PyObject *segment = PyTuple_New(count);
        if (!segment) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, segment);
        for (Py_ssize_t j = 0; j < count; j++, p++) {
            PyObject *pair = Py_BuildValue("(Ln)", (long long)edits[p], ref_len[p]);
            if (!pair) {
                Py_CLEAR(result);
                goto done;
            }
            PyTuple_SET_ITEM(segment, j, pair);
        }
    }
done:
    FREE_EACH(free, ids, hyp_at, pair_hyp, ref_at, ref_len, edits);
    return result;
}

/* TER from texts: words split on whitespace and interned by content inside the kernel.
 * A word is a maximal run of code points that are not whitespace (is_space: str.split()'s
 * test), read in each str's own kind; two words are the same id exactly when their code
 * points are equal (str equality), compared across kinds where they differ.  Ids are per
 * call, which is all TER needs: words are compared only within a segment. */

typedef struct {
    u64 hash;
    size_t start, len; /* the first word with these code points: in text `text` */
    size_t text;
    i64 id;
} TerWord;

typedef struct {
    Py_ssize_t n;      /* segments */
    size_t texts;      /* texts (hypotheses, then the references in order) */
    PyObject **held;   /* texts, referenced for the call */
    size_t *ref_at;    /* n + 1: the segment's first text among the references */
    size_t *text_word; /* texts + 1: the text's first word */
    i64 *ids;          /* each word's id */
    size_t words, ids_cap;
    TerWord *table; /* distinct words, linear probing; len 0 = empty */
    size_t table_mask, distinct;
    i64 *edits, *lengths; /* n: the fewest edits, the sum of the reference lengths */
    int lower;            /* fold code points under U+0100 by mtk_lower1 (see there) */
    Ter work;             /* the workspace of every pair */
} TerText;

static inline Py_UCS4
ter_fold(const TerText *X, Py_UCS4 c)
{
    return X->lower && c < 256 ? mtk_lower1[c] : c;
}

static void
ter_text_free(TerText *X)
{
    FREE_EACH(free, X->ref_at, X->text_word, X->ids, X->table, X->edits, X->lengths);
    ter_free(&X->work);
}

/* Whether code points [a, a + len) of text ta equal [b, b + len) of text tb (folded by
 * ter_fold when X->lower). */
static inline int
ter_same_code_points(const TerText *X, PyObject *ta, size_t a, PyObject *tb, size_t b, size_t len)
{
    int ka = PyUnicode_KIND(ta), kb = PyUnicode_KIND(tb);
    const void *da = PyUnicode_DATA(ta), *db = PyUnicode_DATA(tb);
    if (ka == kb && !X->lower)
        return memcmp((const char *)da + a * ka, (const char *)db + b * kb, len * ka) == 0;
    for (size_t k = 0; k < len; k++)
        if (ter_fold(X, PyUnicode_READ(ka, da, a + k)) !=
            ter_fold(X, PyUnicode_READ(kb, db, b + k)))
            return 0;
    return 1;
}

/* Double the table of distinct words; -1 if out of memory. */
static int
ter_text_grow(TerText *X)
{
    size_t size = X->table ? 2 * (X->table_mask + 1) : 4096, mask = size - 1;
    TerWord *table = calloc(size, sizeof(TerWord));
    if (!table) return -1;
    if (X->table) {
        for (size_t k = 0; k <= X->table_mask; k++) {
            TerWord *e = &X->table[k];
            if (e->len == 0) continue;
            size_t slot = (size_t)e->hash & mask;
            while (table[slot].len) slot = (slot + 1) & mask;
            table[slot] = *e;
        }
        free(X->table);
    }
    X->table = table;
    X->table_mask = mask;
    return 0;
}

/* The id of word [start, start + len) of text t (hash h), added if new; -1 if out of
 * memory. */
static inline int
ter_text_word(TerText *X, size_t t, size_t start, size_t len, u64 h)
{
    if (X->words == X->ids_cap) {
        size_t cap = X->ids_cap ? 2 * X->ids_cap : 4096;
        i64 *ids = realloc(X->ids, cap * sizeof(i64));
        if (!ids) return -1;
        X->ids = ids;
        X->ids_cap = cap;
    }
    size_t slot = (size_t)h & X->table_mask;
    for (;;) {
        TerWord *e = &X->table[slot];
        if (e->len == 0) {
            e->hash = h;
            e->start = start;
            e->len = len;
            e->text = t;
            e->id = (i64)X->distinct++;
            X->ids[X->words++] = e->id;
            if (2 * X->distinct > X->table_mask + 1 && ter_text_grow(X) < 0) return -1;
            return 0;
        }
        if (e->hash == h && e->len == len &&
            ter_same_code_points(X, X->held[e->text], e->start, X->held[t], start, len)) {
            X->ids[X->words++] = e->id;
            return 0;
        }
        slot = (slot + 1) & X->table_mask;
    }
}

/* The words of text t, in its kind TYPE, hashed over their code points (FNV-1a). */
#define TER_SPLIT(TYPE)                                                                            \
    do {                                                                                           \
        const TYPE *d = (const TYPE *)PyUnicode_DATA(text);                                        \
        size_t i = 0;                                                                              \
        while (i < len) {                                                                          \
            while (i < len && is_space(d[i])) i++;                                                 \
            if (i == len) break;                                                                   \
            size_t start = i;                                                                      \
            u64 h = 0xCBF29CE484222325ULL;                                                         \
            while (i < len && !is_space(d[i])) {                                                   \
                h = (h ^ ter_fold(X, d[i])) * 0x100000001B3ULL;                                    \
                i++;                                                                               \
            }                                                                                      \
            if (ter_text_word(X, t, start, i - start, mix64(h, i - start)) < 0) return -1;         \
        }                                                                                          \
    } while (0)

/* Split every text and intern its words (no Python API: called without the GIL); -1 if out
 * of memory. */
static int
ter_text_intern(TerText *X)
{
    X->text_word = malloc((X->texts + 1) * sizeof(size_t));
    if (!X->text_word || ter_text_grow(X) < 0) return -1;
    for (size_t t = 0; t < X->texts; t++) {
        PyObject *text = X->held[t];
        size_t len = (size_t)PyUnicode_GET_LENGTH(text);
        X->text_word[t] = X->words;
        switch (PyUnicode_KIND(text)) {
        case PyUnicode_1BYTE_KIND:
            TER_SPLIT(Py_UCS1);
            break;
        case PyUnicode_2BYTE_KIND:
            TER_SPLIT(Py_UCS2);
            break;
        default:
            TER_SPLIT(Py_UCS4);
            break;
        }
    }
    X->text_word[X->texts] = X->words;
    return 0;
}
#undef TER_SPLIT

/* Per segment the fewest edits over its references and the sum of their lengths (no Python
 * API); -1 if out of memory. */
static int
ter_text_segments(TerText *X)
{
    X->edits = malloc(((size_t)X->n + 1) * sizeof(i64));
    X->lengths = malloc(((size_t)X->n + 1) * sizeof(i64));
    if (!X->edits || !X->lengths) return -1;
    for (Py_ssize_t i = 0; i < X->n; i++) {
        size_t h = (size_t)i, hw = X->text_word[h];
        Py_ssize_t hn = (Py_ssize_t)(X->text_word[h + 1] - hw);
        i64 best = 0, lengths = 0;
        for (size_t r = X->ref_at[i]; r < X->ref_at[i + 1]; r++) {
            size_t t = (size_t)X->n + r, rw = X->text_word[t];
            Py_ssize_t rn = (Py_ssize_t)(X->text_word[t + 1] - rw);
            /* an empty reference: one edit per hypothesis word */
            i64 edits = rn == 0 ? hn : ter_pair(&X->work, X->ids + hw, hn, X->ids + rw, rn);
            if (edits < 0) return -1;
            if (r == X->ref_at[i] || edits < best) best = edits;
            lengths += rn;
        }
        X->edits[i] = best;
        X->lengths[i] = lengths;
    }
    return 0;
}

/* Check that `x` is a str (its index path in the message) and ready (a TerCheck: nothing
 * to add to *total). */
static int
ter_check_text(PyObject *x, const char *field, Py_ssize_t a, Py_ssize_t b, int depth, size_t *total)
{
    (void)total;
    if (!PyUnicode_Check(x)) {
        ter_type_error(x, "a str", field, a, b, 0, depth);
        return -1;
    }
    return ready(x);
}

KERNEL_FUNCTION(ter_statistics_text, args,
                "ter_statistics_text(hypotheses, references, lower=False, /)",
                "sacreBLEU 2.6.0's TER segment statistics of tokenized texts.")
{
    PyObject *hyps, *refs, *result = NULL;
    int lower = 0;
    if (!PyArg_ParseTuple(args, "OO|p:ter_statistics_text", &hyps, &refs, &lower)) return NULL;
    if (lower && !mtk_lower1_ok) {
        PyErr_SetString(PyExc_ValueError, "this Python's str.lower cannot be folded here");
        return NULL;
    }
    Py_ssize_t n = ter_segment_count(hyps, refs);
    if (n < 0) return NULL;
    TerText X;
    memset(&X, 0, sizeof X);
    X.n = n;
    X.lower = lower;
    /* pass 1: types and sizes */
    size_t unused = 0;
    Py_ssize_t nrefs =
        ter_check_input(hyps, refs, n, "a list or tuple of str", ter_check_text, &unused);
    if (nrefs < 0) return NULL;
    /* pass 2: the texts, referenced for the call (the lists may change while the GIL is
     * released; the str objects cannot) */
    X.texts = (size_t)n + (size_t)nrefs;
    X.held = malloc((X.texts ? X.texts : 1) * sizeof(PyObject *));
    X.ref_at = malloc(((size_t)n + 1) * sizeof(size_t));
    if (!X.held || !X.ref_at) {
        free(X.held);
        free(X.ref_at);
        return PyErr_NoMemory();
    }
    size_t t = 0;
    for (Py_ssize_t i = 0; i < n; i++) X.held[t++] = seq_item(hyps, i);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *segment = seq_item(refs, i);
        X.ref_at[i] = t - (size_t)n;
        for (Py_ssize_t j = 0; j < seq_len(segment); j++) X.held[t++] = seq_item(segment, j);
    }
    X.ref_at[n] = t - (size_t)n;
    for (size_t k = 0; k < X.texts; k++) Py_INCREF(X.held[k]);
    int failed;
    Py_BEGIN_ALLOW_THREADS failed = ter_text_intern(&X) < 0 || ter_text_segments(&X) < 0;
    Py_END_ALLOW_THREADS for (size_t k = 0; k < X.texts; k++) Py_DECREF(X.held[k]);
    free(X.held);
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyList_New(n);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        double count = (double)(X.ref_at[i + 1] - X.ref_at[i]);
        /* Python's int / int: both exact in a double here, so one correctly rounded
         * division */
        PyObject *pair = Py_BuildValue("(Ld)", (long long)X.edits[i], (double)X.lengths[i] / count);
        if (!pair) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, pair);
    }
done:
    ter_text_free(&X);
    return result;
}

PyMethodDef mtk_ter_methods[] = {
    KERNEL_METHOD(ter_edits, METH_VARARGS),
    KERNEL_METHOD(ter_statistics_text, METH_VARARGS),
    KERNEL_METHODS_END,
};
