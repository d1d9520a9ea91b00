/*
 * lines_metrics.c: BLEU and sacreBLEU chrF statistics straight from undecoded UTF-8 lines:
 * bleu_counts_lines, sacrebleu_chrf_lines.
 * Python twins: decoding the lines (lines.c's twins), then bleu_counts_text's and
 * sacrebleu_chrf_counts' twins (mtcompute.metrics.bleu.counts.bleu_line_rows,
 * sacrebleu_chrf_line_rows).
 */
#include "common.h"

/* ------------------------------------------------------------------------------------ */
/* BLEU of undecoded lines                                                                */
/* ------------------------------------------------------------------------------------ */

/* The code points of a checked line (mtk_measure_line) into out (room for line->length). */
static void
decode_ucs4(const unsigned char *p, const LineSpan *line, Py_UCS4 *out)
{
    if (line->maxchar < 0x80) {
        for (size_t i = 0; i < line->bytes; i++) out[i] = p[i];
        return;
    }
    const unsigned char *q = p, *end = p + line->bytes;
    u32 cp = 0;
    for (size_t i = 0; q < end; i++) {
        q += mtk_utf8_seq(q, end, &cp);
        out[i] = cp;
    }
}

size_t
mtk_lines_widen(const struct LinesIn *L, Py_ssize_t f, size_t i, Py_UCS4 *out)
{
    const LineSpan *line = &L->spans[f][i];
    decode_ucs4((const unsigned char *)L->views[f].buf + line->start, line, out);
    return line->length;
}

static void
lines_free(LinesIn *L)
{
    for (Py_ssize_t f = 0; f < L->inputs; f++) {
        if (L->views && L->views[f].obj) PyBuffer_Release(&L->views[f]);
        if (L->spans) free(L->spans[f]);
    }
    PyMem_Free(L->views);
    PyMem_Free(L->spans);
    PyMem_Free(L->caps);
}

/* LinesIn of a call's arguments (hypotheses bytes, references a tuple of bytes): the
 * buffers taken.  -1 with an exception. */
static int
lines_open(LinesIn *L, PyObject *hyps, PyObject *refs)
{
    L->inputs = 1 + PyTuple_GET_SIZE(refs);
    L->views = PyMem_Calloc((size_t)L->inputs, sizeof(Py_buffer));
    L->spans = PyMem_Calloc((size_t)L->inputs, sizeof(LineSpan *));
    L->caps = PyMem_Calloc((size_t)L->inputs, sizeof(size_t));
    if (!L->views || !L->spans || !L->caps) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t f = 0; f < L->inputs; f++) {
        PyObject *o = f ? PyTuple_GET_ITEM(refs, f - 1) : hyps;
        if (PyObject_GetBuffer(o, &L->views[f], PyBUF_SIMPLE) < 0) {
            L->views[f].obj = NULL;
            return -1;
        }
    }
    return 0;
}

/* Pass 1, without Python calls: every input split into exactly n checked lines.  1 when
 * one is not (a line that is not UTF-8, fewer or more lines, a line of 2^32 code points or
 * more), -1 on memory failure, else 0 with the sizes mtk_bleu_read_text's mtk_measure_text would
 * add up (code points, a bound on the tokens, the longest line). */
static int
lines_scan(LinesIn *L, size_t n, int tok13a, size_t *units, size_t *bound, size_t *maxlen)
{
    for (Py_ssize_t f = 0; f < L->inputs; f++) {
        size_t got = 0, stop = 0, size = (size_t)L->views[f].len;
        Py_ssize_t bad = -1;
        if (mtk_scan_lines(L->views[f].buf, size, 0, n, 1, &L->spans[f], &got, &L->caps[f], &stop,
                           &bad) < 0)
            return -1;
        if (bad >= 0 || got != n || stop != size) return 1;
        for (size_t i = 0; i < n; i++) {
            size_t len = L->spans[f][i].length;
            if (len >= UINT32_MAX) return 1;
            *units += len;
            *bound += tok13a ? len + 1 : len / 2 + 1;
            if (len > *maxlen) *maxlen = len;
        }
    }
    return 0;
}

