/*
 * chrf_pairwise.c: chrF of every hypothesis/reference pair (MBR): chrf_pairwise.
 * Python twin: chrf_fraction(segment_statistics(h, r)) of mtcompute.metrics.chrf.ngrams for each
 * pair (mtcompute.metrics.chrf.statistics.chrf_pairwise_matrix's pure path).
 */
#include "common.h"

/* ------------------------------------------------------------------------------------ */
/* chrF for every hypothesis/reference pair (MBR)                                        */
/* ------------------------------------------------------------------------------------ */

/*
 * Every n-gram of the call gets an id once (order by order over all texts, keyed exactly
 * by (id of its (n-1)-gram prefix + 1, last code point)); each text becomes (id, count)
 * lists per order, and the references an inverted index id -> (reference, count).  For a
 * hypothesis, walking its n-grams' postings adds min(hyp count, ref count) to that
 * reference's match count for the order, so only shared n-grams cost anything.  Then
 * every pair is scored exactly (mtk_chrf_exact), with per-text lcm tables precomputed.
 */

typedef struct {
    u64 key; /* chain_key over ids; 0 = empty */
    u32 gid, cnt, seg, pad;
} GEnt;

CHAIN_TABLE(gent, GEnt)

typedef struct {
    u32 id, cnt;
} GC;

/* Per segment and k = 1..min(N, len): the lcm of (len - n + 1) for n <= k (0 when over
 * 2^62) and its multipliers, at lcm[k] and mult[k * N + n - 1]. */
static void
segment_lcms(size_t len, int N, u64 *lcm, u64 *mult)
{
    u64 v[MAX_ORDER];
    lcm[0] = 0;
    for (int k = 1; k <= N; k++) {
        if ((size_t)k > len) {
            lcm[k] = 0;
            continue;
        }
        for (int n = 1; n <= k; n++) v[n - 1] = (u64)(len - n + 1);
        if (!mtk_lcm_mults(v, k, &lcm[k], &mult[(size_t)k * N])) lcm[k] = 0;
    }
}

typedef struct {
    Py_ssize_t nseg;
    int N;
    u32 *cps, *prefix, *list; /* all stripped texts; per position prefix id + 1; scratch */
    size_t *start;            /* nseg + 1 */
    u32 *len;                 /* nseg */
    size_t *eoff;             /* nseg * N: first entry of (segment, order) */
    u32 *ecnt;                /* nseg * N: entries of (segment, order) */
    GC *ent;
    size_t ent_n, ent_cap;
    GEnt *tab;
    u32 *touched;
    u32 nid;
    u64 *lcm, *mult;
} Pairs;

static void
pairs_free(Pairs *p)
{
    FREE_EACH(free, p->cps, p->prefix, p->list, p->start, p->len, p->eoff, p->ecnt, p->ent, p->tab,
              p->touched, p->lcm, p->mult);
}

