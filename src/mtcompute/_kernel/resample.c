/*
 * resample.c: sacreBLEU 2.6.0's paired bootstrap test (significance.py `_paired_bs_test`) for
 * BLEU and chrF, bit for bit, without numpy (called by mtcompute.sacrebleu._paired).
 * Python twins: mtcompute.significance.paired_bootstrap (arithmetic "sacrebleu") and the numpy
 * path of mtcompute.sacrebleu.significance.PairedTest.
 *
 * - The draws: numpy's `default_rng(seed).choice(N, (S, N), replace=True)`, that is PCG64
 *   (128-bit LCG, XSL-RR output; the state and increment SeedSequence derives are computed in
 *   Python: mtcompute.sacrebleu._paired) and `random_bounded_uint64_fill` without masking:
 *   Lemire's bounded draws on 32-bit words (each 64-bit output split, low half first) while
 *   N - 1 < 2**32.
 * - The sums: each resample's float32 column sums.  The statistics taken are integers whose
 *   every sum is exact in float32 (non-negative, N * max <= 2**24; also at most 65535, as
 *   they are stored in uint16), so integer sums converted to float are numpy's float32 sums,
 *   whatever its order.  Columns that several series share (the references' counts) are
 *   summed once.
 * - The scores: BLEU.compute_bleu and CHRF._compute_f_score on the float32 sums, in numpy 2's
 *   scalar rules (NEP 50: a Python number meeting a float32 is rounded to float32 first), the
 *   logs and exponentials in double through the C library as Python's math module calls it.
 * - NaN scores (a smoothing value past float32's range): None, the numpy path's turn.
 * - estimate_ci, the paired test's p-value: np.sort, numpy's pairwise sum for the means (in
 *   float32 for a float32 array of scores), comparisons in the array's type.
 */
#include "common.h"

/* ---------------------------------------------------------------------------------------- */
/* PCG64 and the bounded draws                                                               */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    u128 state, inc;
    int has32;    /* a 32-bit half of the last 64-bit output is waiting */
    u32 buffered; /* that half */
} Pcg64;

static inline u128
u128_make(u64 hi, u64 lo)
{
    return u128_or(u128_shl(u128_of(hi), 64), u128_of(lo));
}

static inline u64
pcg_next64(Pcg64 *g)
{
    /* state = state * PCG_DEFAULT_MULTIPLIER_128 + inc (mod 2**128), then XSL-RR */
    const u64 mul_hi = 0x2360ED051FC65DA4ULL, mul_lo = 0x4385DF649FCCF645ULL;
    u64 s_hi = u128_hi(g->state), s_lo = u128_lo(g->state);
    u128 low = u128_mul64(s_lo, mul_lo);
    u128 product = u128_make(u128_hi(low) + s_hi * mul_lo + s_lo * mul_hi, u128_lo(low));
    g->state = u128_add(product, g->inc);
    u64 x = u128_hi(g->state) ^ u128_lo(g->state);
    unsigned rot = (unsigned)(u128_hi(g->state) >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

static inline u32
pcg_next32(Pcg64 *g)
{
    if (g->has32) {
        g->has32 = 0;
        return g->buffered;
    }
    u64 next = pcg_next64(g);
    g->has32 = 1;
    g->buffered = (u32)(next >> 32);
    return (u32)(next & 0xFFFFFFFFULL);
}

/* A draw in [0, rng]: numpy's bounded_lemire_uint32 (rng < 2**32 - 1) or a plain word. */
static inline u32
bounded32(Pcg64 *g, u32 rng)
{
    if (rng == 0xFFFFFFFFU) return pcg_next32(g);
    const u32 excl = rng + 1;
    u64 m = (u64)pcg_next32(g) * excl;
    u32 leftover = (u32)m;
    if (leftover < excl) {
        const u32 threshold = (0xFFFFFFFFU - rng) % excl;
        while (leftover < threshold) {
            m = (u64)pcg_next32(g) * excl;
            leftover = (u32)m;
        }
    }
    return (u32)(m >> 32);
}

/* The generator of a 32-byte state: state (high, low), increment (high, low), native u64. */
static int
pcg_of(PyObject *obj, Pcg64 *g)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return -1;
    if (view.len != 4 * (Py_ssize_t)sizeof(u64)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "state: expected 32 bytes (4 native uint64)");
        return -1;
    }
    u64 w[4];
    memcpy(w, view.buf, sizeof w);
    PyBuffer_Release(&view);
    g->state = u128_make(w[0], w[1]);
    g->inc = u128_make(w[2], w[3]);
    g->has32 = 0;
    g->buffered = 0;
    return 0;
}