/* One line of input f decoded and its tokens pushed (as mtk_tok13a_text or mtk_split_text). */
static void
push_line(BleuIn *b, const LinesIn *L, Py_ssize_t f, Py_ssize_t i, int tok13a, size_t *used)
{
    const LineSpan *line = &L->spans[f][i];
    const unsigned char *p = (const unsigned char *)L->views[f].buf + line->start;
    if (tok13a) {
        decode_ucs4(p, line, b->scratch);
        mtk_tok13a_units(b, line->length, used);
    } else {
        decode_ucs4(p, line, b->text + *used);
        mtk_split_units(b, line->length, used);
    }
}

/* mtk_bleu_tokenize of lines, in its reading order: every hypothesis, then per segment its
 * references (input f holds reference f - 1 of every segment).  1 = a text too long. */
static int
bleu_tokenize_lines(BleuIn *b, const LinesIn *L, Py_ssize_t n, int tok13a, Problem *pb)
{
    size_t used = 0;
    Py_ssize_t nr = L->inputs - 1;
    int rc;
    pb->field = "hypotheses";
    for (Py_ssize_t i = 0; i < n; i++) {
        b->hoff[i] = b->ntok;
        push_line(b, L, 0, i, tok13a, &used);
        if ((rc = mtk_end_hypothesis(b, i, pb))) return rc;
    }
    b->hoff[n] = b->ntok;
    pb->field = "references";
    for (Py_ssize_t i = 0; i < n; i++) {
        b->rseg[i] = b->nref;
        for (Py_ssize_t j = 0; j < nr; j++) {
            b->roff[b->nref] = b->ntok;
            push_line(b, L, 1 + j, i, tok13a, &used);
            if ((rc = mtk_end_reference(b, i, j, pb))) return rc;
        }
        mtk_end_segment(b, i);
    }
    mtk_end_input(b, n);
    return 0;
}

/* bleu_counts_lines' arrays of b (allocated without the GIL: raw), freed the same way */
static int
bleu_lines_alloc(BleuIn *b, size_t n, size_t nref, size_t units, size_t bound, size_t maxlen)
{
    b->text = PyMem_RawMalloc((units ? units : 1) * sizeof(Py_UCS4));
    b->tpos = PyMem_RawMalloc((bound ? bound : 1) * sizeof(size_t));
    b->tlen = PyMem_RawMalloc((bound ? bound : 1) * sizeof(u32));
    b->hash = PyMem_RawMalloc((bound ? bound : 1) * sizeof(u64));
    b->hoff = PyMem_RawMalloc((n + 1) * sizeof(size_t));
    b->rseg = PyMem_RawMalloc((n + 1) * sizeof(size_t));
    b->roff = PyMem_RawMalloc((nref + 1) * sizeof(size_t));
    b->scratch = PyMem_RawMalloc((maxlen + 1) * sizeof(Py_UCS4));
    b->units = units;
    return b->text && b->tpos && b->tlen && b->hash && b->hoff && b->rseg && b->roff && b->scratch
               ? 0
               : -1;
}

static void
bleu_lines_free(BleuIn *b, LinesIn *L)
{
    FREE_EACH(PyMem_RawFree, b->text, b->tpos, b->tlen, b->hash, b->hoff, b->rseg, b->roff,
              b->scratch);
    for (Py_ssize_t f = 0; f < L->inputs; f++) {
        free(L->spans[f]);
        L->spans[f] = NULL;
    }
}

