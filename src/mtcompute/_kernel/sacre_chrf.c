/*
 * sacre_chrf.c: sacreBLEU 2.6.0's chrF and chrF++ segment statistics, best reference and f-score in
 * doubles: sacrebleu_chrf_counts.
 * Python twin: mtcompute.metrics.chrf.sacrebleu_statistics._sacrebleu_chrf_segment (the pure path
 * of sacrebleu_chrf_statistics).
 */
#include "common.h"

/* ------------------------------------------------------------------------------------ */
/* sacreBLEU's chrF and chrF++ statistics                                                 */
/* ------------------------------------------------------------------------------------ */

/*
 * sacreBLEU 2.6.0's CHRF._compute_segment_statistics (metrics/chrf.py, helpers.py): per
 * reference of a segment, [n_hyp, n_ref, n_match] per order, the character orders (over
 * ''.join(line.split()), or the line as it is with whitespace) then the word orders (over
 * _remove_punctuation's words; a word n-gram is the ' '-joined string of n words, and words
 * hold no whitespace, so the word sequence identifies it), n_hyp 0 where the reference has
 * no n-gram of that order; the reference kept is the first whose _compute_f_score is
 * strictly the greatest.  Words are interned by content within a segment: the hypothesis's
 * get ids 0, 1, ...; a reference word equal to none of them gets a fresh id of its own (it
 * cannot match, so its n-grams need no identity of their own).
 */

/* sacreBLEU's CHRF._PUNCTS (string.punctuation): the 32 ASCII punctuation characters. */
static inline int
is_punct(u32 c)
{
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
           (c >= 0x7B && c <= 0x7E);
}

/*
 * CHRF._compute_f_score of flat [n_hyp, n_ref, n_match] * order statistics, operation by
 * operation as Python evaluates it in doubles (int / int of counts below 2^53 is the
 * correctly rounded quotient, as the division of their exact doubles is).
 */
static NO_FP_CONTRACT double
sacre_f_score(const i64 *st, int order, int beta, int eps_smoothing)
{
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    const i64 b2 = (i64)beta * beta;
    const double eps = 1e-16, factor = (double)b2, one_factor = (double)(1 + b2);
    double score = 0.0, avg_prec = 0.0, avg_rec = 0.0;
    int effective_order = 0;
    for (int i = 0; i < order; i++) {
        i64 n_hyp = st[3 * i], n_ref = st[3 * i + 1], n_match = st[3 * i + 2];
        double prec = n_hyp > 0 ? (double)n_match / (double)n_hyp : eps;
        double rec = n_ref > 0 ? (double)n_match / (double)n_ref : eps;
        double denom = factor * prec + rec;
        score += denom > 0 ? one_factor * prec * rec / denom : eps;
        if (n_hyp > 0 && n_ref > 0) {
            avg_prec += prec;
            avg_rec += rec;
            effective_order++;
        }
    }
    if (eps_smoothing) return 100 * score / order;
    if (effective_order == 0) {
        avg_prec = avg_rec = 0.0;
    } else {
        avg_prec /= effective_order;
        avg_rec /= effective_order;
    }
    if (avg_prec + avg_rec != 0) {
        score = one_factor * avg_prec * avg_rec;
        score /= factor * avg_prec + avg_rec;
        return 100 * score;
    }
    return 0.0;
}

void
mtk_sacre_free(Sacre *S)
{
    mtk_release_held(S->held, (Py_ssize_t)S->nheld);
    PyMem_Free(S->rseg);
    FREE_EACH(free, S->hw, S->rw, S->hid, S->rid, S->wpos, S->wlen, S->wtab, S->wtouched);
}

/* The code points of s[0..n) but whitespace (''.join(s.split())) into out; their count. */
static size_t
drop_space(const Py_UCS4 *s, size_t n, u32 *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        out[k] = s[i];
        k += !is_space(s[i]);
    }
    return k;
}

/* CHRF._remove_punctuation of s[0..n): the words' spans into pos and len; their count.  A
 * piece of str.split() of one code point is a word; of more, one ending in punctuation
 * is the rest and that code point, else one starting with it is that and the rest. */