static PyObject *
py_resample_draws(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *state;
    unsigned long long n;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "OKn:resample_draws", &state, &n, &count)) return NULL;
    if (n < 1 || n > 0x100000000ULL || count < 0) {
        PyErr_SetString(PyExc_ValueError, "resample_draws: n in [1, 2**32], count >= 0");
        return NULL;
    }
    if (count > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(i64)) return PyErr_NoMemory();
    Pcg64 g;
    if (pcg_of(state, &g) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, count * (Py_ssize_t)sizeof(i64));
    if (!out) return NULL;
    i64 *v = (i64 *)PyBytes_AS_STRING(out);
    u32 rng = (u32)(n - 1);
    for (Py_ssize_t i = 0; i < count; i++) v[i] = rng == 0 ? 0 : (i64)bounded32(&g, rng);
    return out;
}

/* ---------------------------------------------------------------------------------------- */
/* numpy 2 scalar arithmetic: a value is a Python float (double) or a numpy float32           */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    double v;
    int f32;
} Num;

static inline Num
py(double v)
{
    Num n = {v, 0};
    return n;
}

static inline Num
f32(float v)
{
    Num n = {(double)v, 1};
    return n;
}

static inline Num
num_add(Num a, Num b)
{
    if (a.f32 || b.f32) return f32((float)a.v + (float)b.v);
    return py(a.v + b.v);
}

static inline Num
num_mul(Num a, Num b)
{
    if (a.f32 || b.f32) return f32((float)a.v * (float)b.v);
    return py(a.v * b.v);
}

static inline Num
num_div(Num a, Num b)
{
    if (a.f32 || b.f32) return f32((float)a.v / (float)b.v);
    return py(a.v / b.v);
}

/* ---------------------------------------------------------------------------------------- */
/* The scores of summed statistics                                                           */
/* ---------------------------------------------------------------------------------------- */

enum { KIND_BLEU = 0, KIND_CHRF = 1 };
enum { SMOOTH_NONE = 0, SMOOTH_FLOOR = 1, SMOOTH_ADDK = 2, SMOOTH_EXP = 3 };

typedef struct {
    int kind;
    int width;      /* statistics per segment */
    int order;      /* BLEU: max_ngram_order; chrF: char_order + word_order */
    int smooth;     /* BLEU */
    double value;   /* BLEU: smooth_value */
    int effective;  /* BLEU: effective_order */
    int beta;       /* chrF */
    int eps;        /* chrF: eps_smoothing */
    Py_ssize_t col; /* its first column in the matrix */
    double *scores; /* samples */
    int all32;      /* every score a numpy float32 */
} Spec;

#define LOG_ZERO (-9999999999.0) /* sacreBLEU's my_log(0) */

/* sum([my_log(p) for p in prec[:n]]) as this Python's sum adds: my_log(0) is the int
 * -9999999999, the leading ints are added exactly, the first float to their total; then up to
 * 3.11 one float addition after another, from 3.12 Neumaier's compensated sum of the floats
 * (ints added plainly), the compensation added at the end. */
static double
python_sum_of_logs(const Num *prec, int n)
{
    int j = 0;
    double total = 0.0; /* the leading ints: exact (a few times 1e10) */
    for (; j < n && prec[j].v == 0.0; j++) total += LOG_ZERO;
    if (j == n) return total;
    total += log(prec[j++].v);
#if PY_VERSION_HEX >= 0x030C0000
    double c = 0.0;
    for (; j < n; j++) {
        if (prec[j].v == 0.0) {
            total += LOG_ZERO;
            continue;
        }
        double x = log(prec[j].v), t = total + x;
        c += fabs(total) >= fabs(x) ? (total - t) + x : (x - t) + total;
        total = t;
    }
    if (c != 0.0 && isfinite(c)) total += c;
#else
    for (; j < n; j++) total += prec[j].v == 0.0 ? LOG_ZERO : log(prec[j].v);
#endif
    return total;
}

