/*
 * bleu.c: BLEU sentence statistics (Papineni et al. 2002, section 2.1) from token lists or from
 * texts split on whitespace or with 13a: bleu_counts, bleu_counts_text, bleu_sentence.
 * Python twin: mtcompute.metrics.bleu.statistics.sentence_statistics (through mtcompute.counting's
 * BLEU functions; texts tokenized by mtcompute.core.tokenizers first).
 */
#include "common.h"

CHAIN_TABLE(bent, BEnt)

/* ------------------------------------------------------------------------------------ */
/* BLEU statistics                                                                        */
/* ------------------------------------------------------------------------------------ */

/* Hash of a token's code units (kind 1, 2 or 4 bytes each). */
u64
mtk_units_hash(const unsigned char *p, size_t n, int kind)
{
    u64 h = 0x243F6A8885A308D3ULL ^ ((u64)kind << 56) ^ (u64)n;
    while (n >= 8) {
        u64 v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    if (n) {
        u64 v = 0;
        memcpy(&v, p, n);
        h = (h ^ v) * 0x9E3779B97F4A7C15ULL;
    }
    return mix64(h, 0);
}

static inline u64
tok_hash(PyObject *t)
{
    int kind = PyUnicode_KIND(t);
    return mtk_units_hash(PyUnicode_DATA(t), (size_t)PyUnicode_GET_LENGTH(t) * (size_t)kind, kind);
}

/* str equality as CPython's: same kind, same length, same bytes. */
static inline int
tok_eq(PyObject *a, PyObject *b)
{
    if (a == b) return 1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(a);
    int kind = PyUnicode_KIND(a);
    return n == PyUnicode_GET_LENGTH(b) && kind == PyUnicode_KIND(b) &&
           memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * kind) == 0;
}

static void
bleu_in_free(BleuIn *b)
{
    mtk_release_held(b->tok, (Py_ssize_t)b->ntok);
    FREE_EACH(PyMem_Free, b->text, b->tpos, b->tlen, b->hoff, b->rseg, b->roff, b->hash);
    mtk_release_held(b->held, (Py_ssize_t)b->nheld);
    PyMem_Free(b->scratch);
}

/* Whether tokens x and y of the input are equal (as str). */
static inline int
bleu_tok_eq(const BleuIn *b, size_t x, size_t y)
{
    if (b->text)
        return b->tlen[x] == b->tlen[y] && memcmp(b->text + b->tpos[x], b->text + b->tpos[y],
                                                  (size_t)b->tlen[x] * sizeof(Py_UCS4)) == 0;
    return tok_eq(b->tok[x], b->tok[y]);
}

static int
push_tok(BleuIn *b, PyObject *t)
{
    if (b->ntok >= UINT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "too many tokens for the kernel");
        return -1;
    }
    if (b->ntok == b->tok_cap) {
        size_t c = b->tok_cap ? b->tok_cap * 2 : 256;
        if (pymem_resize((void **)&b->tok, c, sizeof(PyObject *)) < 0 ||
            pymem_resize((void **)&b->hash, c, sizeof(u64)) < 0)
            return -1;
        b->tok_cap = c;
    }
    Py_INCREF(t);
    b->hash[b->ntok] = tok_hash(t);
    b->tok[b->ntok++] = t;
    return 0;
}

int
mtk_is_array(PyObject *o)
{
    return PyList_Check(o) || PyTuple_Check(o);
}

Py_ssize_t
mtk_array_size(PyObject *o)
{
    return PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
}

PyObject **
mtk_array_items(PyObject *o)
{
    return PyList_Check(o) ? ((PyListObject *)o)->ob_item : ((PyTupleObject *)o)->ob_item;
}