KERNEL_FUNCTION(
    bleu_counts_lines, args,
    "bleu_counts_lines(hypotheses, references, count, max_order, per_segment, tokenizer, /)",
    "bleu_counts_text of undecoded lines: (buffer or None, totals), or None.")
{
    PyObject *hyps, *refs, *buf = NULL, *result = NULL;
    Py_ssize_t n;
    int N, per_segment, tok13a;
    const char *tokenizer;
    if (!PyArg_ParseTuple(args, "OO!nips:bleu_counts_lines", &hyps, &PyTuple_Type, &refs, &n, &N,
                          &per_segment, &tokenizer))
        return NULL;
    if ((tok13a = mtk_tok13a_named(tokenizer)) < 0) return NULL;
    if (!order_ok(N) || n < 0 || PyTuple_GET_SIZE(refs) < 1) {
        PyErr_SetString(PyExc_ValueError, "max_order, count or references out of range");
        return NULL;
    }
    LinesIn L = {0};
    BleuIn b = {0};
    Problem pb = {0};
    pb.pos = -1;
    Py_ssize_t nr = PyTuple_GET_SIZE(refs);
    if (lines_open(&L, hyps, refs) < 0) {
        lines_free(&L);
        return NULL;
    }
    /* pass 1 without the GIL: the lines checked and measured, the arrays allocated */
    size_t units = 0, bound = 0, maxlen = 0, nref = (size_t)n * (size_t)nr;
    int rc, nomem = 0;
    Py_BEGIN_ALLOW_THREADS rc = lines_scan(&L, (size_t)n, tok13a, &units, &bound, &maxlen);
    if (rc == 0 && bound >= UINT32_MAX - 1) rc = 1;
    if (rc == 0) rc = bleu_lines_alloc(&b, (size_t)n, nref, units, bound, maxlen);
    Py_END_ALLOW_THREADS i64 totals[2 + 2 * MAX_ORDER] = {0}, *seg = NULL;
    Work *w = NULL;
    if (rc == 0 && segment_rows(per_segment, n, 2 + 2 * (size_t)N, &buf, &seg) < 0)
        rc = -2; /* the exception is set */
    if (rc == 0 && !(w = mtk_work_get())) rc = -1;
    /* pass 2 without the GIL: decoded, tokenized and counted; then everything freed */
    Py_BEGIN_ALLOW_THREADS if (rc == 0) rc = bleu_tokenize_lines(&b, &L, n, tok13a, &pb);
    if (rc == 0) {
        nomem = mtk_work_bleu(w, b.maxhyp, b.maxrefsum) < 0;
        if (!nomem) mtk_bleu_count_loop(w, &b, n, N, seg, totals);
    }
    bleu_lines_free(&b, &L);
    Py_END_ALLOW_THREADS mtk_work_put(w);
    if (rc == -1 || nomem)
        PyErr_NoMemory();
    else if (rc > 0) /* not lines of UTF-8, or a text too long: the str path says which */
        result = Py_NewRef(Py_None);
    else if (rc == 0)
        result = mtk_counts_answer(buf, totals, 2 + 2 * N);
    Py_XDECREF(buf);
    lines_free(&L);
    return result;
}

KERNEL_FUNCTION(
    sacrebleu_chrf_lines, args,
    "sacrebleu_chrf_lines(hypotheses, references, count, char_order, word_order, beta,\n"
    "                     whitespace, eps_smoothing, per_segment, /)",
    "sacrebleu_chrf_counts of undecoded lines: (buffer or None, totals), or None.")
{
    PyObject *hyps, *refs, *result = NULL;
    Py_ssize_t n;
    int per_segment;
    Sacre S = {0};
    LinesIn L = {0};
    if (!PyArg_ParseTuple(args, "OO!niiippp:sacrebleu_chrf_lines", &hyps, &PyTuple_Type, &refs, &n,
                          &S.C, &S.W, &S.beta, &S.whitespace, &S.eps_smoothing, &per_segment))
        return NULL;
    if (in_range(mtk_sacre_options_ok(&S) && n >= 0 && PyTuple_GET_SIZE(refs) >= 1,
                 "chrF orders, beta, count or references") < 0)
        return NULL;
    Py_ssize_t nr = PyTuple_GET_SIZE(refs);
    S.n = n;
    S.rseg = PyMem_Malloc(((size_t)n + 1) * sizeof(size_t));
    if (!S.rseg) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i <= n; i++) S.rseg[i] = (size_t)i * (size_t)nr;
    if (lines_open(&L, hyps, refs) < 0) goto done;
    size_t units = 0, bound = 0, maxlen = 0;
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = lines_scan(&L, (size_t)n, 0, &units, &bound, &maxlen);
    if (rc == 0 && maxlen >= MAX_TEXT) rc = 1;
    Py_END_ALLOW_THREADS if (rc < 0)
    {
        PyErr_NoMemory();
        goto done;
    }
    if (rc > 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    S.maxlen = maxlen;
    S.total = units;
    S.lines = &L;
    if (mtk_sacre_scratch(&S) == 0) result = mtk_sacre_answer(&S, per_segment, 1);
done:
    mtk_sacre_free(&S);
    lines_free(&L);
    return result;
}

PyMethodDef mtk_lines_metrics_methods[] = {
    KERNEL_METHOD(bleu_counts_lines, METH_VARARGS),
    KERNEL_METHOD(sacrebleu_chrf_lines, METH_VARARGS),
    KERNEL_METHODS_END,
};
