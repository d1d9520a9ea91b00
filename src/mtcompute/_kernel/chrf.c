/*
 * chrf.c: chrF statistics (Popovic 2015, section 2) and exact sentence chrF: chrf_counts,
 * chrf_segment, chrf_scores, chrf_ratios, with the correctly rounded u128 division.
 * Python twins: mtcompute.metrics.chrf.ngrams.segment_statistics, chrf_fraction and chrf_ratio
 * (through mtcompute.counting's chrF functions).
 */
#include "common.h"

CHAIN_TABLE(cent, CEnt)

/* ------------------------------------------------------------------------------------ */
/* Correctly rounded division and exact chrF                                              */
/* ------------------------------------------------------------------------------------ */

/*
 * The double nearest to num/den (num > 0, den > 0), ties to even: long division to at
 * least 66 quotient bits, a sticky bit for the remainder, then round to 53 bits.
 * Returns 0 (and leaves *out alone) when den >= 2^127, where a shifted remainder could
 * overflow.
 */
static int
div_round(u128 num, u128 den, double *out)
{
    int dz = u128_clz(den);
    if (dz == 0) return 0;
    u128 rem, q = u128_divmod(num, den, &rem);
    int e = 0; /* value = (q + rem / den) * 2^e */
    int qb = 128 - u128_clz(q);
    while (qb < 66) {
        int t = 66 - qb;
        if (t > dz) t = dz;
        rem = u128_shl(rem, t); /* rem < den < 2^(128 - dz), so this fits */
        u128 d = u128_divmod(rem, den, &rem);
        q = u128_or(u128_shl(q, t), d);
        e -= t;
        qb = 128 - u128_clz(q);
    }
    int shift = qb - 53;                    /* >= 13 */
    u64 mant = u128_lo(u128_shr(q, shift)); /* < 2^53 */
    u128 half = u128_shl(u128_of(1), shift - 1);
    u128 low = u128_and(q, u128_sub(u128_shl(half, 1), u128_of(1)));
    if (u128_lt(half, low) || (u128_eq(low, half) && (!u128_is_zero(rem) || (mant & 1)))) mant += 1;
    /* mant <= 2^53 (exactly representable); the exponent stays in range for q < 2^128 */
    *out = ldexp((double)mant, e + shift);
    return 1;
}

/*
 * chrF from p/H = sum of m_n/h_n and q/S = sum of m_n/r_n over k effective orders:
 * 100 (1 + b^2) P R / (b^2 P + R) with P = p/(kH), R = q/(kS), which is
 * 100 (1 + b^2) p q / (k (b^2 p S + q H)): that numerator and denominator, unreduced.
 * Returns 0 on overflow.
 */
static int
chrf_terms(u128 p, u128 q, u64 H, u64 S, u32 k, u32 beta, u128 *num, u128 *den)
{
    u64 beta2 = (u64)beta * beta;
    u128 b2 = u128_of(beta2), c = u128_of(100 * (1 + beta2)), t, x, y;
    if (u128_mul_overflow(p, q, &t) || u128_mul_overflow(t, c, num)) return 0;
    if (u128_mul_overflow(p, u128_of(S), &x) || u128_mul_overflow(x, b2, &x)) return 0;
    if (u128_mul_overflow(q, u128_of(H), &y) || u128_add_overflow(x, y, den)) return 0;
    return !u128_mul_overflow(*den, u128_of(k), den);
}

/* chrF of chrf_terms as the double nearest to it; 0 on overflow.  p > 0. */
int
mtk_chrf_exact(u128 p, u128 q, u64 H, u64 S, u32 k, u32 beta, double *out)
{
    u128 num, den;
    return chrf_terms(p, q, H, S, k, beta, &num, &den) && div_round(num, den, out);
}

/* lcm of v[0..k) (< 2^62) and the multipliers lcm / v[i]; 0 on overflow. */
int
mtk_lcm_mults(const u64 *v, int k, u64 *lcm, u64 *mult)
{
    u64 l = 1;
    for (int i = 0; i < k; i++) {
        u64 g = gcd64(l, v[i]);
        u128 next = u128_mul64(l / g, v[i]);
        if (!u128_is_zero(u128_shr(next, 62))) return 0;
        l = u128_lo(next);
    }
    for (int i = 0; i < k; i++) mult[i] = l / v[i];
    *lcm = l;
    return 1;
}