/* Read the tokens of one token list; 1 on a problem (filled), -1 on an exception. */
static int
read_tokens(BleuIn *b, PyObject *list, int validate, Problem *pb)
{
    Py_ssize_t n = mtk_array_size(list);
    PyObject **items = mtk_array_items(list);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *t = items[k];
        if (!PyUnicode_CheckExact(t)) {
            pb->code = PyUnicode_Check(t) ? "str_subclass" : "not_str";
            pb->idx[pb->depth++] = k;
            return 1;
        }
        if (ready(t) < 0) return -1;
        if (validate) {
            if (PyUnicode_GET_LENGTH(t) == 0) {
                pb->code = "empty";
                pb->idx[pb->depth++] = k;
                return 1;
            }
            Py_ssize_t at = mtk_first_surrogate(t);
            if (at >= 0) {
                pb->code = "surrogate";
                pb->idx[pb->depth++] = k;
                pb->pos = at;
                return 1;
            }
        }
        if (push_tok(b, t) < 0) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* The references of one segment: an array of at least one item (its items and their count
 * in *nr), or NULL with the problem (not_array, no_references) in *pb. */
static PyObject **
segment_references(PyObject *segment, Problem *pb, Py_ssize_t *nr)
{
    if (!mtk_is_array(segment)) {
        pb->code = "not_array";
        return NULL;
    }
    *nr = mtk_array_size(segment);
    if (*nr == 0) {
        pb->code = "no_references";
        return NULL;
    }
    return mtk_array_items(segment);
}

/* Point *pb at item i of its field (depth 1) or at item j of that item (depth 2). */
static inline void
problem_at(Problem *pb, int depth, Py_ssize_t i, Py_ssize_t j)
{
    pb->depth = depth;
    pb->idx[0] = i;
    pb->idx[1] = j;
}

/* The reading steps bleu_read and mtk_bleu_read_text share, each after the tokens of one text
 * are pushed.  A text of MAX_TEXT tokens or more is the problem too_long (1). */
int
mtk_end_hypothesis(BleuIn *b, Py_ssize_t i, Problem *pb)
{
    size_t len = b->ntok - b->hoff[i];
    if (len >= MAX_TEXT) {
        problem_at(pb, 1, i, 0);
        pb->code = "too_long";
        return 1;
    }
    if (len > b->maxhyp) b->maxhyp = len;
    return 0;
}

int
mtk_end_reference(BleuIn *b, Py_ssize_t i, Py_ssize_t j, Problem *pb)
{
    if (b->ntok - b->roff[b->nref] >= MAX_TEXT) {
        problem_at(pb, 2, i, j);
        pb->code = "too_long";
        return 1;
    }
    b->nref++;
    return 0;
}

/* mtk_end_segment after the references of segment i; mtk_end_input after the last of n segments. */
void
mtk_end_segment(BleuIn *b, Py_ssize_t i)
{
    size_t sum = b->ntok - b->roff[b->rseg[i]];
    if (sum > b->maxrefsum) b->maxrefsum = sum;
}

void
mtk_end_input(BleuIn *b, Py_ssize_t n)
{
    b->rseg[n] = b->nref;
    b->roff[b->nref] = b->ntok;
}

/* One token list of the input (an array of exact str) pushed; as read_tokens. */
static int
read_token_list(BleuIn *b, PyObject *list, int validate, Problem *pb)
{
    if (!mtk_is_array(list)) {
        pb->code = "not_array";
        return 1;
    }
    return read_tokens(b, list, validate, pb);
}

/* Room in b->roff for one more reference and the end; -1 with an exception. */
static int
reserve_reference(BleuIn *b)
{
    if (b->nref + 1 < b->ref_cap) return 0;
    size_t c = b->ref_cap ? b->ref_cap * 2 : 1024;
    if (pymem_resize((void **)&b->roff, c, sizeof(size_t)) < 0) return -1;
    b->ref_cap = c;
    return 0;
}

/*
 * Flatten hypotheses (all of them first) then references (per segment: an array of one or
 * more token lists).  0 = fine, 1 = problem in *pb, -1 = exception.
 */
static int
bleu_read(PyObject *hyps, PyObject *refs, int validate, BleuIn *b, Problem *pb)
{
    Py_ssize_t n = mtk_array_size(hyps);
    PyObject **hi = mtk_array_items(hyps), **ri = mtk_array_items(refs);
    int rc;
    b->hoff = PyMem_Malloc(((size_t)n + 1) * sizeof(size_t));
    b->rseg = PyMem_Malloc(((size_t)n + 1) * sizeof(size_t));
    b->ref_cap = 64;
    b->roff = PyMem_Malloc(b->ref_cap * sizeof(size_t));
    if (!b->hoff || !b->rseg || !b->roff) {
        PyErr_NoMemory();
        return -1;
    }
    pb->field = "hypotheses";
    for (Py_ssize_t i = 0; i < n; i++) {
        b->hoff[i] = b->ntok;
        problem_at(pb, 1, i, 0);
        if ((rc = read_token_list(b, hi[i], validate, pb)) || (rc = mtk_end_hypothesis(b, i, pb)))
            return rc;
    }
    b->hoff[n] = b->ntok;
    pb->field = "references";
    for (Py_ssize_t i = 0; i < n; i++) {
        problem_at(pb, 1, i, 0);
        b->rseg[i] = b->nref;
        Py_ssize_t nr;
        PyObject **rl = segment_references(ri[i], pb, &nr);
        if (!rl) return 1;
        for (Py_ssize_t j = 0; j < nr; j++) {
            problem_at(pb, 2, i, j);
            if (reserve_reference(b) < 0) return -1;
            b->roff[b->nref] = b->ntok;
            if ((rc = read_token_list(b, rl[j], validate, pb)) ||
                (rc = mtk_end_reference(b, i, j, pb)))
                return rc;
        }
        mtk_end_segment(b, i);
    }
    mtk_end_input(b, n);
    return 0;
}

/* The code points of `s` widened to UCS4 into out (room for len(s)); their count. */
size_t
mtk_widen(PyObject *s, Py_UCS4 *out)
{
    size_t n = (size_t)PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *p = PyUnicode_1BYTE_DATA(s);
        for (size_t i = 0; i < n; i++) out[i] = p[i];
    } else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = PyUnicode_2BYTE_DATA(s);
        for (size_t i = 0; i < n; i++) out[i] = p[i];
    } else {
        memcpy(out, PyUnicode_4BYTE_DATA(s), n * sizeof(Py_UCS4));
    }
    return n;
}