/* BLEU.compute_bleu of float32 sums s (its _compute_score_from_stats): a Python float. */
static double
bleu_of(const Spec *sp, const float *s)
{
    int n = sp->order;
    float c[MAX_ORDER], t[MAX_ORDER];
    Num prec[MAX_ORDER];
    int any = 0;
    for (int j = 0; j < n; j++) {
        c[j] = s[2 + j];
        t[j] = s[2 + n + j];
        any |= c[j] != 0.0f;
        prec[j] = py(0.0);
    }
    i64 sys_len = (i64)s[0], ref_len = (i64)s[1];
    double bp = 1.0;
    if (sys_len < ref_len) bp = sys_len > 0 ? exp(1 - (double)ref_len / (double)sys_len) : 0.0;
    if (!any) return 0.0;
    double smooth = 1.0;
    int eff = n;
    for (int j = 0; j < n; j++) {
        if (sp->smooth == SMOOTH_ADDK && j > 0) {
            c[j] = c[j] + (float)sp->value;
            t[j] = t[j] + (float)sp->value;
        }
        if (t[j] == 0.0f) break;
        if (sp->effective) eff = j + 1;
        if (c[j] == 0.0f) {
            if (sp->smooth == SMOOTH_EXP) {
                smooth *= 2;
                prec[j] = f32(100.0f / ((float)smooth * t[j]));
            } else if (sp->smooth == SMOOTH_FLOOR) {
                prec[j] = f32((float)(100.0 * sp->value) / t[j]);
            }
        } else {
            prec[j] = f32(100.0f * c[j] / t[j]);
        }
    }
    return bp * exp(python_sum_of_logs(prec, eff) / eff);
}

/* CHRF._compute_f_score of float32 sums s: a Python float or a float32 (*is32). */
static double
chrf_of(const Spec *sp, const float *s, int *is32)
{
    const double eps = 1e-16;
    /* beta ** 2, exact (the caller keeps |beta| <= 2**26): an int would overflow */
    double factor = (double)sp->beta * (double)sp->beta;
    Num score = py(0.0), avg_prec = py(0.0), avg_rec = py(0.0);
    int effective = 0;
    for (int i = 0; i < sp->order; i++) {
        float n_hyp = s[3 * i], n_ref = s[3 * i + 1], n_match = s[3 * i + 2];
        Num prec = n_hyp > 0 ? f32(n_match / n_hyp) : py(eps);
        Num rec = n_ref > 0 ? f32(n_match / n_ref) : py(eps);
        Num denom = num_add(num_mul(py(factor), prec), rec);
        Num term =
            denom.v > 0 ? num_div(num_mul(num_mul(py(1 + factor), prec), rec), denom) : py(eps);
        score = num_add(score, term);
        if (n_hyp > 0 && n_ref > 0) {
            avg_prec = num_add(avg_prec, prec);
            avg_rec = num_add(avg_rec, rec);
            effective++;
        }
    }
    Num out;
    if (sp->eps) {
        out = num_div(num_mul(py(100), score), py(sp->order));
    } else {
        if (effective == 0) {
            avg_prec = avg_rec = py(0.0);
        } else {
            avg_prec = num_div(avg_prec, py(effective));
            avg_rec = num_div(avg_rec, py(effective));
        }
        if (num_add(avg_prec, avg_rec).v != 0.0) {
            Num f = num_mul(num_mul(py(1 + factor), avg_prec), avg_rec);
            f = num_div(f, num_add(num_mul(py(factor), avg_prec), avg_rec));
            out = num_mul(py(100), f);
        } else {
            out = py(0.0);
        }
    }
    *is32 = out.f32;
    return out.v;
}