/*
 * chrf_terms' sums of one segment's counts (h, r, m per order; the effective orders are
 * those with h > 0 and r > 0): 1 with p, q, H, S and k set; 0 when chrF is 0 (no effective
 * order, or no match in any); -1 when Python must finish it (an effective order's count
 * outside [0, 2^40), or an lcm over 2^62).
 */
static int
chrf_sums(const i64 *h, const i64 *r, const i64 *m, int N, u128 *p, u128 *q, u64 *H, u64 *S, u32 *k)
{
    u64 hv[MAX_ORDER], rv[MAX_ORDER], mv[MAX_ORDER], mh[MAX_ORDER], mr[MAX_ORDER];
    int e = 0, any = 0;
    for (int n = 0; n < N; n++) {
        if (h[n] > 0 && r[n] > 0) {
            if (m[n] < 0 || h[n] >= ((i64)1 << 40) || r[n] >= ((i64)1 << 40) ||
                m[n] >= ((i64)1 << 40))
                return -1;
            hv[e] = (u64)h[n];
            rv[e] = (u64)r[n];
            mv[e] = (u64)m[n];
            any |= mv[e] != 0;
            e++;
        }
    }
    if (e == 0 || !any) return 0;
    if (!mtk_lcm_mults(hv, e, H, mh) || !mtk_lcm_mults(rv, e, S, mr)) return -1;
    *p = u128_of(0);
    *q = u128_of(0);
    for (int i = 0; i < e; i++) {
        *p = u128_add(*p, u128_mul64(mv[i], mh[i]));
        *q = u128_add(*q, u128_mul64(mv[i], mr[i]));
    }
    *k = (u32)e;
    return 1;
}

/*
 * The sentence chrF of one segment's counts (chrf_sums), as the double nearest to the exact
 * value.  1 with *out set, or 0 when Python must finish it.
 */
static int
chrf_score_counts(const i64 *h, const i64 *r, const i64 *m, int N, u32 beta, double *out)
{
    u128 p, q;
    u64 H, S;
    u32 k;
    int sums = chrf_sums(h, r, m, N, &p, &q, &H, &S, &k);
    if (sums <= 0) {
        *out = 0.0;
        return sums == 0;
    }
    return mtk_chrf_exact(p, q, H, S, k, beta, out);
}

/* Euclid's steps in 128 bits while a value needs them, then gcd64 (binary, no division). */
static u128
gcd128(u128 a, u128 b)
{
    while (u128_hi(b) || u128_hi(a)) {
        if (u128_is_zero(b)) return a;
        u128 t = u128_mod(a, b);
        a = b;
        b = t;
    }
    return u128_of(gcd64(u128_lo(a), u128_lo(b)));
}

/*
 * The exact chrF of one segment's counts (chrf_sums) as a reduced fraction *num / *den
 * (0 is 0/1), what mtcompute.metrics.chrf.ngrams.chrf_ratio gives.  1 when set, 0 when Python must
 * finish it.
 */