/* Widen `s` into b->text at *used and push its tokens as str.split() makes them: the
 * maximal runs of code points that are not whitespace (Py_UNICODE_ISSPACE, the test
 * str.split() uses).  The caller sized text, tpos, tlen and hash. */
void
mtk_split_text(BleuIn *b, PyObject *s, size_t *used)
{
    mtk_split_units(b, mtk_widen(s, b->text + *used), used);
}

/* mtk_split_text of the n code points already at b->text + *used. */
void
mtk_split_units(BleuIn *b, size_t n, size_t *used)
{
    size_t at = *used;
    const Py_UCS4 *out = b->text + at;
    size_t i = 0;
    while (i < n) {
        while (i < n && is_space(out[i])) i++;
        if (i == n) break;
        size_t start = i;
        while (i < n && !is_space(out[i])) i++;
        push_span(b, at + start, i - start);
    }
    *used = at + n;
}

/* One text of the input for mtk_bleu_read_text's first pass: an exact str; adds its code
 * points and a bound on its tokens (13a: every code point may be one).  0 = fine,
 * 1 = problem in *pb, -1 = exception. */
int
mtk_measure_text(PyObject *s, int tok13a, Problem *pb, BleuIn *b, size_t *bound, size_t *maxlen)
{
    if (!PyUnicode_CheckExact(s)) {
        pb->code = PyUnicode_Check(s) ? "str_subclass" : "not_str";
        return 1;
    }
    if (ready(s) < 0) return -1;
    size_t n = (size_t)PyUnicode_GET_LENGTH(s);
    if (n >= UINT32_MAX) { /* token lengths are u32 */
        pb->code = "too_long";
        return 1;
    }
    b->units += n;
    *bound += tok13a ? n + 1 : n / 2 + 1; /* split: every other code point starts a token */
    if (n > *maxlen) *maxlen = n;
    return 0;
}