static size_t
sacre_words(const Py_UCS4 *s, size_t n, u32 *pos, u32 *len)
{
    size_t i = 0, k = 0;
    while (i < n) {
        while (i < n && is_space(s[i])) i++;
        if (i == n) break;
        size_t a = i;
        while (i < n && !is_space(s[i])) i++;
        u32 l = (u32)(i - a);
        if (l > 1 && is_punct(s[i - 1])) {
            pos[k] = (u32)a, len[k++] = l - 1;
            pos[k] = (u32)(i - 1), len[k++] = 1;
        } else if (l > 1 && is_punct(s[a])) {
            pos[k] = (u32)a, len[k++] = 1;
            pos[k] = (u32)(a + 1), len[k++] = l - 1;
        } else {
            pos[k] = (u32)a, len[k++] = l;
        }
    }
    return k;
}

static inline u64
span_hash(const Py_UCS4 *s, u32 pos, u32 len)
{
    return mtk_units_hash((const unsigned char *)(s + pos), (size_t)len * sizeof(Py_UCS4),
                          PyUnicode_4BYTE_KIND);
}

/* The slot of word s[pos..pos+len) (hash h) in the hypothesis's table: its entry, or the
 * empty slot where it belongs. */
static inline u32
word_probe(const Sacre *S, u64 h, const Py_UCS4 *s, u32 pos, u32 len)
{
    u32 mask = (u32)(((u64)1 << S->wbits) - 1), k = (u32)h & mask;
    for (;; k = (k + 1) & mask) {
        const WEnt *e = &S->wtab[k];
        if (!e->id1 || (e->h == h && e->len == len &&
                        memcmp(S->hw + e->pos, s + pos, (size_t)len * sizeof(Py_UCS4)) == 0))
            return k;
    }
}

/* One text's characters (into chars, or the widened text itself with whitespace) and, with
 * W, its words' spans; returns the characters' count. */
static size_t
sacre_text(const Sacre *S, size_t t, Py_UCS4 *wide, u32 *chars, const u32 **cp, size_t *nwords)
{
    /* held text t, or as lines: hypothesis t, or reference (t - n) % nr of segment
     * (t - n) / nr, the line of input 1 + that reference */
    size_t n, nr = S->lines ? (S->rseg[1] - S->rseg[0]) : 0;
    if (!S->lines)
        n = mtk_widen(S->held[t], wide);
    else if (t < (size_t)S->n)
        n = mtk_lines_widen(S->lines, 0, t, wide);
    else
        n = mtk_lines_widen(S->lines, 1 + (Py_ssize_t)((t - (size_t)S->n) % nr),
                            (t - (size_t)S->n) / nr, wide);
    size_t lc = n;
    if (S->whitespace)
        *cp = wide;
    else {
        lc = drop_space(wide, n, chars);
        *cp = chars;
    }
    *nwords = S->W ? sacre_words(wide, n, S->wpos, S->wlen) : 0;
    return lc;
}