static int
chrf_ratio_counts(const i64 *h, const i64 *r, const i64 *m, int N, u32 beta, u128 *num, u128 *den)
{
    u128 p, q;
    u64 H, S;
    u32 k;
    int sums = chrf_sums(h, r, m, N, &p, &q, &H, &S, &k);
    if (sums < 0) return 0;
    if (sums == 0) {
        *num = u128_of(0);
        *den = u128_of(1);
        return 1;
    }
    if (!chrf_terms(p, q, H, S, k, beta, num, den)) return 0;
    u128 g = gcd128(*num, *den);
    *num = u128_div(*num, g);
    *den = u128_div(*den, g);
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* chrF statistics                                                                        */
/* ------------------------------------------------------------------------------------ */

static const uint8_t WS_LATIN1[256] = {
    [0x09] = 1, [0x0A] = 1, [0x0B] = 1, [0x0C] = 1, [0x0D] = 1, [0x1C] = 1,
    [0x1D] = 1, [0x1E] = 1, [0x1F] = 1, [0x20] = 1, [0x85] = 1, [0xA0] = 1,
};

/* The 29 whitespace code points of the chrf-compute contract. */
static inline int
is_ws(u32 c)
{
    if (c < 256) return WS_LATIN1[c];
    if (c < 0x1680 || c > 0x3000) return 0;
    return c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

/* mtk_strip_text's loop over code units of one kind (a constant where it is inlined). */
static MTK_ALWAYS_INLINE size_t
strip_units(const void *data, int kind, Py_ssize_t len, u32 *out)
{
    size_t n = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        u32 c = PyUnicode_READ(kind, data, i);
        out[n] = c;
        n += !is_ws(c);
    }
    return n;
}

/* The code points of `s` without whitespace, into out (room for len(s)); their count. */
size_t
mtk_strip_text(PyObject *s, u32 *out)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    const void *data = PyUnicode_DATA(s);
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND:
        return strip_units(data, PyUnicode_1BYTE_KIND, len, out);
    case PyUnicode_2BYTE_KIND:
        return strip_units(data, PyUnicode_2BYTE_KIND, len, out);
    default:
        return strip_units(data, PyUnicode_4BYTE_KIND, len, out);
    }
}

/*
 * Clipped matches per order between a (inserted) and b (probed): m[n-1] += sum over
 * n-grams g of min(count in a, count in b).  One pass per order over a table of that
 * order only (small enough to stay in L1 for sentence-sized texts); the order-n key of a
 * position chains the order-(n-1) slot of the same position.  A position of b whose
 * (n-1)-gram is absent from a is dead for every higher order, and once an order has no
 * match no higher order can have one.  The table is all-zero before and after.
 */
static void
chrf_matches(Work *w, const u32 *a, size_t la, const u32 *b, size_t lb, int N, i64 *m)
{
    CEnt *tab = w->ctab;
    u32 *touched = w->touched, *sa = w->sa, *sb = w->sb;
    memset(sa, 0, la * sizeof(u32));
    memset(sb, 0, lb * sizeof(u32));
    for (size_t n = 1; n <= (size_t)N && n <= la && n <= lb; n++) {
        size_t na = la - n + 1, nb = lb - n + 1, nt = 0;
        unsigned bits = table_bits(na);
        i64 matched = 0;
        for (size_t i = 0; i < na; i++) {
            u32 s = cent_add(tab, bits, chain_key(sa[i], a[i + n - 1]), touched, &nt);
            tab[s].c1++;
            sa[i] = s + 1;
        }
        for (size_t i = 0; i < nb; i++) {
            if (sb[i] == DEAD) continue;
            u32 s;
            if (!cent_find(tab, bits, chain_key(sb[i], b[i + n - 1]), &s)) {
                sb[i] = DEAD;
                continue;
            }
            CEnt *e = &tab[s];
            e->c2++;
            matched += e->c2 <= e->c1;
            sb[i] = s + 1;
        }
        m[n - 1] += matched;
        for (size_t t = 0; t < nt; t++) {
            CEnt *e = &tab[touched[t]];
            e->key = 0;
            e->c1 = e->c2 = 0;
        }
        if (!matched) break; /* no n-gram shared, so no longer one either */
    }
}

/* o[0..N) hyp counts, o[N..2N) ref counts, o[2N..3N) clipped matches. */
void
mtk_chrf_segment_counts(Work *w, const u32 *h, size_t lh, const u32 *r, size_t lr, int N, i64 *o)
{
    for (int n = 1; n <= N; n++) {
        o[n - 1] = lh >= (size_t)n ? (i64)(lh - n + 1) : 0;
        o[N + n - 1] = lr >= (size_t)n ? (i64)(lr - n + 1) : 0;
        o[2 * N + n - 1] = 0;
    }
    if (lh == 0 || lr == 0) return;
    if (lh <= lr)
        chrf_matches(w, h, lh, r, lr, N, o + 2 * N);
    else
        chrf_matches(w, r, lr, h, lh, N, o + 2 * N);
}

/* Take references to the str items of `seq` (a list or tuple) into held[at..]; -1 with an
 * exception on a non-str item or a text too long for the kernel. */