/*
 * bleu_read's first step for texts: hypotheses a list of str, references per segment a
 * list of one or more str.  Checks the layout, references every text (b->held, in reading
 * order: every hypothesis, then the references segment by segment; b->rseg the reference
 * range of each segment) and allocates what mtk_bleu_tokenize needs.  Problems: not_array,
 * no_references, not_str, str_subclass, a text of 2^32 code points or more (too_long), in
 * reading order.  0 = fine, 1 = problem in *pb, -1 = exception.
 */
int
mtk_bleu_read_text(PyObject *hyps, PyObject *refs, int tok13a, BleuIn *b, Problem *pb)
{
    Py_ssize_t n = mtk_array_size(hyps);
    PyObject **hi = mtk_array_items(hyps), **ri = mtk_array_items(refs);
    size_t bound = 0, nref = 0, maxlen = 0;
    int rc;
    b->rseg = PyMem_Malloc(((size_t)n + 1) * sizeof(size_t));
    if (!b->rseg) {
        PyErr_NoMemory();
        return -1;
    }
    pb->field = "hypotheses";
    for (Py_ssize_t i = 0; i < n; i++) {
        problem_at(pb, 1, i, 0);
        if ((rc = mtk_measure_text(hi[i], tok13a, pb, b, &bound, &maxlen))) return rc;
    }
    pb->field = "references";
    for (Py_ssize_t i = 0; i < n; i++) {
        problem_at(pb, 1, i, 0);
        Py_ssize_t nr;
        PyObject **rl = segment_references(ri[i], pb, &nr);
        if (!rl) return 1;
        b->rseg[i] = nref;
        for (Py_ssize_t j = 0; j < nr; j++) {
            problem_at(pb, 2, i, j);
            if ((rc = mtk_measure_text(rl[j], tok13a, pb, b, &bound, &maxlen))) return rc;
        }
        nref += (size_t)nr;
    }
    b->rseg[n] = nref;
    if (bound >= UINT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "too many tokens for the kernel");
        return -1;
    }
    b->text = PyMem_Malloc((b->units ? b->units : 1) * sizeof(Py_UCS4));
    b->tpos = PyMem_Malloc(bound * sizeof(size_t));
    b->tlen = PyMem_Malloc(bound * sizeof(u32));
    b->hash = PyMem_Malloc(bound * sizeof(u64));
    b->hoff = PyMem_Malloc(((size_t)n + 1) * sizeof(size_t));
    b->roff = PyMem_Malloc((nref + 1) * sizeof(size_t));
    b->held = PyMem_Malloc(((size_t)n + nref + 1) * sizeof(PyObject *));
    if (tok13a) b->scratch = PyMem_Malloc((maxlen + 1) * sizeof(Py_UCS4));
    if (!b->text || !b->tpos || !b->tlen || !b->hash || !b->hoff || !b->roff || !b->held ||
        (tok13a && !b->scratch)) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(hi[i]);
        b->held[b->nheld++] = hi[i];
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject **rl = mtk_array_items(ri[i]);
        for (size_t j = 0; j < b->rseg[i + 1] - b->rseg[i]; j++) {
            Py_INCREF(rl[j]);
            b->held[b->nheld++] = rl[j];
        }
    }
    return 0;
}

/* mtk_bleu_read_text's second step, without Python calls (so without the GIL): the tokens of
 * every held text, split on whitespace or by 13a.  0 = fine, 1 = problem (too_long, a
 * text of MAX_TEXT tokens or more) in *pb. */