/* Strip and intern every text (no GIL needed); -1 on memory failure. */
static int
pairs_intern(Pairs *p, PyObject **held, size_t total)
{
    Py_ssize_t S = p->nseg;
    int N = p->N;
    p->cps = malloc((total + 1) * sizeof(u32));
    p->prefix = calloc(total + 1, sizeof(u32));
    p->list = malloc((total + 1) * sizeof(u32));
    p->start = malloc(((size_t)S + 1) * sizeof(size_t));
    p->len = malloc(((size_t)S + 1) * sizeof(u32));
    p->eoff = malloc(((size_t)S * N + 1) * sizeof(size_t));
    p->ecnt = malloc(((size_t)S * N + 1) * sizeof(u32));
    p->lcm = malloc(((size_t)S * (N + 1) + 1) * sizeof(u64));
    p->mult = malloc(((size_t)S * (N + 1) * N + 1) * sizeof(u64));
    if (!p->cps || !p->prefix || !p->list || !p->start || !p->len || !p->eoff || !p->ecnt ||
        !p->lcm || !p->mult)
        return -1;
    size_t at = 0;
    for (Py_ssize_t s = 0; s < S; s++) {
        p->start[s] = at;
        size_t l = mtk_strip_text(held[s], p->cps + at);
        p->len[s] = (u32)l;
        at += l;
        segment_lcms(l, N, p->lcm + (size_t)s * (N + 1), p->mult + (size_t)s * (N + 1) * N);
    }
    p->start[S] = at;
    unsigned bits = table_bits(at ? at : 1);
    p->tab = calloc((size_t)1 << bits, sizeof(GEnt));
    p->touched = malloc((at + 1) * sizeof(u32));
    p->ent_cap = at + 16;
    p->ent = malloc(p->ent_cap * sizeof(GC));
    if (!p->tab || !p->touched || !p->ent) return -1;
    for (int n = 1; n <= N; n++) {
        size_t nt = 0;
        for (Py_ssize_t s = 0; s < S; s++) {
            size_t l = p->len[s], base = p->start[s], cnt = 0;
            u32 tag = (u32)s + 1;
            p->eoff[(size_t)s * N + n - 1] = p->ent_n;
            p->ecnt[(size_t)s * N + n - 1] = 0;
            if ((size_t)n > l) continue;
            for (size_t i = 0; i + n <= l; i++) {
                u64 key = chain_key(p->prefix[base + i], p->cps[base + i + n - 1]);
                u32 slot = gent_add(p->tab, bits, key, p->touched, &nt);
                GEnt *e = &p->tab[slot];
                if (e->seg != tag) {
                    if (!e->seg) e->gid = p->nid++; /* new in this order: the next id */
                    e->seg = tag;
                    e->cnt = 0;
                    p->list[cnt++] = slot;
                }
                e->cnt++;
                p->prefix[base + i] = e->gid + 1;
            }
            if (p->ent_n + cnt > p->ent_cap) {
                size_t c = 2 * (p->ent_n + cnt);
                GC *g = realloc(p->ent, c * sizeof(GC));
                if (!g) return -1;
                p->ent = g;
                p->ent_cap = c;
            }
            for (size_t t = 0; t < cnt; t++) {
                GEnt *e = &p->tab[p->list[t]];
                p->ent[p->ent_n].id = e->gid;
                p->ent[p->ent_n].cnt = e->cnt;
                p->ent_n++;
            }
            p->ecnt[(size_t)s * N + n - 1] = (u32)cnt;
        }
        for (size_t t = 0; t < nt; t++) memset(&p->tab[p->touched[t]], 0, sizeof(GEnt));
    }
    return 0;
}

/* One chrf_pairwise call: the texts it holds, their interned n-grams, the inverted index
 * of the references, the scores and the pairs left to Python. */
typedef struct {
    int N;
    u32 beta;
    PyObject *hf, *rf; /* the two arguments as PySequence_Fast */
    PyObject **held;   /* nseg referenced texts: the hypotheses, then the references */
    Py_ssize_t nh, nr; /* hypotheses, references */
    Py_ssize_t nseg;   /* texts held: nh, or nh + nr when the arguments differ */
    Py_ssize_t rbase;  /* the first reference in held (0 when they are the hypotheses) */
    size_t total;      /* code points of the texts held */
    Pairs P;
    u32 *pstart;    /* id -> end of its postings (they start at pstart[id - 1]) */
    GC *post;       /* postings: (reference, count) */
    u32 *acc;       /* nr * N: the current hypothesis's matches per reference, order */
    double *scores; /* nh * nr */
    u32 *pmatch;    /* npend records (i, j, matches[N]) */
    size_t npend, pend_cap;
} Pairwise;

static void
pairwise_free(Pairwise *pw)
{
    Py_XDECREF(pw->hf);
    Py_XDECREF(pw->rf);
    mtk_release_held(pw->held, pw->nseg);
    pairs_free(&pw->P);
    FREE_EACH(free, pw->pstart, pw->post, pw->acc, pw->scores, pw->pmatch);
}