int
mtk_hold_texts(PyObject *seq, const char *what, PyObject **held, Py_ssize_t at, Py_ssize_t step,
               size_t *maxlen, size_t *total)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = items[i];
        if (!PyUnicode_Check(s)) {
            PyErr_Format(PyExc_TypeError, "%s[%zd] is not a str", what, i);
            return -1;
        }
        if (ready(s) < 0) return -1;
        size_t len = (size_t)PyUnicode_GET_LENGTH(s);
        if (len >= MAX_TEXT) {
            PyErr_Format(PyExc_OverflowError, "%s[%zd] is too long for the kernel", what, i);
            return -1;
        }
        Py_INCREF(s);
        held[at + i * step] = s;
        if (len > *maxlen) *maxlen = len;
        *total += len;
    }
    return 0;
}

void
mtk_release_held(PyObject **held, Py_ssize_t n)
{
    if (!held) return;
    for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(held[i]);
    PyMem_Free(held);
}

PyObject *
mtk_tuple_of(const i64 *v, int n)
{
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* (buffer or None, the k totals as a tuple of int): the answer of the counting exports;
 * NULL with an exception. */
PyObject *
mtk_counts_answer(PyObject *buf, const i64 *totals, int k)
{
    PyObject *tot = mtk_tuple_of(totals, k);
    if (!tot) return NULL;
    return Py_BuildValue("(ON)", buf ? buf : Py_None, tot);
}

KERNEL_FUNCTION(chrf_counts, args,
                "chrf_counts(hypotheses, references, char_order, per_segment, /)",
                "chrF statistics of aligned segments: (buffer or None, totals).")
{
    PyObject *hyps, *refs, *hf = NULL, *rf = NULL, *buf = NULL, *result = NULL;
    PyObject **held = NULL;
    Py_ssize_t n = 0;
    int N, per_segment;
    if (!PyArg_ParseTuple(args, "OOip:chrf_counts", &hyps, &refs, &N, &per_segment)) return NULL;
    if (in_range(order_ok(N), "char_order") < 0) return NULL;
    hf = PySequence_Fast(hyps, "hypotheses must be a sequence");
    if (!hf) return NULL;
    rf = PySequence_Fast(refs, "references must be a sequence");
    if (!rf) goto done;
    n = PySequence_Fast_GET_SIZE(hf);
    if (PySequence_Fast_GET_SIZE(rf) != n) {
        PyErr_SetString(PyExc_ValueError, "hypotheses and references differ in length");
        goto done;
    }
    held = PyMem_Calloc(2 * (size_t)n + 1, sizeof(PyObject *));
    if (!held) {
        PyErr_NoMemory();
        goto done;
    }
    size_t maxlen = 0, total = 0;
    if (mtk_hold_texts(hf, "hypotheses", held, 0, 2, &maxlen, &total) < 0) goto done;
    if (mtk_hold_texts(rf, "references", held, 1, 2, &maxlen, &total) < 0) goto done;

    i64 *seg;
    if (segment_rows(per_segment, n, 3 * (size_t)N, &buf, &seg) < 0) goto done;
    i64 totals[3 * MAX_ORDER];
    i64 one[3 * MAX_ORDER];
    memset(totals, 0, sizeof totals);
    Work *w = mtk_work_get();
    if (!w || mtk_work_chrf(w, maxlen) < 0) {
        mtk_work_put(w);
        PyErr_NoMemory();
        goto done;
    }
    PyThreadState *ts = NULL;
    if (total >= NOGIL_WORK) ts = PyEval_SaveThread();
    for (Py_ssize_t i = 0; i < n; i++) {
        size_t lh = mtk_strip_text(held[2 * i], w->cpa);
        size_t lr = mtk_strip_text(held[2 * i + 1], w->cpb);
        i64 *o = seg ? seg + (size_t)i * 3 * N : one;
        mtk_chrf_segment_counts(w, w->cpa, lh, w->cpb, lr, N, o);
        for (int k = 0; k < 3 * N; k++) totals[k] += o[k];
    }
    if (ts) PyEval_RestoreThread(ts);
    mtk_work_put(w);

    result = mtk_counts_answer(buf, totals, 3 * N);
done:
    Py_XDECREF(buf);
    Py_XDECREF(hf);
    Py_XDECREF(rf);
    mtk_release_held(held, 2 * n);
    return result;
}

KERNEL_FUNCTION(chrf_segment, args, "chrf_segment(hypothesis, reference, char_order, /)",
                "chrF statistics of one segment: (hypothesis counts, reference counts, matches).")
{
    PyObject *h, *r;
    int N;
    if (!PyArg_ParseTuple(args, "UUi:chrf_segment", &h, &r, &N)) return NULL;
    if (in_range(order_ok(N), "char_order") < 0) return NULL;
    if (ready(h) < 0 || ready(r) < 0) return NULL;
    size_t lh0 = (size_t)PyUnicode_GET_LENGTH(h), lr0 = (size_t)PyUnicode_GET_LENGTH(r);
    if (lh0 >= MAX_TEXT || lr0 >= MAX_TEXT) {
        PyErr_SetString(PyExc_OverflowError, "text too long for the kernel");
        return NULL;
    }
    Work *w = mtk_work_get();
    if (!w || mtk_work_chrf(w, lh0 > lr0 ? lh0 : lr0) < 0) {
        mtk_work_put(w);
        return PyErr_NoMemory();
    }
    i64 o[3 * MAX_ORDER];
    PyThreadState *ts = NULL;
    /* h and r are borrowed from the argument tuple, which the caller keeps alive */
    if (lh0 + lr0 >= 8 * NOGIL_WORK) ts = PyEval_SaveThread();
    size_t lh = mtk_strip_text(h, w->cpa), lr = mtk_strip_text(r, w->cpb);
    mtk_chrf_segment_counts(w, w->cpa, lh, w->cpb, lr, N, o);
    if (ts) PyEval_RestoreThread(ts);
    mtk_work_put(w);
    PyObject *a = mtk_tuple_of(o, N), *b = mtk_tuple_of(o + N, N), *c = mtk_tuple_of(o + 2 * N, N);
    PyObject *res = (a && b && c) ? PyTuple_Pack(3, a, b, c) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
    return res;
}

/* The arguments (counts, char_order, beta) of chrf_scores and chrf_ratios: the n segments
 * of a chrf_counts buffer of char_order N, to be scored with beta. */
typedef struct {
    Py_buffer view;
    int N, beta;
    Py_ssize_t n;
} CountsArgs;

/* Parse args (format: "y*ii:" and the export's name) into *a; -1 with an exception (and
 * nothing held): ValueError when N or beta is out of the kernel's range or the buffer has a
 * partial segment.  Release a->view after use. */
static int
counts_args(PyObject *args, const char *format, CountsArgs *a)
{
    if (!PyArg_ParseTuple(args, format, &a->view, &a->N, &a->beta)) return -1;
    Py_ssize_t stride = 3 * (Py_ssize_t)a->N * (Py_ssize_t)sizeof(i64);
    if (in_range(order_ok(a->N) && beta_ok(a->beta), "char_order or beta") < 0) {
        PyBuffer_Release(&a->view);
        return -1;
    }
    if (a->view.len % stride) {
        PyErr_SetString(PyExc_ValueError, "counts buffer has a partial segment");
        PyBuffer_Release(&a->view);
        return -1;
    }
    a->n = a->view.len / stride;
    return 0;
}

/* The list of item(a, counts of segment i, ctx) over the segments of a; NULL with an
 * exception (item's NULL ends it). */
static PyObject *
counts_list(const CountsArgs *a, PyObject *(*item)(const CountsArgs *, const i64 *, void *),
            void *ctx)
{
    size_t stride = 3 * (size_t)a->N * sizeof(i64);
    PyObject *list = PyList_New(a->n);
    for (Py_ssize_t i = 0; list && i < a->n; i++) {
        i64 c[3 * MAX_ORDER];
        memcpy(c, (const char *)a->view.buf + (size_t)i * stride, stride);
        PyObject *x = item(a, c, ctx);
        if (!x) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

/* chrf_scores' item: the score of counts c, NaN where Python must finish it. */
static PyObject *
score_item(const CountsArgs *a, const i64 *c, void *ctx)
{
    (void)ctx;
    double d;
    if (!chrf_score_counts(c, c + a->N, c + 2 * a->N, a->N, (u32)a->beta, &d)) d = Py_NAN;
    return PyFloat_FromDouble(d);
}

KERNEL_FUNCTION(chrf_scores, args, "chrf_scores(counts, char_order, beta, /)",
                "Sentence chrF (0..100) of each segment of a chrf_counts buffer.")
{
    CountsArgs a;
    if (counts_args(args, "y*ii:chrf_scores", &a) < 0) return NULL;
    PyObject *out = counts_list(&a, score_item, NULL);
    PyBuffer_Release(&a.view);
    return out;
}

/* ---------------------------------------------------------------------------------------
 * chrf_ratios: mtcompute.metrics.chrf.ngrams.chrf_ratio of a counts buffer's total and of each of
 * its segments, as reduced (numerator, denominator) pairs, in 128-bit integers through the lcm
 * form of mtk_chrf_exact; None where a product would overflow (Python's integers finish it: the
 * reduced fraction is the same either way).
 * ------------------------------------------------------------------------------------- */

static PyObject *
u128_to_long(u128 v)
{
    if (!u128_hi(v)) return PyLong_FromUnsignedLongLong((unsigned long long)u128_lo(v));
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)u128_hi(v));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)u128_lo(v));
    PyObject *shift = PyLong_FromLong(64);
    PyObject *high = NULL, *res = NULL;
    if (hi && lo && shift) high = PyNumber_Lshift(hi, shift);
    if (high) res = PyNumber_Or(high, lo);
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    Py_XDECREF(high);
    return res;
}