int
mtk_bleu_tokenize(BleuIn *b, Py_ssize_t n, int tok13a, Problem *pb)
{
    size_t used = 0;
    int rc;
    pb->field = "hypotheses";
    for (Py_ssize_t i = 0; i < n; i++) {
        b->hoff[i] = b->ntok;
        if (tok13a)
            mtk_tok13a_text(b, b->held[i], &used);
        else
            mtk_split_text(b, b->held[i], &used);
        if ((rc = mtk_end_hypothesis(b, i, pb))) return rc;
    }
    b->hoff[n] = b->ntok;
    pb->field = "references";
    for (Py_ssize_t i = 0; i < n; i++) {
        for (size_t j = b->rseg[i]; j < b->rseg[i + 1]; j++) {
            PyObject *s = b->held[(size_t)n + j];
            b->roff[b->nref] = b->ntok;
            if (tok13a)
                mtk_tok13a_text(b, s, &used);
            else
                mtk_split_text(b, s, &used);
            if ((rc = mtk_end_reference(b, i, (Py_ssize_t)(j - b->rseg[i]), pb))) return rc;
        }
        mtk_end_segment(b, i);
    }
    mtk_end_input(b, n);
    return 0;
}

int
mtk_work_bleu(Work *w, size_t maxhyp, size_t maxrefsum)
{
    size_t slots = (size_t)1 << table_bits(maxhyp ? maxhyp : 1);
    if (mtk_grow_zeroed((void **)&w->btab, &w->btab_n, slots, sizeof(BEnt))) return -1;
    if (mtk_grow_zeroed((void **)&w->ttab, &w->ttab_n, slots, sizeof(TEnt))) return -1;
    if (mtk_grow_plain((void **)&w->touched, &w->touched_n, maxhyp + 1, sizeof(u32))) return -1;
    return mtk_work_positions(w, (maxhyp > maxrefsum ? maxhyp : maxrefsum) + 1);
}

#define NO_ID ((u32)-1)

/* The slot of token k of the input in a TEnt table of 2^bits slots (as the X_probe of
 * CHAIN_TABLE): the entry of an equal token, or the empty slot where it belongs. */
static inline u32
tent_probe(const TEnt *tab, unsigned bits, const BleuIn *b, size_t k)
{
    u64 h = b->hash[k];
    u32 mask = (u32)(((u64)1 << bits) - 1), s = (u32)h & mask;
    while (tab[s].id1 && (tab[s].h != h || !bleu_tok_eq(b, tab[s].tok, k))) s = (s + 1) & mask;
    return s;
}

/* Local ids of a segment's tokens by content: the hypothesis tokens get 0, 1, ...; a
 * reference token gets the id of an equal hypothesis token, or NO_ID. */
static void
bleu_local_ids(Work *w, const BleuIn *b, size_t h0, size_t c, size_t r0, size_t rn)
{
    unsigned bits = table_bits(c);
    u32 next = 0, *touched = w->touched;
    size_t nt = 0;
    TEnt *tt = w->ttab;
    for (size_t i = 0; i < c; i++) {
        size_t k = h0 + i;
        u32 s = tent_probe(tt, bits, b, k);
        TEnt *e = &tt[s];
        if (!e->id1) {
            e->h = b->hash[k];
            e->tok = (u32)k;
            e->id1 = ++next;
            touched[nt++] = s;
        }
        w->cpa[i] = e->id1 - 1;
    }
    for (size_t i = 0; i < rn; i++) {
        const TEnt *e = &tt[tent_probe(tt, bits, b, r0 + i)];
        w->cpb[i] = e->id1 ? e->id1 - 1 : NO_ID;
    }
    for (size_t t = 0; t < nt; t++) memset(&tt[touched[t]], 0, sizeof(TEnt));
}