static int
spec_of(PyObject *t, Spec *sp)
{
    memset(sp, 0, sizeof *sp);
    if (!PyTuple_Check(t)) { /* PyArg_ParseTuple would raise SystemError */
        PyErr_SetString(PyExc_TypeError, "spec: a tuple of 8 numbers expected");
        return -1;
    }
    if (!PyArg_ParseTuple(t, "iiiidiii:spec", &sp->kind, &sp->order, &sp->smooth, &sp->effective,
                          &sp->value, &sp->beta, &sp->eps, &sp->width))
        return -1;
    int want = sp->kind == KIND_BLEU ? 2 + 2 * sp->order : 3 * sp->order;
    if ((sp->kind != KIND_BLEU && sp->kind != KIND_CHRF) || sp->order < 1 ||
        sp->order > MAX_ORDER || sp->width != want || sp->smooth < 0 || sp->smooth > 3) {
        PyErr_SetString(PyExc_ValueError, "spec: unknown metric or widths");
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The resampled scores of many series                                                       */
/* ---------------------------------------------------------------------------------------- */

#define EXACT32 16777216.0 /* 2**24: every integer sum up to it is exact in float32 */
#define TILE 32            /* columns added at once: their sums stay in registers */
#define MOST16 65535       /* the largest statistic stored (as uint16: half the bytes to read) */

/* out[0..TILE) = the sums of the rows drawn[0..n) of a tile (TILE columns of every segment,
 * one block of uint16): a tile at a time, so that the sums stay in registers and the rows read
 * are a block that stays in the cache, added as uint16 in chunks of `chunk` rows (whose sums
 * cannot pass 65535) and these into int32.  With GCC and Clang in vectors of 8 (GCC 12 at -O3
 * otherwise unrolls and jams the loops into scalar additions through memory, 4x slower; AVX2's
 * vectors of 16 were no faster: the rows' reads bound it). */
static MTK_NOINLINE void
add_tile(const uint16_t *tile, const u32 *drawn, Py_ssize_t n, Py_ssize_t chunk, int32_t *out)
{
    int32_t a[TILE] = {0};
#if defined(__GNUC__)
    typedef uint16_t h8 __attribute__((vector_size(16)));
    typedef uint16_t h8u __attribute__((vector_size(16), aligned(2), may_alias)); /* a row */
    for (Py_ssize_t start = 0; start < n; start += chunk) {
        Py_ssize_t stop = n - start < chunk ? n : start + chunk;
        h8 part[TILE / 8];
        memset(part, 0, sizeof part);
        for (Py_ssize_t i = start; i < stop; i++) {
            const h8u *r = (const h8u *)(tile + (Py_ssize_t)drawn[i] * TILE);
            for (int k = 0; k < TILE / 8; k++) part[k] += r[k];
        }
        uint16_t sums[TILE];
        memcpy(sums, part, sizeof sums);
        for (int c = 0; c < TILE; c++) a[c] += sums[c];
    }
#else
    (void)chunk;
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint16_t *row = tile + (Py_ssize_t)drawn[i] * TILE;
        for (int c = 0; c < TILE; c++) a[c] += row[c];
    }
#endif
    memcpy(out, a, sizeof a);
}

/* bootstrap_scores of a tuple of series (a snapshot of the caller's list: the numbers and
 * buffers read may run Python code, which could empty that list under us). */
static PyObject *
scores_of_series(PyObject *state, Py_ssize_t samples, Py_ssize_t segments, PyObject *series)
{
    Py_ssize_t ns = PyTuple_GET_SIZE(series);
    if (samples < 1 || segments < 1 || segments > 0x7FFFFFFF || ns < 1) {
        PyErr_SetString(PyExc_ValueError, "bootstrap_scores: samples, segments, series >= 1");
        return NULL;
    }
    /* each series' scores: samples doubles, a size that must not wrap around */
    if (samples > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(double)) return PyErr_NoMemory();
    Pcg64 g;
    if (pcg_of(state, &g) < 0) return NULL;
    Spec *specs = PyMem_Calloc((size_t)ns, sizeof(Spec));
    if (!specs) return PyErr_NoMemory();
    PyObject *result = NULL;
    uint16_t *matrix = NULL;
    int32_t *acc = NULL;
    u32 *drawn = NULL;
    float *sums = NULL;
    Py_ssize_t width = 0, stride = 0, used = 0, *where = NULL, *chunks = NULL;
    for (Py_ssize_t i = 0; i < ns; i++) {
        PyObject *item = PyTuple_GET_ITEM(series, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
            PyErr_SetString(PyExc_TypeError, "series: (spec, int64 rows) pairs expected");
            goto done;
        }
        if (spec_of(PyTuple_GET_ITEM(item, 0), &specs[i]) < 0) goto done;
        specs[i].col = width;
        width += specs[i].width;
    }
    stride = (width + TILE - 1) / TILE * TILE; /* zero columns up to whole tiles */
    matrix = PyMem_Calloc((size_t)(segments * stride), sizeof(uint16_t));
    acc = PyMem_Malloc((size_t)stride * sizeof(int32_t));
    sums = PyMem_Malloc((size_t)width * sizeof(float));
    drawn = PyMem_Malloc((size_t)segments * sizeof(u32));
    where = PyMem_Malloc((size_t)width * sizeof(Py_ssize_t));
    chunks = PyMem_Calloc((size_t)(stride / TILE), sizeof(Py_ssize_t)); /* first: the largest */
    if (!matrix || !acc || !sums || !drawn || !where || !chunks) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < ns; i++) {
        Spec *sp = &specs[i];
        Py_buffer view;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(PyTuple_GET_ITEM(series, i), 1), &view,
                               PyBUF_SIMPLE) < 0)
            goto done;
        if (view.len != segments * sp->width * (Py_ssize_t)sizeof(i64)) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "series: rows of another size than the widths");
            goto done;
        }
        const i64 *rows = view.buf;
        const Spec *like = sp; /* the first series of its kind: its columns may be the same */
        for (Py_ssize_t j = 0; j < i && like == sp; j++)
            if (specs[j].kind == sp->kind && specs[j].width == sp->width) like = &specs[j];
        int exact = 1;
        for (int c = 0; c < sp->width && exact; c++) {
            i64 most = 0;
            int same = like != sp;
            Py_ssize_t twin = same ? where[like->col + c] : 0;
            for (Py_ssize_t r = 0; r < segments; r++) {
                i64 v = rows[r * sp->width + c];
                if (v < 0) exact = 0;
                if (v > most) most = v;
                /* tile by tile, each a block of whole rows */
                matrix[(used / TILE * segments + r) * TILE + used % TILE] = (uint16_t)v;
                if (same) same = matrix[(twin / TILE * segments + r) * TILE + twin % TILE] == v;
            }
            if ((double)most * (double)segments > EXACT32 || most > MOST16) exact = 0;
            /* a column another series has too (the references' counts): summed once */
            if (!same && most > chunks[used / TILE]) chunks[used / TILE] = most;
            where[sp->col + c] = same ? twin : used++;
        }
        PyBuffer_Release(&view);
        if (!exact) { /* float32 sums that may round: the numpy path adds them */
            result = Py_NewRef(Py_None);
            goto done;
        }
        sp->scores = PyMem_Malloc((size_t)samples * sizeof(double));
        if (!sp->scores) {
            PyErr_NoMemory();
            goto done;
        }
        sp->all32 = 1;
    }
    if (used < stride) /* the slot a last shared column was written to: never summed apart */
        for (Py_ssize_t r = 0; r < segments; r++)
            matrix[(used / TILE * segments + r) * TILE + used % TILE] = 0;
    for (Py_ssize_t t = 0; t < stride / TILE; t++) /* rows whose uint16 sums cannot pass 65535 */
        chunks[t] = chunks[t] ? MOST16 / chunks[t] : segments;
    Py_BEGIN_ALLOW_THREADS;
    u32 rng = (u32)(segments - 1);
    for (Py_ssize_t s = 0; s < samples; s++) {
        for (Py_ssize_t i = 0; i < segments; i++) drawn[i] = rng ? bounded32(&g, rng) : 0;
        for (Py_ssize_t t = 0; t < used; t += TILE) {
            add_tile(matrix + t * segments, drawn, segments, chunks[t / TILE], acc + t);
        }
        for (Py_ssize_t c = 0; c < width; c++) sums[c] = (float)acc[where[c]];
        for (Py_ssize_t i = 0; i < ns; i++) {
            Spec *sp = &specs[i];
            int is32 = 0;
            if (sp->kind == KIND_BLEU) {
                sp->scores[s] = bleu_of(sp, sums + sp->col);
            } else {
                sp->scores[s] = chrf_of(sp, sums + sp->col, &is32);
            }
            sp->all32 &= is32;
        }
    }
    Py_END_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < ns; i++) /* NaN scores (inf / inf): numpy's path sorts them */
        for (Py_ssize_t s = 0; s < samples; s++)
            if (isnan(specs[i].scores[s])) {
                result = Py_NewRef(Py_None);
                goto done;
            }
    result = PyList_New(ns);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < ns; i++) {
        PyObject *bytes = PyBytes_FromStringAndSize((const char *)specs[i].scores,
                                                    samples * (Py_ssize_t)sizeof(double));
        PyObject *pair =
            bytes ? Py_BuildValue("(NO)", bytes, specs[i].all32 ? Py_True : Py_False) : NULL;
        if (!pair) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, pair);
    }