/* The tuple (num, den) of Python ints. */
static PyObject *
ratio_pair(u128 num, u128 den)
{
    PyObject *a = u128_to_long(num), *b = a ? u128_to_long(den) : NULL;
    PyObject *res = (a && b) ? PyTuple_Pack(2, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return res;
}

/* The chrf_ratio of counts c as a (num, den) pair of int, or None where Python must finish
 * it. */
static PyObject *
ratio_or_none(const i64 *c, int N, int beta)
{
    u128 num, den;
    if (chrf_ratio_counts(c, c + N, c + 2 * N, N, (u32)beta, &num, &den))
        return ratio_pair(num, den);
    return Py_NewRef(Py_None);
}

/* The counts summed over the segments so far, while no sum overflows. */
typedef struct {
    i64 sums[3 * MAX_ORDER];
    int summed;
} CountsSum;

/* chrf_ratios' item: ratio_or_none of counts c, added to the CountsSum ctx. */
static PyObject *
ratio_item(const CountsArgs *a, const i64 *c, void *ctx)
{
    CountsSum *t = ctx;
    for (int k = 0; k < 3 * a->N; k++)
        t->summed &= !mtk_add_i64_overflow(t->sums[k], c[k], &t->sums[k]);
    return ratio_or_none(c, a->N, a->beta);
}

KERNEL_FUNCTION(chrf_ratios, args, "chrf_ratios(counts, char_order, beta, /)",
                "The exact chrF of a chrf_counts buffer's total and of each segment.")
{
    CountsArgs a;
    if (counts_args(args, "y*ii:chrf_ratios", &a) < 0) return NULL;
    CountsSum t = {.summed = 1};
    PyObject *out = NULL, *list = counts_list(&a, ratio_item, &t), *total = NULL;
    if (list) total = t.summed ? ratio_or_none(t.sums, a.N, a.beta) : Py_NewRef(Py_None);
    if (total) out = PyTuple_Pack(2, total, list);
    Py_XDECREF(total);
    Py_XDECREF(list);
    PyBuffer_Release(&a.view);
    return out;
}

PyMethodDef mtk_chrf_methods[] = {
    KERNEL_METHOD(chrf_counts, METH_VARARGS),
    KERNEL_METHOD(chrf_segment, METH_VARARGS),
    KERNEL_METHOD(chrf_scores, METH_VARARGS),
    KERNEL_METHOD(chrf_ratios, METH_VARARGS),
    KERNEL_METHODS_END,
};