/*
 * o = [c, r, matches[N], totals[N]] of one segment.  Order by order: the
 * hypothesis n-grams go into a table of that order (keyed exactly by (slot of the
 * (n-1)-gram prefix + 1, token id + 1)), then each reference is probed, counting per
 * reference (stamp) and keeping the largest count; a reference position whose (n-1)-gram
 * is not in the hypothesis is dead for every higher order.
 */
static void
bleu_segment(Work *w, const BleuIn *b, size_t h0, size_t h1, const size_t *roff, size_t nref, int N,
             i64 *o)
{
    size_t c = h1 - h0;
    i64 *m = o + 2, *tot = o + 2 + N;
    for (int n = 1; n <= N; n++) {
        m[n - 1] = 0;
        tot[n - 1] = c >= (size_t)n ? (i64)(c - n + 1) : 0;
    }
    /* closest reference length, ties to the shorter */
    size_t best = 0;
    for (size_t j = 0; j < nref; j++) {
        size_t len = roff[j + 1] - roff[j];
        size_t d = len > c ? len - c : c - len, bd = best > c ? best - c : c - best;
        if (j == 0 || d < bd || (d == bd && len < best)) best = len;
    }
    o[0] = (i64)c;
    o[1] = (i64)best;
    if (c == 0) return;

    size_t r0 = roff[0], rn = roff[nref] - r0;
    bleu_local_ids(w, b, h0, c, r0, rn);
    const u32 *h = w->cpa;
    u32 *sa = w->sa, *sb = w->sb, *touched = w->touched;
    BEnt *tab = w->btab;
    memset(sa, 0, c * sizeof(u32));
    memset(sb, 0, rn * sizeof(u32));
    for (size_t n = 1; n <= (size_t)N && n <= c; n++) {
        size_t na = c - n + 1, nt = 0;
        unsigned bits = table_bits(na);
        for (size_t i = 0; i < na; i++) {
            u32 s = bent_add(tab, bits, chain_key(sa[i], h[i + n - 1]), touched, &nt);
            tab[s].hc++;
            sa[i] = s + 1;
        }
        for (size_t j = 0; j < nref; j++) {
            size_t len = roff[j + 1] - roff[j];
            if (len < n) continue;
            const u32 *r = w->cpb + (roff[j] - r0);
            u32 *sr = sb + (roff[j] - r0), stamp = (u32)j + 1;
            for (size_t i = 0; i + n <= len; i++) {
                if (sr[i] == DEAD) continue;
                if (r[i + n - 1] == NO_ID) {
                    sr[i] = DEAD; /* a token the hypothesis lacks */
                    continue;
                }
                u32 s;
                if (!bent_find(tab, bits, chain_key(sr[i], r[i + n - 1]), &s)) {
                    sr[i] = DEAD;
                    continue;
                }
                BEnt *e = &tab[s];
                if (e->stamp != stamp) {
                    e->stamp = stamp;
                    e->rc = 0;
                }
                if (++e->rc > e->maxrc) e->maxrc = e->rc;
                sr[i] = s + 1;
            }
        }
        i64 matched = 0;
        for (size_t t = 0; t < nt; t++) {
            BEnt *e = &tab[touched[t]];
            matched += e->hc < e->maxrc ? e->hc : e->maxrc;
            memset(e, 0, sizeof(BEnt));
        }
        m[n - 1] = matched;
    }
}

static PyObject *
problem_tuple(const Problem *pb)
{
    PyObject *path = PyTuple_New(1 + pb->depth);
    if (!path) return NULL;
    PyObject *f = PyUnicode_FromString(pb->field);
    if (!f) {
        Py_DECREF(path);
        return NULL;
    }
    PyTuple_SET_ITEM(path, 0, f);
    for (int d = 0; d < pb->depth; d++) {
        PyObject *x = PyLong_FromSsize_t(pb->idx[d]);
        if (!x) {
            Py_DECREF(path);
            return NULL;
        }
        PyTuple_SET_ITEM(path, 1 + d, x);
    }
    PyObject *res = Py_BuildValue("(sNn)", pb->code, path, pb->pos);
    return res;
}