done:
    for (Py_ssize_t i = 0; i < ns; i++) PyMem_Free(specs[i].scores);
    PyMem_Free(specs);
    PyMem_Free(matrix);
    PyMem_Free(drawn);
    PyMem_Free(where);
    PyMem_Free(chunks);
    PyMem_Free(acc);
    PyMem_Free(sums);
    return result;
}

static PyObject *
py_bootstrap_scores(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *state, *list;
    Py_ssize_t samples, segments;
    if (!PyArg_ParseTuple(args, "OnnO!:bootstrap_scores", &state, &samples, &segments, &PyList_Type,
                          &list))
        return NULL;
    PyObject *series = PyList_AsTuple(list);
    if (!series) return NULL;
    PyObject *result = scores_of_series(state, samples, segments, series);
    Py_DECREF(series);
    return result;
}

/* ---------------------------------------------------------------------------------------- */
/* numpy's pairwise sum, sort, estimate_ci and the p-value                                   */
/* ---------------------------------------------------------------------------------------- */

#define PW_BLOCKSIZE 128

/* numpy/_core/src/umath/loops_utils.h.src pairwise_sum, for TYPE in float and double. */
#define PAIRWISE(NAME, TYPE)                                                                       \
    static TYPE NAME(const TYPE *a, Py_ssize_t n)                                                  \
    {                                                                                              \
        if (n < 8) {                                                                               \
            TYPE res = -0.0;                                                                       \
            for (Py_ssize_t i = 0; i < n; i++) res += a[i];                                        \
            return res;                                                                            \
        }                                                                                          \
        if (n <= PW_BLOCKSIZE) {                                                                   \
            TYPE r[8];                                                                             \
            Py_ssize_t i;                                                                          \
            for (int j = 0; j < 8; j++) r[j] = a[j];                                               \
            for (i = 8; i < n - (n % 8); i += 8)                                                   \
                for (int j = 0; j < 8; j++) r[j] += a[i + j];                                      \
            TYPE res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));          \
            for (; i < n; i++) res += a[i];                                                        \
            return res;                                                                            \
        }                                                                                          \
        Py_ssize_t n2 = n / 2;                                                                     \
        n2 -= n2 % 8;                                                                              \
        return NAME(a, n2) + NAME(a + n2, n - n2);                                                 \
    }