/* Build (with the GIL): hold the texts of the arguments and allocate what scoring needs
 * besides the n-gram tables.  -1 with an exception. */
static int
pairwise_build(Pairwise *pw, PyObject *hyps, PyObject *refs)
{
    int same = hyps == refs;
    pw->hf = PySequence_Fast(hyps, "hypotheses must be a sequence");
    if (!pw->hf) return -1;
    pw->rf = PySequence_Fast(refs, "references must be a sequence");
    if (!pw->rf) return -1;
    pw->nh = PySequence_Fast_GET_SIZE(pw->hf);
    pw->nr = PySequence_Fast_GET_SIZE(pw->rf);
    if (pw->nh >= ((Py_ssize_t)1 << 31) || pw->nr >= ((Py_ssize_t)1 << 31)) {
        PyErr_SetString(PyExc_OverflowError, "too many segments for the kernel");
        return -1;
    }
    pw->nseg = same ? pw->nh : pw->nh + pw->nr;
    pw->rbase = same ? 0 : pw->nh;
    pw->held = PyMem_Calloc((size_t)pw->nseg + 1, sizeof(PyObject *));
    if (!pw->held) {
        PyErr_NoMemory();
        return -1;
    }
    size_t maxlen = 0;
    if (mtk_hold_texts(pw->hf, "hypotheses", pw->held, 0, 1, &maxlen, &pw->total) < 0) return -1;
    if (!same && mtk_hold_texts(pw->rf, "references", pw->held, pw->nh, 1, &maxlen, &pw->total) < 0)
        return -1;
    if (pw->total >= ((size_t)1 << 31) || (u64)pw->N * pw->total >= ((u64)1 << 32) - 1) {
        PyErr_SetString(PyExc_OverflowError, "texts too long for the kernel");
        return -1;
    }
    pw->P.nseg = pw->nseg;
    pw->P.N = pw->N;
    pw->scores = malloc(((size_t)pw->nh * pw->nr + 1) * sizeof(double));
    pw->acc = malloc(((size_t)pw->nr * pw->N + 1) * sizeof(u32));
    if (!pw->scores || !pw->acc) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The inverted index of the references: id -> (reference, count).  -1 on memory failure. */
static int
pairwise_index(Pairwise *pw)
{
    const Pairs *P = &pw->P;
    int N = P->N;
    size_t npost = 0;
    for (Py_ssize_t j = 0; j < pw->nr; j++)
        for (int n = 0; n < N; n++) npost += P->ecnt[(size_t)(pw->rbase + j) * N + n];
    u32 *pstart = pw->pstart = calloc((size_t)P->nid + 2, sizeof(u32));
    GC *post = pw->post = malloc((npost + 1) * sizeof(GC));
    if (!pstart || !post) return -1;
    for (Py_ssize_t j = 0; j < pw->nr; j++) {
        size_t s = (size_t)(pw->rbase + j);
        for (int n = 0; n < N; n++) {
            const GC *e = P->ent + P->eoff[s * N + n];
            for (u32 t = 0, te = P->ecnt[s * N + n]; t < te; t++) pstart[e[t].id + 1]++;
        }
    }
    for (u32 g = 0; g < P->nid; g++) pstart[g + 1] += pstart[g];
    for (Py_ssize_t j = 0; j < pw->nr; j++) {
        size_t s = (size_t)(pw->rbase + j);
        for (int n = 0; n < N; n++) {
            const GC *e = P->ent + P->eoff[s * N + n];
            for (u32 t = 0, te = P->ecnt[s * N + n]; t < te; t++) {
                GC *q = &post[pstart[e[t].id]++];
                q->id = (u32)j;
                q->cnt = e[t].cnt;
            }
        }
    }
    /* pstart[g] now ends the postings of g; they start at pstart[g - 1] */
    return 0;
}

/* Leave pair (i, j) to Python: a record of its matches in the k effective orders (0 in the
 * others).  -1 on memory failure. */
static int
pairwise_pend(Pairwise *pw, Py_ssize_t i, Py_ssize_t j, const u32 *m, u32 k)
{
    size_t width = 2 + (size_t)pw->N;
    if (pw->npend == pw->pend_cap) {
        size_t c = pw->pend_cap ? pw->pend_cap * 2 : 64;
        u32 *pm = realloc(pw->pmatch, c * width * sizeof(u32));
        if (!pm) return -1;
        pw->pmatch = pm;
        pw->pend_cap = c;
    }
    u32 *rec = pw->pmatch + pw->npend++ * width;
    rec[0] = (u32)i;
    rec[1] = (u32)j;
    for (int n = 0; n < pw->N; n++) rec[2 + n] = (u32)n < k ? m[n] : 0;
    return 0;
}

/* Row i of the scores: the matches of hypothesis i with every reference, order by order
 * (walking the postings of its n-grams), then each pair's exact chrF.  -1 on memory
 * failure.  Not inlined: inside its caller's loop, GCC spills the postings walk's
 * registers (about 5% more instructions for an MBR block). */
static MTK_NOINLINE int
pairwise_row(Pairwise *pw, Py_ssize_t i)
{
    const Pairs *P = &pw->P;
    const int N = P->N;
    const Py_ssize_t nr = pw->nr, rbase = pw->rbase;
    const u32 *pstart = pw->pstart;
    const GC *post = pw->post;
    u32 *acc = pw->acc;
    double *row = pw->scores + (size_t)i * nr;
    memset(acc, 0, (size_t)nr * N * sizeof(u32));
    for (int n = 0; n < N; n++) {
        const GC *e = P->ent + P->eoff[(size_t)i * N + n];
        for (u32 t = 0, te = P->ecnt[(size_t)i * N + n]; t < te; t++) {
            u32 g = e[t].id, hc = e[t].cnt;
            const GC *q = post + (g ? pstart[g - 1] : 0), *qe = post + pstart[g];
            for (; q < qe; q++) acc[(size_t)q->id * N + n] += hc < q->cnt ? hc : q->cnt;
        }
    }
    u32 lh = P->len[i];
    const u64 *hl = P->lcm + (size_t)i * (N + 1), *hm = P->mult + (size_t)i * (N + 1) * N;
    for (Py_ssize_t j = 0; j < nr; j++) {
        size_t sj = (size_t)(rbase + j);
        u32 lr = P->len[sj], k = (u32)N;
        if (lh < k) k = lh;
        if (lr < k) k = lr;
        const u32 *m = acc + (size_t)j * N;
        u32 any = 0;
        for (u32 n = 0; n < k; n++) any |= m[n];
        double d = 0.0;
        if (any) {
            const u64 *rl = P->lcm + sj * (N + 1), *rm = P->mult + sj * (N + 1) * N;
            int ok = hl[k] && rl[k];
            if (ok) {
                u128 p = u128_of(0), q = u128_of(0);
                for (u32 n = 0; n < k; n++) {
                    p = u128_add(p, u128_mul64(m[n], hm[(size_t)k * N + n]));
                    q = u128_add(q, u128_mul64(m[n], rm[(size_t)k * N + n]));
                }
                ok = mtk_chrf_exact(p, q, hl[k], rl[k], k, pw->beta, &d);
            }
            if (!ok) {
                d = NAN;
                if (pairwise_pend(pw, i, j, m, k) < 0) return -1;
            }
        }
        row[j] = d;
    }
    return 0;
}

/* Score (no Python API, so without the GIL): intern the n-grams, index the references,
 * then every row.  -1 on memory failure (no exception set). */
static int
pairwise_score(Pairwise *pw)
{
    if (pairs_intern(&pw->P, pw->held, pw->total) < 0 || pairwise_index(pw) < 0) return -1;
    for (Py_ssize_t i = 0; i < pw->nh; i++)
        if (pairwise_row(pw, i) < 0) return -1;
    return 0;
}

/* The scores as a list of nh lists of nr floats; NULL with an exception. */
static PyObject *
pairwise_rows(const Pairwise *pw)
{
    PyObject *rows = PyList_New(pw->nh);
    if (!rows) return NULL;
    for (Py_ssize_t i = 0; i < pw->nh; i++) {
        PyObject *row = PyList_New(pw->nr);
        if (!row) goto fail;
        PyList_SET_ITEM(rows, i, row);
        for (Py_ssize_t j = 0; j < pw->nr; j++) {
            PyObject *f = PyFloat_FromDouble(pw->scores[(size_t)i * pw->nr + j]);
            if (!f) goto fail;
            PyList_SET_ITEM(row, j, f);
        }
    }
    return rows;
fail:
    Py_DECREF(rows);
    return NULL;
}

/* The pending pairs as a list of (i, j, hyp counts, ref counts, matches); NULL with an
 * exception. */
static PyObject *
pairwise_pending(const Pairwise *pw)
{
    int N = pw->N;
    PyObject *pend = PyList_New((Py_ssize_t)pw->npend);
    if (!pend) return NULL;
    for (size_t t = 0; t < pw->npend; t++) {
        const u32 *rec = pw->pmatch + t * (2 + (size_t)N);
        i64 hc[MAX_ORDER], rc[MAX_ORDER], mc[MAX_ORDER];
        u32 lh = pw->P.len[rec[0]], lr = pw->P.len[pw->rbase + rec[1]];
        for (int n = 1; n <= N; n++) {
            hc[n - 1] = lh >= (u32)n ? (i64)(lh - n + 1) : 0;
            rc[n - 1] = lr >= (u32)n ? (i64)(lr - n + 1) : 0;
            mc[n - 1] = rec[2 + n - 1];
        }
        PyObject *a = mtk_tuple_of(hc, N), *b = mtk_tuple_of(rc, N), *c = mtk_tuple_of(mc, N);
        PyObject *item = (a && b && c) ? Py_BuildValue("(IIOOO)", rec[0], rec[1], a, b, c) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        if (!item) {
            Py_DECREF(pend);
            return NULL;
        }
        PyList_SET_ITEM(pend, (Py_ssize_t)t, item);
    }
    return pend;
}

/* Hand back: (rows, pending); NULL with an exception. */
static PyObject *
pairwise_hand_back(const Pairwise *pw)
{
    PyObject *rows = pairwise_rows(pw), *pend = rows ? pairwise_pending(pw) : NULL;
    PyObject *result = pend ? PyTuple_Pack(2, rows, pend) : NULL;
    Py_XDECREF(rows);
    Py_XDECREF(pend);
    return result;
}

KERNEL_FUNCTION(chrf_pairwise, args, "chrf_pairwise(hypotheses, references, char_order, beta, /)",
                "Sentence chrF of every hypothesis against every reference: (rows, pending).")
{
    PyObject *hyps, *refs, *result = NULL;
    int beta;
    Pairwise pw = {0};
    if (!PyArg_ParseTuple(args, "OOii:chrf_pairwise", &hyps, &refs, &pw.N, &beta)) return NULL;
    if (in_range(order_ok(pw.N) && beta_ok(beta), "char_order or beta") < 0) return NULL;
    pw.beta = (u32)beta;
    if (pairwise_build(&pw, hyps, refs) == 0) {
        PyThreadState *ts = NULL;
        if (pw.total + (size_t)pw.nh * pw.nr >= NOGIL_WORK) ts = PyEval_SaveThread();
        int rc = pairwise_score(&pw);
        if (ts) PyEval_RestoreThread(ts);
        if (rc < 0)
            PyErr_NoMemory();
        else
            result = pairwise_hand_back(&pw);
    }
    pairwise_free(&pw);
    return result;
}

PyMethodDef mtk_chrf_pairwise_methods[] = {
    KERNEL_METHOD(chrf_pairwise, METH_VARARGS),
    KERNEL_METHODS_END,
};