/* Count every segment (no Python calls); seg (or NULL) gets 2+2N int64 per segment,
 * totals their sums.  w is ready for b (mtk_work_bleu). */
void
mtk_bleu_count_loop(Work *w, const BleuIn *b, Py_ssize_t n, int N, i64 *seg, i64 *totals)
{
    i64 one[2 + 2 * MAX_ORDER];
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 *o = seg ? seg + (size_t)i * (2 + 2 * N) : one;
        bleu_segment(w, b, b->hoff[i], b->hoff[i + 1], b->roff + b->rseg[i],
                     b->rseg[i + 1] - b->rseg[i], N, o);
        for (int k = 0; k < 2 + 2 * N; k++) totals[k] += o[k];
    }
}

/* The texts of b tokenized first when tok13a >= 0 (mtk_bleu_tokenize: bleu_counts_text),
 * then every segment counted (mtk_bleu_count_loop), with a workspace of the pool and without
 * the GIL when nogil.  0, 1 with a problem in *pb (from tokenizing), or -1 with MemoryError. */
static int
bleu_count_all(BleuIn *b, Problem *pb, Py_ssize_t n, int N, int tok13a, int nogil, i64 *seg,
               i64 *totals)
{
    Work *w = mtk_work_get();
    int rc = w ? 0 : -1;
    PyThreadState *ts = NULL;
    if (w && nogil) ts = PyEval_SaveThread();
    if (rc == 0 && tok13a >= 0) rc = mtk_bleu_tokenize(b, n, tok13a, pb);
    if (rc == 0 && mtk_work_bleu(w, b->maxhyp, b->maxrefsum) < 0) rc = -1;
    if (rc == 0) mtk_bleu_count_loop(w, b, n, N, seg, totals);
    if (ts) PyEval_RestoreThread(ts);
    mtk_work_put(w);
    if (rc < 0) PyErr_NoMemory();
    return rc;
}

/* The arguments bleu_counts and bleu_counts_text share: 0 when fine, else -1 with
 * ValueError set. */
static int
check_bleu_args(PyObject *hyps, PyObject *refs, int N)
{
    if (in_range(order_ok(N), "max_order") < 0) return -1;
    if (!mtk_is_array(hyps) || !mtk_is_array(refs) ||
        mtk_array_size(hyps) != mtk_array_size(refs)) {
        PyErr_SetString(PyExc_ValueError,
                        "hypotheses and references must be lists of the same length");
        return -1;
    }
    return 0;
}

/* The answer of bleu_counts and bleu_counts_text after reading (rc as the readers return),
 * counting by bleu_count_all (tok13a and nogil as there): (buffer or None, totals, None),
 * (None, None, problem), or NULL with an exception. */
static PyObject *
bleu_counts_result(BleuIn *b, Problem *pb, int rc, Py_ssize_t n, int N, int per_segment, int tok13a,
                   int nogil)
{
    PyObject *buf = NULL, *result = NULL;
    i64 totals[2 + 2 * MAX_ORDER] = {0}, *seg = NULL;
    if (rc == 0) rc = segment_rows(per_segment, n, 2 + 2 * (size_t)N, &buf, &seg);
    if (rc == 0) rc = bleu_count_all(b, pb, n, N, tok13a, nogil, seg, totals);
    if (rc > 0) {
        PyObject *p = problem_tuple(pb);
        if (p) result = Py_BuildValue("(OON)", Py_None, Py_None, p);
    } else if (rc == 0) {
        PyObject *tot = mtk_tuple_of(totals, 2 + 2 * N);
        if (tot) result = Py_BuildValue("(ONO)", buf ? buf : Py_None, tot, Py_None);
    }
    Py_XDECREF(buf);
    return result;
}