PAIRWISE(pairwise_f, float)
PAIRWISE(pairwise_d, double)

static int
cmp_f(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static int
cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The scores of a buffer of doubles, or NULL with an error (NaN: numpy sorts it apart). */
static double *
scores_of(PyObject *obj, Py_ssize_t *n)
{
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return NULL;
    *n = view.len / (Py_ssize_t)sizeof(double);
    double *v = NULL;
    if (*n < 1 || view.len % (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "scores: a non-empty buffer of doubles expected");
    } else if ((v = PyMem_Malloc((size_t)*n * sizeof(double))) == NULL) {
        PyErr_NoMemory();
    } else {
        memcpy(v, view.buf, (size_t)*n * sizeof(double));
        for (Py_ssize_t i = 0; i < *n; i++) {
            if (isnan(v[i])) {
                PyErr_SetString(PyExc_ValueError, "scores: NaN");
                PyMem_Free(v);
                v = NULL;
                break;
            }
        }
    }
    PyBuffer_Release(&view);
    return v;
}

static PyObject *
py_bootstrap_interval(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *obj;
    int is32;
    if (!PyArg_ParseTuple(args, "Op:bootstrap_interval", &obj, &is32)) return NULL;
    Py_ssize_t n;
    double *v = scores_of(obj, &n);
    if (!v) return NULL;
    Py_ssize_t lower = n / 40, upper = n - n / 40 - 1;
    double mean, ci;
    if (is32) {
        float *f = PyMem_Malloc((size_t)n * sizeof(float));
        if (!f) {
            PyMem_Free(v);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < n; i++) f[i] = (float)v[i];
        qsort(f, (size_t)n, sizeof(float), cmp_f);
        ci = (double)(0.5f * (f[upper] - f[lower]));
        mean = (double)(pairwise_f(f, n) / (float)n);
        PyMem_Free(f);
    } else {
        qsort(v, (size_t)n, sizeof(double), cmp_d);
        ci = 0.5 * (v[upper] - v[lower]);
        mean = pairwise_d(v, n) / (double)n;
    }
    PyMem_Free(v);
    return Py_BuildValue("(dd)", mean, ci);
}

static PyObject *
py_bootstrap_p(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *base_obj, *own_obj;
    int is32;
    double difference;
    if (!PyArg_ParseTuple(args, "OOpd:bootstrap_p", &base_obj, &own_obj, &is32, &difference))
        return NULL;
    Py_ssize_t n, m;
    double *base = scores_of(base_obj, &n);
    if (!base) return NULL;
    double *own = scores_of(own_obj, &m);
    if (!own || m != n) {
        if (own) PyErr_SetString(PyExc_ValueError, "bootstrap_p: scores of unequal lengths");
        PyMem_Free(base);
        PyMem_Free(own);
        return NULL;
    }
    Py_ssize_t count = 0;
    if (is32) { /* sample_diffs = |own - base|; stats = diffs - diffs.mean(); stats > d */
        float *d = PyMem_Malloc((size_t)n * sizeof(float));
        if (!d) {
            PyMem_Free(base);
            PyMem_Free(own);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < n; i++) d[i] = fabsf((float)own[i] - (float)base[i]);
        float mean = pairwise_f(d, n) / (float)n, limit = (float)difference;
        for (Py_ssize_t i = 0; i < n; i++) count += d[i] - mean > limit;
        PyMem_Free(d);
    } else {
        for (Py_ssize_t i = 0; i < n; i++) base[i] = fabs(own[i] - base[i]);
        double mean = pairwise_d(base, n) / (double)n;
        for (Py_ssize_t i = 0; i < n; i++) count += base[i] - mean > difference;
    }
    PyMem_Free(base);
    PyMem_Free(own);
    return PyFloat_FromDouble((double)(count + 1) / (double)(n + 1));
}

PyMethodDef mtk_resample_methods[] = {
    {"resample_draws", py_resample_draws, METH_VARARGS,
     "resample_draws(state, n, count, /)\n--\n\nnumpy's Generator.choice(n, count) indices."},
    {"bootstrap_scores", py_bootstrap_scores, METH_VARARGS,
     "bootstrap_scores(state, samples, segments, series, /)\n--\n\n"
     "Each series' scores over the bootstrap resamples (sacreBLEU's arithmetic)."},
    {"bootstrap_interval", py_bootstrap_interval, METH_VARARGS,
     "bootstrap_interval(scores, is32, /)\n--\n\nsacreBLEU's estimate_ci: (mean, ci)."},
    {"bootstrap_p", py_bootstrap_p, METH_VARARGS,
     "bootstrap_p(base, own, is32, difference, /)\n--\n\nThe paired bootstrap p-value."},
    {NULL, NULL, 0, NULL},
};