/* Segment i's statistics (3 * (C + W) int64, sacreBLEU's order) into out. */
void
mtk_sacre_segment(Sacre *S, Work *w, Py_ssize_t i, i64 *out)
{
    const int C = S->C, W = S->W, K = C + W;
    const u32 *hc, *rc;
    size_t nhw, nrw, nt = 0;
    size_t lh = sacre_text(S, (size_t)i, S->hw, w->cpa, &hc, &nhw);
    u32 next = 0;
    for (size_t k = 0; k < nhw; k++) {
        u32 pos = S->wpos[k], len = S->wlen[k];
        u64 h = span_hash(S->hw, pos, len);
        u32 slot = word_probe(S, h, S->hw, pos, len);
        WEnt *e = &S->wtab[slot];
        if (!e->id1) {
            e->h = h;
            e->pos = pos;
            e->len = len;
            e->id1 = ++next;
            S->wtouched[nt++] = slot;
        }
        S->hid[k] = e->id1 - 1;
    }
    double best = -1.0;
    i64 st[6 * MAX_ORDER], o[3 * MAX_ORDER];
    memset(out, 0, 3 * (size_t)K * sizeof(i64));
    for (size_t j = S->rseg[i]; j < S->rseg[i + 1]; j++) {
        size_t lr = sacre_text(S, (size_t)S->n + j, S->rw, w->cpb, &rc, &nrw);
        mtk_chrf_segment_counts(w, hc, lh, rc, lr, C, o);
        for (int k = 0; k < C; k++) {
            st[3 * k] = o[C + k] ? o[k] : 0;
            st[3 * k + 1] = o[C + k];
            st[3 * k + 2] = o[2 * C + k];
        }
        if (W) {
            u32 fresh = next;
            for (size_t k = 0; k < nrw; k++) {
                u32 pos = S->wpos[k], len = S->wlen[k];
                const WEnt *e =
                    &S->wtab[word_probe(S, span_hash(S->rw, pos, len), S->rw, pos, len)];
                S->rid[k] = e->id1 ? e->id1 - 1 : fresh++;
            }
            mtk_chrf_segment_counts(w, S->hid, nhw, S->rid, nrw, W, o);
            for (int k = 0; k < W; k++) {
                st[3 * (C + k)] = o[W + k] ? o[k] : 0;
                st[3 * (C + k) + 1] = o[W + k];
                st[3 * (C + k) + 2] = o[2 * W + k];
            }
        }
        double f = sacre_f_score(st, K, S->beta, S->eps_smoothing);
        if (f > best) {
            best = f;
            memcpy(out, st, 3 * (size_t)K * sizeof(i64));
        }
    }
    for (size_t t = 0; t < nt; t++) memset(&S->wtab[S->wtouched[t]], 0, sizeof(WEnt));
}

/* Reference text t into S->held; -1 with an exception (TypeError naming the place, or
 * OverflowError for a text too long for the kernel). */
static int
sacre_hold(Sacre *S, PyObject *t, const char *fmt, Py_ssize_t i, Py_ssize_t j)
{
    if (!PyUnicode_Check(t)) {
        PyErr_Format(PyExc_TypeError, fmt, i, j);
        return -1;
    }
    if (ready(t) < 0) return -1;
    size_t len = (size_t)PyUnicode_GET_LENGTH(t);
    if (len >= MAX_TEXT) {
        PyErr_SetString(PyExc_OverflowError, "a text is too long for the kernel");
        return -1;
    }
    Py_INCREF(t);
    S->held[S->nheld++] = t;
    if (len > S->maxlen) S->maxlen = len;
    S->total += len;
    return 0;
}

/* Reference every text of the arguments (hypotheses a list of str, references per segment
 * a list of one or more str) and allocate the scratch.  -1 with an exception. */
static int
sacre_build(Sacre *S, PyObject *hyps, PyObject *refs)
{
    if (!mtk_is_array(hyps) || !mtk_is_array(refs) ||
        mtk_array_size(hyps) != mtk_array_size(refs)) {
        PyErr_SetString(PyExc_ValueError,
                        "hypotheses and references must be lists of the same length");
        return -1;
    }
    Py_ssize_t n = S->n = mtk_array_size(hyps);
    PyObject **hi = mtk_array_items(hyps), **ri = mtk_array_items(refs);
    size_t nref = 0;
    S->rseg = PyMem_Malloc(((size_t)n + 1) * sizeof(size_t));
    if (!S->rseg) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!mtk_is_array(ri[i]) || mtk_array_size(ri[i]) == 0) {
            PyErr_Format(PyExc_ValueError, "references[%zd] must be a list of one or more str", i);
            return -1;
        }
        S->rseg[i] = nref;
        nref += (size_t)mtk_array_size(ri[i]);
    }
    S->rseg[n] = nref;
    S->held = PyMem_Malloc(((size_t)n + nref + 1) * sizeof(PyObject *));
    if (!S->held) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (sacre_hold(S, hi[i], "hypotheses[%zd] is not a str", i, 0) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject **rl = mtk_array_items(ri[i]);
        for (size_t j = 0; j < S->rseg[i + 1] - S->rseg[i]; j++)
            if (sacre_hold(S, rl[j], "references[%zd][%zd] is not a str", i, (Py_ssize_t)j) < 0)
                return -1;
    }
    return mtk_sacre_scratch(S);
}