KERNEL_FUNCTION(bleu_counts, args,
                "bleu_counts(hypotheses, references, max_order, per_segment, validate, /)",
                "BLEU statistics of many segments of token lists, or the first problem.")
{
    PyObject *hyps, *refs;
    int N, per_segment, validate;
    BleuIn b = {0};
    Problem pb = {0};
    pb.pos = -1;
    if (!PyArg_ParseTuple(args, "OOipp:bleu_counts", &hyps, &refs, &N, &per_segment, &validate))
        return NULL;
    if (check_bleu_args(hyps, refs, N) < 0) return NULL;
    int rc = bleu_read(hyps, refs, validate, &b, &pb);
    PyObject *result = bleu_counts_result(&b, &pb, rc, mtk_array_size(hyps), N, per_segment, -1,
                                          b.ntok >= NOGIL_WORK / 4);
    bleu_in_free(&b);
    return result;
}

KERNEL_FUNCTION(
    bleu_counts_text, args,
    "bleu_counts_text(hypotheses, references, max_order, per_segment, tokenizer='none', /)",
    "bleu_counts of texts, split on whitespace or tokenized with 13a.")
{
    PyObject *hyps, *refs;
    const char *tokenizer = "none";
    int N, per_segment, tok13a;
    BleuIn b = {0};
    Problem pb = {0};
    pb.pos = -1;
    if (!PyArg_ParseTuple(args, "OOip|s:bleu_counts_text", &hyps, &refs, &N, &per_segment,
                          &tokenizer))
        return NULL;
    if ((tok13a = mtk_tok13a_named(tokenizer)) < 0) return NULL;
    if (check_bleu_args(hyps, refs, N) < 0) return NULL;
    int rc = mtk_bleu_read_text(hyps, refs, tok13a, &b, &pb);
    /* the texts are held: tokenized and counted without the GIL */
    PyObject *result = bleu_counts_result(&b, &pb, rc, mtk_array_size(hyps), N, per_segment, tok13a,
                                          b.units >= NOGIL_WORK);
    bleu_in_free(&b);
    return result;
}

KERNEL_FUNCTION(bleu_sentence, args, "bleu_sentence(hypothesis, references, max_order, /)",
                "BLEU statistics of one segment, (c, r, matches, totals), or None.")
{
    PyObject *hyp, *refs, *result = NULL;
    int N;
    BleuIn b = {0};
    Problem pb = {0};
    if (!PyArg_ParseTuple(args, "OOi:bleu_sentence", &hyp, &refs, &N)) return NULL;
    if (!order_ok(N) || !mtk_is_array(hyp) || !mtk_is_array(refs)) Py_RETURN_NONE;
    PyObject *h1 = PyTuple_Pack(1, hyp), *r1 = PyTuple_Pack(1, refs);
    if (!h1 || !r1) goto done;
    int rc = bleu_read(h1, r1, 0, &b, &pb);
    if (rc < 0) goto done;
    if (rc > 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    i64 totals[2 + 2 * MAX_ORDER] = {0};
    if (bleu_count_all(&b, &pb, 1, N, -1, b.ntok >= NOGIL_WORK / 4, NULL, totals) < 0) goto done;
    PyObject *m = mtk_tuple_of(totals + 2, N), *t = mtk_tuple_of(totals + 2 + N, N);
    if (m && t) result = Py_BuildValue("(LLOO)", totals[0], totals[1], m, t);
    Py_XDECREF(m);
    Py_XDECREF(t);
done:
    Py_XDECREF(h1);
    Py_XDECREF(r1);
    bleu_in_free(&b);
    return result;
}

PyMethodDef mtk_bleu_methods[] = {
    KERNEL_METHOD(bleu_counts, METH_VARARGS),
    KERNEL_METHOD(bleu_counts_text, METH_VARARGS),
    KERNEL_METHOD(bleu_sentence, METH_VARARGS),
    KERNEL_METHODS_END,
};