/* sacre_build's scratch for texts of up to S->maxlen code points (raw: no GIL needed).  -1
 * with an exception. */
int
mtk_sacre_scratch(Sacre *S)
{
    size_t m = S->maxlen + 1;
    S->wbits = table_bits(m);
    S->hw = malloc(m * sizeof(Py_UCS4));
    S->rw = malloc(m * sizeof(Py_UCS4));
    S->hid = malloc(m * sizeof(u32));
    S->rid = malloc(m * sizeof(u32));
    S->wpos = malloc(m * sizeof(u32));
    S->wlen = malloc(m * sizeof(u32));
    S->wtouched = malloc(m * sizeof(u32));
    S->wtab = calloc((size_t)1 << S->wbits, sizeof(WEnt));
    if (!S->hw || !S->rw || !S->hid || !S->rid || !S->wpos || !S->wlen || !S->wtouched ||
        !S->wtab) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Whether the orders and beta of S are ones the kernel takes. */
int
mtk_sacre_options_ok(const Sacre *S)
{
    return S->C >= 0 && S->C <= MAX_ORDER && S->W >= 0 && S->W <= MAX_ORDER && S->C + S->W > 0 &&
           S->beta >= 0 && S->beta <= 1000000;
}

/* Every segment of S (built, with its scratch) counted with a workspace of the pool, without
 * the GIL when nogil: (buffer or None, totals), or NULL with an exception. */
PyObject *
mtk_sacre_answer(Sacre *S, int per_segment, int nogil)
{
    int K = S->C + S->W;
    PyObject *buf, *result = NULL;
    i64 *seg, totals[6 * MAX_ORDER] = {0}, one[6 * MAX_ORDER];
    if (segment_rows(per_segment, S->n, 3 * (size_t)K, &buf, &seg) < 0) return NULL;
    Work *w = mtk_work_get();
    if (!w || mtk_work_chrf(w, S->maxlen) < 0) {
        mtk_work_put(w);
        Py_XDECREF(buf);
        return PyErr_NoMemory();
    }
    PyThreadState *ts = nogil ? PyEval_SaveThread() : NULL;
    for (Py_ssize_t i = 0; i < S->n; i++) {
        i64 *o = seg ? seg + (size_t)i * 3 * K : one;
        mtk_sacre_segment(S, w, i, o);
        for (int k = 0; k < 3 * K; k++) totals[k] += o[k];
    }
    if (ts) PyEval_RestoreThread(ts);
    mtk_work_put(w);
    result = mtk_counts_answer(buf, totals, 3 * K);
    Py_XDECREF(buf);
    return result;
}

KERNEL_FUNCTION(
    sacrebleu_chrf_counts, args,
    "sacrebleu_chrf_counts(hypotheses, references, char_order, word_order, beta, whitespace,\n"
    "                      eps_smoothing, per_segment, /)",
    "sacreBLEU 2.6.0's chrF/chrF++ segment statistics: (buffer or None, totals).")
{
    PyObject *hyps, *refs, *result = NULL;
    int per_segment;
    Sacre S = {0};
    if (!PyArg_ParseTuple(args, "OOiiippp:sacrebleu_chrf_counts", &hyps, &refs, &S.C, &S.W, &S.beta,
                          &S.whitespace, &S.eps_smoothing, &per_segment))
        return NULL;
    if (in_range(mtk_sacre_options_ok(&S), "chrF orders or beta") < 0) return NULL;
    if (sacre_build(&S, hyps, refs) == 0)
        result = mtk_sacre_answer(&S, per_segment, S.total >= NOGIL_WORK);
    mtk_sacre_free(&S);
    return result;
}

PyMethodDef mtk_sacre_chrf_methods[] = {
    KERNEL_METHOD(sacrebleu_chrf_counts, METH_VARARGS),
    KERNEL_METHODS_END,
};
