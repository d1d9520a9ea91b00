/*
 * mtcompute._kernel: the optional C speed layer of mtcompute's sufficient statistics.
 *
 * What it computes, each with exactly the integers of the pure Python core:
 *
 *   - chrF (Popovic 2015, section 2): per segment and order n = 1..N, the hypothesis
 *     n-grams, the reference n-grams and the clipped matches (the sum over n-grams g of
 *     min(hyp count, ref count)), over Unicode code points after removing the 29
 *     whitespace code points of the chrf-compute contract (mtcompute.core.chrf);
 *   - sentence chrF scores as the double nearest (ties to even) to the exact rational of
 *     mtcompute.core.chrf.chrf_fraction, from counts or for every hypothesis/reference
 *     pair (MBR), in unsigned __int128 with a correctly rounded division; a pair whose
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
 *     as mtcompute.core.ter computes them, and TER segment statistics from tokenized
 *     texts (ter_statistics_text: words split and interned inside the kernel);
 *   - the lines of UTF-8 bytes as str objects (split_lines): strict UTF-8, only \n ends a
 *     line, checked and decoded without the GIL (what the score command reads its files by);
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
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef __SIZEOF_INT128__
#error "mtcompute._kernel needs unsigned __int128 (GCC or Clang); the pure path is used instead"
#endif

typedef unsigned __int128 u128;
typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t i64;

#define MAX_ORDER 64             /* char_order / max_order accepted by the kernel */
#define MAX_BETA 16              /* chrF beta accepted by the scorers */
#define MAX_TEXT ((size_t)1 << 28) /* longer texts and token lists go to the pure path */
#define NOGIL_WORK 2048          /* release the GIL only for at least this much input */
#define POOL_MAX 8               /* idle workspaces kept */

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

static inline int
clz128(u128 x)
{
    u64 hi = (u64)(x >> 64), lo = (u64)x;
    if (hi) return __builtin_clzll(hi);
    if (lo) return 64 + __builtin_clzll(lo);
    return 128;
}

static inline u64
gcd64(u64 a, u64 b)
{
    if (a == 0) return b;
    if (b == 0) return a;
    int shift = __builtin_ctzll(a | b);
    a >>= __builtin_ctzll(a);
    do {
        b >>= __builtin_ctzll(b);
        if (a > b) {
            u64 t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b);
    return a << shift;
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

/* Index of the first code point in U+D800..U+DFFF, or -1. */
static Py_ssize_t
first_surrogate(PyObject *s)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    if (kind == PyUnicode_1BYTE_KIND) return -1;
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *p = PyUnicode_2BYTE_DATA(s);
        for (Py_ssize_t i = 0; i < n; i++)
            if ((p[i] & 0xF800) == 0xD800) return i;
        return -1;
    }
    const Py_UCS4 *p = PyUnicode_4BYTE_DATA(s);
    for (Py_ssize_t i = 0; i < n; i++)
        if ((p[i] & 0xFFFFF800u) == 0xD800) return i;
    return -1;
}

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
    int dz = clz128(den);
    if (dz == 0) return 0;
    u128 q = num / den, rem = num - q * den;
    int e = 0; /* value = (q + rem / den) * 2^e */
    int qb = 128 - clz128(q);
    while (qb < 66) {
        int t = 66 - qb;
        if (t > dz) t = dz;
        rem <<= t; /* rem < den < 2^(128 - dz), so this fits */
        u128 d = rem / den;
        rem -= d * den;
        q = (q << t) | d;
        e -= t;
        qb = 128 - clz128(q);
    }
    int shift = qb - 53; /* >= 13 */
    u128 mant = q >> shift;
    u128 low = q & (((u128)1 << shift) - 1);
    u128 half = (u128)1 << (shift - 1);
    if (low > half || (low == half && (rem != 0 || (mant & 1)))) mant += 1;
    /* mant <= 2^53 (exactly representable); the exponent stays in range for q < 2^128 */
    *out = ldexp((double)(u64)mant, e + shift);
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
    u128 b2 = (u128)beta * beta, c = 100 * (1 + b2), t, x, y;
    if (__builtin_mul_overflow(p, q, &t) || __builtin_mul_overflow(t, c, num)) return 0;
    if (__builtin_mul_overflow(p, (u128)S, &x) || __builtin_mul_overflow(x, b2, &x)) return 0;
    if (__builtin_mul_overflow(q, (u128)H, &y) || __builtin_add_overflow(x, y, den)) return 0;
    return !__builtin_mul_overflow(*den, (u128)k, den);
}

/* chrF of chrf_terms as the double nearest to it; 0 on overflow.  p > 0. */
static int
chrf_exact(u128 p, u128 q, u64 H, u64 S, u32 k, u32 beta, double *out)
{
    u128 num, den;
    return chrf_terms(p, q, H, S, k, beta, &num, &den) && div_round(num, den, out);
}

/* lcm of v[0..k) (< 2^62) and the multipliers lcm / v[i]; 0 on overflow. */
static int
lcm_mults(const u64 *v, int k, u64 *lcm, u64 *mult)
{
    u64 l = 1;
    for (int i = 0; i < k; i++) {
        u64 g = gcd64(l, v[i]);
        u128 next = (u128)(l / g) * v[i];
        if (next >> 62) return 0;
        l = (u64)next;
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
chrf_sums(const i64 *h, const i64 *r, const i64 *m, int N, u128 *p, u128 *q, u64 *H, u64 *S,
          u32 *k)
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
    if (!lcm_mults(hv, e, H, mh) || !lcm_mults(rv, e, S, mr)) return -1;
    *p = 0;
    *q = 0;
    for (int i = 0; i < e; i++) {
        *p += (u128)mv[i] * mh[i];
        *q += (u128)mv[i] * mr[i];
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
    return chrf_exact(p, q, H, S, k, beta, out);
}

/* Euclid's steps in 128 bits while a value needs them, then gcd64 (binary, no division). */
static u128
gcd128(u128 a, u128 b)
{
    while (b >> 64 || a >> 64) {
        if (!b) return a;
        u128 t = a % b;
        a = b;
        b = t;
    }
    return gcd64((u64)a, (u64)b);
}

/*
 * The exact chrF of one segment's counts (chrf_sums) as a reduced fraction *num / *den
 * (0 is 0/1), what mtcompute.core.chrf.chrf_ratio gives.  1 when set, 0 when Python must
 * finish it.
 */
static int
chrf_ratio_counts(const i64 *h, const i64 *r, const i64 *m, int N, u32 beta, u128 *num,
                  u128 *den)
{
    u128 p, q;
    u64 H, S;
    u32 k;
    int sums = chrf_sums(h, r, m, N, &p, &q, &H, &S, &k);
    if (sums < 0) return 0;
    if (sums == 0) {
        *num = 0;
        *den = 1;
        return 1;
    }
    if (!chrf_terms(p, q, H, S, k, beta, num, den)) return 0;
    u128 g = gcd128(*num, *den);
    *num /= g;
    *den /= g;
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Workspaces                                                                            */
/* ------------------------------------------------------------------------------------ */

typedef struct {
    u64 key; /* chain_key; 0 = empty */
    u32 c1, c2; /* counts in the inserted and in the probed text */
} CEnt; /* chrF n-gram of one order */

typedef struct {
    u64 h;
    u32 tok, id1; /* index of the first token with this content; local id + 1 (0 = empty) */
} TEnt; /* token interning within a segment */

typedef struct {
    u64 key;             /* chain_key over token ids; 0 = empty */
    u32 hc, rc, maxrc;   /* hypothesis count, count in the current reference, largest */
    u32 stamp;           /* the reference rc belongs to */
} BEnt; /* BLEU n-gram of one order */

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

static Work *pool = NULL; /* idle workspaces; only touched with the GIL held */
static int pool_len = 0;

static void
work_free(Work *w)
{
    if (!w) return;
    free(w->ctab);
    free(w->btab);
    free(w->ttab);
    free(w->touched);
    free(w->cpa);
    free(w->cpb);
    free(w->sa);
    free(w->sb);
    free(w);
}

static Work *
work_get(void)
{
    if (pool) {
        Work *w = pool;
        pool = w->next;
        pool_len--;
        return w;
    }
    return calloc(1, sizeof(Work));
}

static void
work_put(Work *w)
{
    if (!w) return;
    if (pool_len >= POOL_MAX) {
        work_free(w);
        return;
    }
    w->next = pool;
    pool = w;
    pool_len++;
}

/* Grow a zero-filled table to at least `n` entries (contents are all-zero on return). */
static int
grow_zeroed(void **p, size_t *have, size_t n, size_t size)
{
    if (*have >= n) return 0;
    void *q = calloc(n, size);
    if (!q) return -1;
    free(*p);
    *p = q;
    *have = n;
    return 0;
}

/* Grow a scratch array to at least `n` entries (contents undefined). */
static int
grow_plain(void **p, size_t *have, size_t n, size_t size)
{
    if (*have >= n) return 0;
    void *q = malloc(n * size);
    if (!q) return -1;
    free(*p);
    *p = q;
    *have = n;
    return 0;
}

static int work_positions(Work *w, size_t cp);

/* Room for code points, position arrays and the per-order table of texts up to maxlen. */
static int
work_chrf(Work *w, size_t maxlen)
{
    size_t slots = (size_t)1 << table_bits(maxlen ? maxlen : 1);
    if (grow_zeroed((void **)&w->ctab, &w->ctab_n, slots, sizeof(CEnt))) return -1;
    if (grow_plain((void **)&w->touched, &w->touched_n, maxlen + 1, sizeof(u32))) return -1;
    return work_positions(w, maxlen + 1);
}

/* cpa, cpb, sa and sb with room for cp entries each. */
static int
work_positions(Work *w, size_t cp)
{
    if (cp > w->cp_n) {
        void *p[4];
        for (int i = 0; i < 4; i++) p[i] = malloc(cp * sizeof(u32));
        if (!p[0] || !p[1] || !p[2] || !p[3]) {
            for (int i = 0; i < 4; i++) free(p[i]);
            return -1;
        }
        free(w->cpa);
        free(w->cpb);
        free(w->sa);
        free(w->sb);
        w->cpa = p[0];
        w->cpb = p[1];
        w->sa = p[2];
        w->sb = p[3];
        w->cp_n = cp;
    }
    return 0;
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

/* The code points of `s` without whitespace, into out (room for len(s)); their count. */
static size_t
strip_text(PyObject *s, u32 *out)
{
    size_t n = 0;
    Py_ssize_t len = PyUnicode_GET_LENGTH(s);
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND: {
        const Py_UCS1 *p = PyUnicode_1BYTE_DATA(s);
        for (Py_ssize_t i = 0; i < len; i++) {
            u32 c = p[i];
            out[n] = c;
            n += !WS_LATIN1[c];
        }
        break;
    }
    case PyUnicode_2BYTE_KIND: {
        const Py_UCS2 *p = PyUnicode_2BYTE_DATA(s);
        for (Py_ssize_t i = 0; i < len; i++) {
            u32 c = p[i];
            out[n] = c;
            n += !is_ws(c);
        }
        break;
    }
    default: {
        const Py_UCS4 *p = PyUnicode_4BYTE_DATA(s);
        for (Py_ssize_t i = 0; i < len; i++) {
            u32 c = p[i];
            out[n] = c;
            n += !is_ws(c);
        }
        break;
    }
    }
    return n;
}

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
#define CHAIN_TABLE(X, Ent)                                                                 \
    static inline int X##_find(const Ent *tab, unsigned bits, u64 key, u32 *slot)         \
    {                                                                                      \
        u32 mask = (u32)(((u64)1 << bits) - 1), s = slot_of(key, bits);                    \
        for (;; s = (s + 1) & mask) {                                                      \
            if (tab[s].key == key) {                                                       \
                *slot = s;                                                                 \
                return 1;                                                                  \
            }                                                                              \
            if (!tab[s].key) return 0;                                                     \
        }                                                                                  \
    }                                                                                      \
    static inline u32 X##_add(Ent *tab, unsigned bits, u64 key, u32 *touched, size_t *nt) \
    {                                                                                      \
        u32 mask = (u32)(((u64)1 << bits) - 1), s = slot_of(key, bits);                    \
        for (;; s = (s + 1) & mask) {                                                      \
            if (tab[s].key == key) return s;                                               \
            if (!tab[s].key) {                                                             \
                tab[s].key = key;                                                          \
                touched[(*nt)++] = s;                                                      \
                return s;                                                                  \
            }                                                                              \
        }                                                                                  \
    }

CHAIN_TABLE(cent, CEnt)
CHAIN_TABLE(bent, BEnt)

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
static void
chrf_segment_counts(Work *w, const u32 *h, size_t lh, const u32 *r, size_t lr, int N, i64 *o)
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
static int
hold_texts(PyObject *seq, const char *what, PyObject **held, Py_ssize_t at, Py_ssize_t step,
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

static void
release_held(PyObject **held, Py_ssize_t n)
{
    if (!held) return;
    for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(held[i]);
    PyMem_Free(held);
}

static PyObject *
tuple_of(const i64 *v, int n)
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

PyDoc_STRVAR(chrf_counts_doc,
"chrf_counts(hypotheses, references, char_order, per_segment, /)\n--\n\n"
"chrF statistics of aligned segments: (buffer or None, totals).  The buffer holds, per\n"
"segment, 3*char_order native int64 counts: hypothesis n-grams, reference n-grams and\n"
"clipped matches for n = 1..char_order; totals are the per-order sums (3*char_order\n"
"ints).  Texts are str (lowercase them first if wanted); whitespace is removed here.");

static PyObject *
py_chrf_counts(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *hf = NULL, *rf = NULL, *buf = NULL, *result = NULL;
    PyObject **held = NULL;
    Py_ssize_t n = 0;
    int N, per_segment;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOip:chrf_counts", &hyps, &refs, &N, &per_segment))
        return NULL;
    if (N < 1 || N > MAX_ORDER) {
        PyErr_SetString(PyExc_ValueError, "char_order out of range for the kernel");
        return NULL;
    }
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
    if (hold_texts(hf, "hypotheses", held, 0, 2, &maxlen, &total) < 0) goto done;
    if (hold_texts(rf, "references", held, 1, 2, &maxlen, &total) < 0) goto done;

    i64 *seg = NULL;
    if (per_segment) {
        buf = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)n * 3 * N * sizeof(i64)));
        if (!buf) goto done;
        seg = (i64 *)PyBytes_AS_STRING(buf);
    }
    i64 totals[3 * MAX_ORDER];
    i64 one[3 * MAX_ORDER];
    memset(totals, 0, sizeof totals);
    Work *w = work_get();
    if (!w || work_chrf(w, maxlen) < 0) {
        work_put(w);
        PyErr_NoMemory();
        goto done;
    }
    PyThreadState *ts = NULL;
    if (total >= NOGIL_WORK) ts = PyEval_SaveThread();
    for (Py_ssize_t i = 0; i < n; i++) {
        size_t lh = strip_text(held[2 * i], w->cpa);
        size_t lr = strip_text(held[2 * i + 1], w->cpb);
        i64 *o = seg ? seg + (size_t)i * 3 * N : one;
        chrf_segment_counts(w, w->cpa, lh, w->cpb, lr, N, o);
        for (int k = 0; k < 3 * N; k++) totals[k] += o[k];
    }
    if (ts) PyEval_RestoreThread(ts);
    work_put(w);

    PyObject *tot = tuple_of(totals, 3 * N);
    if (!tot) goto done;
    result = PyTuple_Pack(2, buf ? buf : Py_None, tot);
    Py_DECREF(tot);
done:
    Py_XDECREF(buf);
    Py_XDECREF(hf);
    Py_XDECREF(rf);
    release_held(held, 2 * n);
    return result;
}

PyDoc_STRVAR(chrf_segment_doc,
"chrf_segment(hypothesis, reference, char_order, /)\n--\n\n"
"chrF statistics of one segment: (hypothesis counts, reference counts, matches), each a\n"
"tuple of char_order ints.");

static PyObject *
py_chrf_segment(PyObject *self, PyObject *args)
{
    PyObject *h, *r;
    int N;
    (void)self;
    if (!PyArg_ParseTuple(args, "UUi:chrf_segment", &h, &r, &N)) return NULL;
    if (N < 1 || N > MAX_ORDER) {
        PyErr_SetString(PyExc_ValueError, "char_order out of range for the kernel");
        return NULL;
    }
    if (ready(h) < 0 || ready(r) < 0) return NULL;
    size_t lh0 = (size_t)PyUnicode_GET_LENGTH(h), lr0 = (size_t)PyUnicode_GET_LENGTH(r);
    if (lh0 >= MAX_TEXT || lr0 >= MAX_TEXT) {
        PyErr_SetString(PyExc_OverflowError, "text too long for the kernel");
        return NULL;
    }
    Work *w = work_get();
    if (!w || work_chrf(w, lh0 > lr0 ? lh0 : lr0) < 0) {
        work_put(w);
        return PyErr_NoMemory();
    }
    i64 o[3 * MAX_ORDER];
    PyThreadState *ts = NULL;
    /* h and r are borrowed from the argument tuple, which the caller keeps alive */
    if (lh0 + lr0 >= 8 * NOGIL_WORK) ts = PyEval_SaveThread();
    size_t lh = strip_text(h, w->cpa), lr = strip_text(r, w->cpb);
    chrf_segment_counts(w, w->cpa, lh, w->cpb, lr, N, o);
    if (ts) PyEval_RestoreThread(ts);
    work_put(w);
    PyObject *a = tuple_of(o, N), *b = tuple_of(o + N, N), *c = tuple_of(o + 2 * N, N);
    PyObject *res = (a && b && c) ? PyTuple_Pack(3, a, b, c) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(c);
    return res;
}

/* The segments of a chrf_counts buffer of char_order N, to be scored with beta; -1 with
 * ValueError set when N or beta is out of the kernel's range or the buffer has a partial
 * segment. */
static Py_ssize_t
counts_rows(const Py_buffer *view, int N, int beta)
{
    if (N < 1 || N > MAX_ORDER || beta < 1 || beta > MAX_BETA) {
        PyErr_SetString(PyExc_ValueError, "char_order or beta out of range for the kernel");
        return -1;
    }
    Py_ssize_t stride = 3 * (Py_ssize_t)N * (Py_ssize_t)sizeof(i64);
    if (view->len % stride) {
        PyErr_SetString(PyExc_ValueError, "counts buffer has a partial segment");
        return -1;
    }
    return view->len / stride;
}

PyDoc_STRVAR(chrf_scores_doc,
"chrf_scores(counts, char_order, beta, /)\n--\n\n"
"Sentence chrF (0..100) of each segment of a chrf_counts buffer, as the double nearest\n"
"to the exact chrf_fraction; NaN where the exact integers do not fit 128 bits (finish\n"
"those in Python).");

static PyObject *
py_chrf_scores(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int N, beta;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ii:chrf_scores", &view, &N, &beta)) return NULL;
    PyObject *out = NULL;
    Py_ssize_t n = counts_rows(&view, N, beta);
    if (n < 0) goto done;
    size_t stride = 3 * (size_t)N * sizeof(i64);
    out = PyList_New(n);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 c[3 * MAX_ORDER];
        memcpy(c, (const char *)view.buf + (size_t)i * stride, stride);
        double d;
        if (!chrf_score_counts(c, c + N, c + 2 * N, N, (u32)beta, &d)) d = Py_NAN;
        PyObject *f = PyFloat_FromDouble(d);
        if (!f) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, f);
    }
done:
    PyBuffer_Release(&view);
    return out;
}

/* ------------------------------------------------------------------------------------ */
/* chrF for every hypothesis/reference pair (MBR)                                        */
/* ------------------------------------------------------------------------------------ */

/*
 * Every n-gram of the call gets an id once (order by order over all texts, keyed exactly
 * by (id of its (n-1)-gram prefix + 1, last code point)); each text becomes (id, count)
 * lists per order, and the references an inverted index id -> (reference, count).  For a
 * hypothesis, walking its n-grams' postings adds min(hyp count, ref count) to that
 * reference's match count for the order, so only shared n-grams cost anything.  Then
 * every pair is scored exactly (chrf_exact), with per-text lcm tables precomputed.
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
        if (!lcm_mults(v, k, &lcm[k], &mult[(size_t)k * N])) lcm[k] = 0;
    }
}

typedef struct {
    Py_ssize_t nseg;
    int N;
    u32 *cps, *prefix, *list;   /* all stripped texts; per position prefix id + 1; scratch */
    size_t *start;              /* nseg + 1 */
    u32 *len;                   /* nseg */
    size_t *eoff;               /* nseg * N: first entry of (segment, order) */
    u32 *ecnt;                  /* nseg * N: entries of (segment, order) */
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
    free(p->cps);
    free(p->prefix);
    free(p->list);
    free(p->start);
    free(p->len);
    free(p->eoff);
    free(p->ecnt);
    free(p->ent);
    free(p->tab);
    free(p->touched);
    free(p->lcm);
    free(p->mult);
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
        size_t l = strip_text(held[s], p->cps + at);
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
    PyObject *hf, *rf;   /* the two arguments as PySequence_Fast */
    PyObject **held;     /* nseg referenced texts: the hypotheses, then the references */
    Py_ssize_t nh, nr;   /* hypotheses, references */
    Py_ssize_t nseg;     /* texts held: nh, or nh + nr when the arguments differ */
    Py_ssize_t rbase;    /* the first reference in held (0 when they are the hypotheses) */
    size_t total;        /* code points of the texts held */
    Pairs P;
    u32 *pstart;         /* id -> end of its postings (they start at pstart[id - 1]) */
    GC *post;            /* postings: (reference, count) */
    u32 *acc;            /* nr * N: the current hypothesis's matches per reference, order */
    double *scores;      /* nh * nr */
    u32 *pmatch;         /* npend records (i, j, matches[N]) */
    size_t npend, pend_cap;
} Pairwise;

static void
pairwise_free(Pairwise *pw)
{
    Py_XDECREF(pw->hf);
    Py_XDECREF(pw->rf);
    release_held(pw->held, pw->nseg);
    pairs_free(&pw->P);
    free(pw->pstart);
    free(pw->post);
    free(pw->acc);
    free(pw->scores);
    free(pw->pmatch);
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
    if (hold_texts(pw->hf, "hypotheses", pw->held, 0, 1, &maxlen, &pw->total) < 0) return -1;
    if (!same &&
        hold_texts(pw->rf, "references", pw->held, pw->nh, 1, &maxlen, &pw->total) < 0)
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
static __attribute__((noinline)) int
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
                u128 p = 0, q = 0;
                for (u32 n = 0; n < k; n++) {
                    p += (u128)m[n] * hm[(size_t)k * N + n];
                    q += (u128)m[n] * rm[(size_t)k * N + n];
                }
                ok = chrf_exact(p, q, hl[k], rl[k], k, pw->beta, &d);
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
        PyObject *a = tuple_of(hc, N), *b = tuple_of(rc, N), *c = tuple_of(mc, N);
        PyObject *item = (a && b && c)
                             ? Py_BuildValue("(IIOOO)", rec[0], rec[1], a, b, c)
                             : NULL;
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

PyDoc_STRVAR(chrf_pairwise_doc,
"chrf_pairwise(hypotheses, references, char_order, beta, /)\n--\n\n"
"Sentence chrF of every hypothesis against every reference: (rows, pending), rows a list\n"
"of lists of floats (the double nearest to the exact chrf_fraction), pending a list of\n"
"(i, j, hyp counts, ref counts, matches) for pairs whose exact integers do not fit 128\n"
"bits, left as NaN in rows for Python to finish.");

static PyObject *
py_chrf_pairwise(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *result = NULL;
    int beta;
    Pairwise pw = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOii:chrf_pairwise", &hyps, &refs, &pw.N, &beta)) return NULL;
    if (pw.N < 1 || pw.N > MAX_ORDER || beta < 1 || beta > MAX_BETA) {
        PyErr_SetString(PyExc_ValueError, "char_order or beta out of range for the kernel");
        return NULL;
    }
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

/* ------------------------------------------------------------------------------------ */
/* BLEU statistics                                                                        */
/* ------------------------------------------------------------------------------------ */

/* Hash of a token's code units (kind 1, 2 or 4 bytes each). */
static inline u64
units_hash(const unsigned char *p, size_t n, int kind)
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
    return units_hash(PyUnicode_DATA(t), (size_t)PyUnicode_GET_LENGTH(t) * (size_t)kind, kind);
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
    size_t *hoff;  /* nseg + 1 */
    size_t *rseg;  /* nseg + 1: reference index range per segment */
    size_t *roff;  /* nref + 1 */
    size_t nref, ref_cap;
    size_t maxhyp, maxrefsum; /* longest hypothesis, most reference tokens of a segment */
    u64 *hash;                /* per token: tok_hash */
    PyObject **held;          /* texts: the str read (referenced), in reading order */
    size_t nheld;
    size_t units;             /* code points of the texts */
    Py_UCS4 *scratch;         /* room for the longest text (13a's working copy) */
} BleuIn;

static void
bleu_in_free(BleuIn *b)
{
    if (b->tok)
        for (size_t i = 0; i < b->ntok; i++) Py_DECREF(b->tok[i]);
    PyMem_Free(b->tok);
    PyMem_Free(b->text);
    PyMem_Free(b->tpos);
    PyMem_Free(b->tlen);
    PyMem_Free(b->hoff);
    PyMem_Free(b->rseg);
    PyMem_Free(b->roff);
    PyMem_Free(b->hash);
    if (b->held)
        for (size_t i = 0; i < b->nheld; i++) Py_DECREF(b->held[i]);
    PyMem_Free(b->held);
    PyMem_Free(b->scratch);
}

/* Whether tokens x and y of the input are equal (as str). */
static inline int
bleu_tok_eq(const BleuIn *b, size_t x, size_t y)
{
    if (b->text)
        return b->tlen[x] == b->tlen[y] &&
               memcmp(b->text + b->tpos[x], b->text + b->tpos[y],
                      (size_t)b->tlen[x] * sizeof(Py_UCS4)) == 0;
    return tok_eq(b->tok[x], b->tok[y]);
}

/* A problem found while reading the input: (code, path, position). */
typedef struct {
    const char *code;
    const char *field;
    Py_ssize_t idx[3];
    int depth;
    Py_ssize_t pos;
} Problem;

static int
push_tok(BleuIn *b, PyObject *t)
{
    if (b->ntok >= UINT32_MAX - 1) {
        PyErr_SetString(PyExc_OverflowError, "too many tokens for the kernel");
        return -1;
    }
    if (b->ntok == b->tok_cap) {
        size_t c = b->tok_cap ? b->tok_cap * 2 : 256;
        PyObject **p = PyMem_Realloc(b->tok, c * sizeof(PyObject *));
        if (!p) return -1;
        b->tok = p;
        u64 *h = PyMem_Realloc(b->hash, c * sizeof(u64));
        if (!h) return -1;
        b->hash = h;
        b->tok_cap = c;
    }
    Py_INCREF(t);
    b->hash[b->ntok] = tok_hash(t);
    b->tok[b->ntok++] = t;
    return 0;
}

static inline int
is_array(PyObject *o)
{
    return PyList_Check(o) || PyTuple_Check(o);
}

static inline Py_ssize_t
array_size(PyObject *o)
{
    return PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
}

static inline PyObject **
array_items(PyObject *o)
{
    return PyList_Check(o) ? ((PyListObject *)o)->ob_item : ((PyTupleObject *)o)->ob_item;
}

/* Read the tokens of one token list; 1 on a problem (filled), -1 on an exception. */
static int
read_tokens(BleuIn *b, PyObject *list, int validate, Problem *pb)
{
    Py_ssize_t n = array_size(list);
    PyObject **items = array_items(list);
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
            Py_ssize_t at = first_surrogate(t);
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
    if (!is_array(segment)) {
        pb->code = "not_array";
        return NULL;
    }
    *nr = array_size(segment);
    if (*nr == 0) {
        pb->code = "no_references";
        return NULL;
    }
    return array_items(segment);
}

/* Point *pb at item i of its field (depth 1) or at item j of that item (depth 2). */
static inline void
problem_at(Problem *pb, int depth, Py_ssize_t i, Py_ssize_t j)
{
    pb->depth = depth;
    pb->idx[0] = i;
    pb->idx[1] = j;
}

/* The reading steps bleu_read and bleu_read_text share, each after the tokens of one text
 * are pushed.  A text of MAX_TEXT tokens or more is the problem too_long (1). */
static int
end_hypothesis(BleuIn *b, Py_ssize_t i, Problem *pb)
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

static int
end_reference(BleuIn *b, Py_ssize_t i, Py_ssize_t j, Problem *pb)
{
    if (b->ntok - b->roff[b->nref] >= MAX_TEXT) {
        problem_at(pb, 2, i, j);
        pb->code = "too_long";
        return 1;
    }
    b->nref++;
    return 0;
}

/* end_segment after the references of segment i; end_input after the last of n segments. */
static void
end_segment(BleuIn *b, Py_ssize_t i)
{
    size_t sum = b->ntok - b->roff[b->rseg[i]];
    if (sum > b->maxrefsum) b->maxrefsum = sum;
}

static void
end_input(BleuIn *b, Py_ssize_t n)
{
    b->rseg[n] = b->nref;
    b->roff[b->nref] = b->ntok;
}

/* One token list of the input (an array of exact str) pushed; as read_tokens. */
static int
read_token_list(BleuIn *b, PyObject *list, int validate, Problem *pb)
{
    if (!is_array(list)) {
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
    size_t *r = PyMem_Realloc(b->roff, c * sizeof(size_t));
    if (!r) {
        PyErr_NoMemory();
        return -1;
    }
    b->roff = r;
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
    Py_ssize_t n = array_size(hyps);
    PyObject **hi = array_items(hyps), **ri = array_items(refs);
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
        if ((rc = read_token_list(b, hi[i], validate, pb)) || (rc = end_hypothesis(b, i, pb)))
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
                (rc = end_reference(b, i, j, pb)))
                return rc;
        }
        end_segment(b, i);
    }
    end_input(b, n);
    return 0;
}

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

/* The code points of `s` widened to UCS4 into out (room for len(s)); their count. */
static size_t
widen(PyObject *s, Py_UCS4 *out)
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

/* Push token k of b: the code points text[pos..pos+len). */
static inline void
push_span(BleuIn *b, size_t pos, size_t len)
{
    size_t k = b->ntok++;
    b->tpos[k] = pos;
    b->tlen[k] = (u32)len;
    b->hash[k] = units_hash((const unsigned char *)(b->text + pos), len * sizeof(Py_UCS4),
                            PyUnicode_4BYTE_KIND);
}

/* Widen `s` into b->text at *used and push its tokens as str.split() makes them: the
 * maximal runs of code points that are not whitespace (Py_UNICODE_ISSPACE, the test
 * str.split() uses).  The caller sized text, tpos, tlen and hash. */
static void split_units(BleuIn *b, size_t n, size_t *used);

static void
split_text(BleuIn *b, PyObject *s, size_t *used)
{
    split_units(b, widen(s, b->text + *used), used);
}

/* split_text of the n code points already at b->text + *used. */
static void
split_units(BleuIn *b, size_t n, size_t *used)
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

/* ------------------------------------------------------------------------------------ */
/* sacreBLEU's 13a tokenizer                                                              */
/* ------------------------------------------------------------------------------------ */

/*
 * sacreBLEU 2.6.0's Tokenizer13a (tokenizers/tokenizer_13a.py and tokenizer_re.py) on code
 * points.  Its str.replace steps are passes in place over a UCS4 copy of the line, in its
 * order, each a whole left-to-right pass over non-overlapping occurrences (none makes the
 * line longer; a pass is skipped when the line lacks the code point every occurrence
 * needs).  The padded line then streams through its four re.sub passes, one stage each.
 * A pattern matches one code point (the first) or two (the others); a stage holds at most
 * one pending code point, decides a match from it and the next, and after a match starts
 * afresh with the code point that follows: re.sub's leftmost, non-overlapping scan.  The
 * last stage splits on whitespace (Py_UNICODE_ISSPACE, as str.split()).  [0-9] is the ten
 * ASCII digits; [^0-9] anything else, newline included.
 */

/* The class of the first pattern, [\{-\~\[-\` -\&\(-\+\:-\@\/]: U+0020..U+0026,
 * U+0028..U+002B, U+002F, U+003A..U+0040, U+005B..U+0060, U+007B..U+007E. */
static const uint8_t APART_13A[128] = {
    [0x20] = 1, [0x21] = 1, [0x22] = 1, [0x23] = 1, [0x24] = 1, [0x25] = 1, [0x26] = 1,
    [0x28] = 1, [0x29] = 1, [0x2A] = 1, [0x2B] = 1, [0x2F] = 1, [0x3A] = 1, [0x3B] = 1,
    [0x3C] = 1, [0x3D] = 1, [0x3E] = 1, [0x3F] = 1, [0x40] = 1, [0x5B] = 1, [0x5C] = 1,
    [0x5D] = 1, [0x5E] = 1, [0x5F] = 1, [0x60] = 1, [0x7B] = 1, [0x7C] = 1, [0x7D] = 1,
    [0x7E] = 1,
};

static inline int
is_digit(u32 c)
{
    return c - '0' < 10;
}

static inline int
is_dot_comma(u32 c)
{
    return c == '.' || c == ',';
}

static inline int
is_dot_comma_dash(u32 c)
{
    return c == '.' || c == ',' || c == '-';
}

/* The stages' state and where the tokens go: with b, token spans pushed to b (their code
 * points at out = b->text + base); without, the tokens joined by one space in out. */
typedef struct {
    u32 p2, p3, p4; /* the pending code point of stages 2, 3 and 4 */
    int h2, h3, h4; /* whether the stage has one */
    int intok;      /* a token is open, from out[start] */
    Py_UCS4 *out;
    size_t n, start, base;
    BleuIn *b;
} T13;

static inline void
t13_end_token(T13 *t)
{
    if (!t->intok) return;
    t->intok = 0;
    if (t->b) push_span(t->b, t->base + t->start, t->n - t->start);
}

/* The last stage: split on whitespace. */
static inline void
t13_out(T13 *t, u32 c)
{
    if (is_space(c)) {
        t13_end_token(t);
        return;
    }
    if (!t->intok) {
        if (!t->b && t->n) t->out[t->n++] = ' ';
        t->start = t->n;
        t->intok = 1;
    }
    t->out[t->n++] = c;
}

/* ([0-9])(-) -> r'\1 \2 ' */
static inline void
t13_s4(T13 *t, u32 c)
{
    if (t->h4) {
        u32 p = t->p4;
        if (is_digit(p) && c == '-') {
            t->h4 = 0;
            t13_out(t, p);
            t13_out(t, ' ');
            t13_out(t, c);
            t13_out(t, ' ');
            return;
        }
        t13_out(t, p);
    }
    t->p4 = c;
    t->h4 = 1;
}

/* ([\.,])([^0-9]) -> r' \1 \2' */
static inline void
t13_s3(T13 *t, u32 c)
{
    if (t->h3) {
        u32 p = t->p3;
        if (is_dot_comma(p) && !is_digit(c)) {
            t->h3 = 0;
            t13_s4(t, ' ');
            t13_s4(t, p);
            t13_s4(t, ' ');
            t13_s4(t, c);
            return;
        }
        t13_s4(t, p);
    }
    t->p3 = c;
    t->h3 = 1;
}

/* ([^0-9])([\.,]) -> r'\1 \2 ' */
static inline void
t13_s2(T13 *t, u32 c)
{
    if (t->h2) {
        u32 p = t->p2;
        if (!is_digit(p) && is_dot_comma(c)) {
            t->h2 = 0;
            t13_s3(t, p);
            t13_s3(t, ' ');
            t13_s3(t, c);
            t13_s3(t, ' ');
            return;
        }
        t13_s3(t, p);
    }
    t->p2 = c;
    t->h2 = 1;
}

/* ([\{-\~\[-\` -\&\(-\+\:-\@\/]) -> r' \1 ' */
static inline void
t13_s1(T13 *t, u32 c)
{
    if (c < 128 && APART_13A[c]) {
        t13_s2(t, ' ');
        t13_s2(t, c);
        t13_s2(t, ' ');
    } else {
        t13_s2(t, c);
    }
}

/* s.replace(pat, rep) in place on s[0..n) for ASCII pat and rep no longer than pat; the
 * new length. */
static size_t
replace_ascii(Py_UCS4 *s, size_t n, const char *pat, const char *rep)
{
    size_t lp = strlen(pat), lr = strlen(rep), r = 0, w = 0;
    while (r < n) {
        size_t k = 0;
        if (r + lp <= n)
            while (k < lp && s[r + k] == (u32)(unsigned char)pat[k]) k++;
        if (k == lp) {
            for (size_t j = 0; j < lr; j++) s[w++] = (u32)(unsigned char)rep[j];
            r += lp;
        } else {
            s[w++] = s[r++];
        }
    }
    return w;
}

/* Whether s[0..n) holds the ASCII code point c. */
static int
holds(const Py_UCS4 *s, size_t n, u32 c)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] == c) return 1;
    return 0;
}

/* Tokenizer13a of s[0..n) (a UCS4 copy the call changes), rstripped first if asked
 * (str.rstrip(): trailing Py_UNICODE_ISSPACE), its tokens fed to t. */
static void
t13_line(T13 *tp, Py_UCS4 *s, size_t n, int rstrip)
{
    T13 state = *tp, *t = &state; /* a local: no store to the output can alias it */
    if (rstrip)
        while (n && is_space(s[n - 1])) n--;
    u64 seen = 0; /* which code points below 64 occur */
    for (size_t i = 0; i < n; i++)
        if (s[i] < 64) seen |= (u64)1 << s[i];
    if (seen & ((u64)1 << '<')) n = replace_ascii(s, n, "<skipped>", "");
    if (seen & ((u64)1 << '\n')) {
        n = replace_ascii(s, n, "-\n", "");
        n = replace_ascii(s, n, "\n", " ");
    }
    if ((seen & ((u64)1 << '&')) && holds(s, n, '&')) {
        n = replace_ascii(s, n, "&quot;", "\"");
        n = replace_ascii(s, n, "&amp;", "&");
        n = replace_ascii(s, n, "&lt;", "<");
        n = replace_ascii(s, n, "&gt;", ">");
    }
    /*
     * Fast path: while every stage holds a pending code point and neither p2 nor p3 is '.',
     * ',' or '-', a code point c entering stage 2 that is none of them matches nowhere
     * (stage 2 needs c in [.,], stage 3 p3 in [.,], stage 4 p3 = '-'): c shifts in, p4
     * goes out, and the condition holds again (the new p2 is c, the new p3 the old p2).
     * Only '.', ',' and '-' take the stages one by one; stage 1 gives ' ', c, ' ' for the
     * others of its class (none of them '.', ',' or '-') and c for the rest.
     */
    t13_s1(t, ' ');
    int fast = t->h2 && t->h3 && t->h4 && !is_dot_comma_dash(t->p2) && !is_dot_comma_dash(t->p3);
    for (size_t i = 0; i < n; i++) {
        u32 c = s[i];
        if (fast && !is_dot_comma_dash(c)) {
            if (c < 128 && APART_13A[c]) {
                t13_out(t, t->p4);
                t13_out(t, t->p3);
                t13_out(t, t->p2);
                t->p4 = ' ';
                t->p3 = c;
                t->p2 = ' ';
            } else {
                t13_out(t, t->p4);
                t->p4 = t->p3;
                t->p3 = t->p2;
                t->p2 = c;
            }
            continue;
        }
        t13_s1(t, c);
        fast = t->h2 && t->h3 && t->h4 && !is_dot_comma_dash(t->p2) &&
               !is_dot_comma_dash(t->p3);
    }
    t13_s1(t, ' ');
    if (t->h2) t13_s3(t, t->p2);
    if (t->h3) t13_s4(t, t->p3);
    if (t->h4) t13_out(t, t->p4);
    t->h2 = t->h3 = t->h4 = 0;
    t13_end_token(t);
    *tp = state;
}

/* The tokens of `s` as sacreBLEU's BLEU makes them with 13a: s.rstrip(), Tokenizer13a,
 * split(); their code points into b->text at *used (never more than len(s)). */
static void tok13a_units(BleuIn *b, size_t n, size_t *used);

static void
tok13a_text(BleuIn *b, PyObject *s, size_t *used)
{
    tok13a_units(b, widen(s, b->scratch), used);
}

/* tok13a_text of the n code points already in b->scratch (which it changes). */
static void
tok13a_units(BleuIn *b, size_t n, size_t *used)
{
    T13 t = {0};
    t.b = b;
    t.base = *used;
    t.out = b->text + *used;
    t13_line(&t, b->scratch, n, 1);
    *used += t.n;
}

PyDoc_STRVAR(tokenize_13a_doc,
"tokenize_13a(text, /)\n--\n\n"
"sacreBLEU 2.6.0's Tokenizer13a of text, exactly: <skipped> removed, '-' + newline\n"
"removed, newlines as spaces, &quot; &amp; &lt; &gt; unescaped (when '&' occurs), then\n"
"the four regular expressions and ' '.join(line.split()).  No rstrip (sacreBLEU's BLEU\n"
"rstrips before the tokenizer; bleu_counts_text with '13a' does both).");

static PyObject *
py_tokenize_13a(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "text must be a str");
        return NULL;
    }
    if (ready(arg) < 0) return NULL;
    size_t n = (size_t)PyUnicode_GET_LENGTH(arg);
    if (n >= MAX_TEXT) {
        PyErr_SetString(PyExc_OverflowError, "text too long for the kernel");
        return NULL;
    }
    /* the line, then the output: tokens (at most n code points) and separators */
    Py_UCS4 *s = PyMem_Malloc((3 * n + 1) * sizeof(Py_UCS4));
    if (!s) return PyErr_NoMemory();
    widen(arg, s);
    T13 t = {0};
    t.out = s + n;
    t13_line(&t, s, n, 0);
    PyObject *res = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, t.out, (Py_ssize_t)t.n);
    PyMem_Free(s);
    return res;
}

/* One text of the input for bleu_read_text's first pass: an exact str; adds its code
 * points and a bound on its tokens (13a: every code point may be one).  0 = fine,
 * 1 = problem in *pb, -1 = exception. */
static int
measure_text(PyObject *s, int tok13a, Problem *pb, BleuIn *b, size_t *bound, size_t *maxlen)
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
 * range of each segment) and allocates what bleu_tokenize needs.  Problems: not_array,
 * no_references, not_str, str_subclass, a text of 2^32 code points or more (too_long), in
 * reading order.  0 = fine, 1 = problem in *pb, -1 = exception.
 */
static int
bleu_read_text(PyObject *hyps, PyObject *refs, int tok13a, BleuIn *b, Problem *pb)
{
    Py_ssize_t n = array_size(hyps);
    PyObject **hi = array_items(hyps), **ri = array_items(refs);
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
        if ((rc = measure_text(hi[i], tok13a, pb, b, &bound, &maxlen))) return rc;
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
            if ((rc = measure_text(rl[j], tok13a, pb, b, &bound, &maxlen))) return rc;
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
        PyObject **rl = array_items(ri[i]);
        for (size_t j = 0; j < b->rseg[i + 1] - b->rseg[i]; j++) {
            Py_INCREF(rl[j]);
            b->held[b->nheld++] = rl[j];
        }
    }
    return 0;
}

/* bleu_read_text's second step, without Python calls (so without the GIL): the tokens of
 * every held text, split on whitespace or by 13a.  0 = fine, 1 = problem (too_long, a
 * text of MAX_TEXT tokens or more) in *pb. */
static int
bleu_tokenize(BleuIn *b, Py_ssize_t n, int tok13a, Problem *pb)
{
    size_t used = 0;
    int rc;
    pb->field = "hypotheses";
    for (Py_ssize_t i = 0; i < n; i++) {
        b->hoff[i] = b->ntok;
        if (tok13a)
            tok13a_text(b, b->held[i], &used);
        else
            split_text(b, b->held[i], &used);
        if ((rc = end_hypothesis(b, i, pb))) return rc;
    }
    b->hoff[n] = b->ntok;
    pb->field = "references";
    for (Py_ssize_t i = 0; i < n; i++) {
        for (size_t j = b->rseg[i]; j < b->rseg[i + 1]; j++) {
            PyObject *s = b->held[(size_t)n + j];
            b->roff[b->nref] = b->ntok;
            if (tok13a)
                tok13a_text(b, s, &used);
            else
                split_text(b, s, &used);
            if ((rc = end_reference(b, i, (Py_ssize_t)(j - b->rseg[i]), pb))) return rc;
        }
        end_segment(b, i);
    }
    end_input(b, n);
    return 0;
}

static int
work_bleu(Work *w, size_t maxhyp, size_t maxrefsum)
{
    size_t slots = (size_t)1 << table_bits(maxhyp ? maxhyp : 1);
    if (grow_zeroed((void **)&w->btab, &w->btab_n, slots, sizeof(BEnt))) return -1;
    if (grow_zeroed((void **)&w->ttab, &w->ttab_n, slots, sizeof(TEnt))) return -1;
    if (grow_plain((void **)&w->touched, &w->touched_n, maxhyp + 1, sizeof(u32))) return -1;
    return work_positions(w, (maxhyp > maxrefsum ? maxhyp : maxrefsum) + 1);
}

#define NO_ID ((u32)-1)

/* The slot of token k of the input in a TEnt table of 2^bits slots (as the X_probe of
 * CHAIN_TABLE): the entry of an equal token, or the empty slot where it belongs. */
static inline u32
tent_probe(const TEnt *tab, unsigned bits, const BleuIn *b, size_t k)
{
    u64 h = b->hash[k];
    u32 mask = (u32)(((u64)1 << bits) - 1), s = (u32)h & mask;
    while (tab[s].id1 && (tab[s].h != h || !bleu_tok_eq(b, tab[s].tok, k)))
        s = (s + 1) & mask;
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
bleu_segment(Work *w, const BleuIn *b, size_t h0, size_t h1, const size_t *roff, size_t nref,
             int N, i64 *o)
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
 * totals their sums.  w is ready for b (work_bleu). */
static void
bleu_count_loop(Work *w, const BleuIn *b, Py_ssize_t n, int N, i64 *seg, i64 *totals)
{
    i64 one[2 + 2 * MAX_ORDER];
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 *o = seg ? seg + (size_t)i * (2 + 2 * N) : one;
        bleu_segment(w, b, b->hoff[i], b->hoff[i + 1], b->roff + b->rseg[i],
                     b->rseg[i + 1] - b->rseg[i], N, o);
        for (int k = 0; k < 2 + 2 * N; k++) totals[k] += o[k];
    }
}

/* bleu_count_loop with a workspace of the pool, without the GIL for enough tokens.  -1 on
 * memory failure. */
static int
bleu_count_all(const BleuIn *b, Py_ssize_t n, int N, i64 *seg, i64 *totals)
{
    Work *w = work_get();
    if (!w || work_bleu(w, b->maxhyp, b->maxrefsum) < 0) {
        work_put(w);
        return -1;
    }
    PyThreadState *ts = NULL;
    if (b->ntok >= NOGIL_WORK / 4) ts = PyEval_SaveThread();
    bleu_count_loop(w, b, n, N, seg, totals);
    if (ts) PyEval_RestoreThread(ts);
    work_put(w);
    return 0;
}

/* The arguments bleu_counts and bleu_counts_text share: 0 when fine, else -1 with
 * ValueError set. */
static int
check_bleu_args(PyObject *hyps, PyObject *refs, int N)
{
    if (N < 1 || N > MAX_ORDER) {
        PyErr_SetString(PyExc_ValueError, "max_order out of range for the kernel");
        return -1;
    }
    if (!is_array(hyps) || !is_array(refs) || array_size(hyps) != array_size(refs)) {
        PyErr_SetString(PyExc_ValueError,
                        "hypotheses and references must be lists of the same length");
        return -1;
    }
    return 0;
}

/* The answer of bleu_counts and bleu_counts_text after reading (rc as the readers return):
 * (buffer or None, totals, None), (None, None, problem), or NULL with an exception. */
static PyObject *
bleu_counts_result(const BleuIn *b, const Problem *pb, int rc, Py_ssize_t n, int N,
                   int per_segment)
{
    if (rc < 0) return NULL;
    if (rc > 0) {
        PyObject *p = problem_tuple(pb);
        return p ? Py_BuildValue("(OON)", Py_None, Py_None, p) : NULL;
    }
    PyObject *buf = NULL, *result = NULL;
    i64 *seg = NULL;
    if (per_segment) {
        buf = PyBytes_FromStringAndSize(NULL,
                                        (Py_ssize_t)((size_t)n * (2 + 2 * N) * sizeof(i64)));
        if (!buf) return NULL;
        seg = (i64 *)PyBytes_AS_STRING(buf);
    }
    i64 totals[2 + 2 * MAX_ORDER] = {0};
    if (bleu_count_all(b, n, N, seg, totals) < 0) {
        Py_XDECREF(buf);
        return PyErr_NoMemory();
    }
    PyObject *tot = tuple_of(totals, 2 + 2 * N);
    if (tot) result = Py_BuildValue("(ONO)", buf ? buf : Py_None, tot, Py_None);
    Py_XDECREF(buf);
    return result;
}

PyDoc_STRVAR(bleu_counts_doc,
"bleu_counts(hypotheses, references, max_order, per_segment, validate, /)\n--\n\n"
"BLEU statistics of many segments: (buffer or None, totals, None) or (None, None,\n"
"problem).  hypotheses: a list of token lists; references: per segment a list of one or\n"
"more token lists.  The buffer holds per segment 2+2*max_order native int64: c, r,\n"
"matches, totals; totals are their sums.  problem = (code, path, position) for the first\n"
"fault in reading order (all hypotheses, then all references): code is not_array,\n"
"no_references, not_str, str_subclass, too_long, and with validate also empty or\n"
"surrogate (position = index in the token).");

static PyObject *
py_bleu_counts(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs;
    int N, per_segment, validate;
    BleuIn b = {0};
    Problem pb = {0};
    pb.pos = -1;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOipp:bleu_counts", &hyps, &refs, &N, &per_segment,
                          &validate))
        return NULL;
    if (check_bleu_args(hyps, refs, N) < 0) return NULL;
    int rc = bleu_read(hyps, refs, validate, &b, &pb);
    PyObject *result = bleu_counts_result(&b, &pb, rc, array_size(hyps), N, per_segment);
    bleu_in_free(&b);
    return result;
}

PyDoc_STRVAR(bleu_counts_text_doc,
"bleu_counts_text(hypotheses, references, max_order, per_segment, tokenizer='none', /)\n"
"--\n\n"
"bleu_counts of texts: hypotheses a list of str, references per segment a list of one or\n"
"more str.  tokenizer 'none': the tokens of a text are exactly text.split()'s; '13a':\n"
"exactly tokenize_13a(text.rstrip()).split()'s (what sacreBLEU's BLEU counts with 13a;\n"
"lowercase in Python first).  Returns (buffer or None, totals, None), or (None, None,\n"
"problem) with code not_array, no_references, not_str, str_subclass or too_long.");

static PyObject *
py_bleu_counts_text(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *buf = NULL, *result = NULL;
    const char *tokenizer = "none";
    int N, per_segment, tok13a;
    BleuIn b = {0};
    Problem pb = {0};
    pb.pos = -1;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOip|s:bleu_counts_text", &hyps, &refs, &N, &per_segment,
                          &tokenizer))
        return NULL;
    if (strcmp(tokenizer, "none") == 0)
        tok13a = 0;
    else if (strcmp(tokenizer, "13a") == 0)
        tok13a = 1;
    else {
        PyErr_SetString(PyExc_ValueError, "the kernel's tokenizers are 'none' and '13a'");
        return NULL;
    }
    if (check_bleu_args(hyps, refs, N) < 0) return NULL;
    Py_ssize_t n = array_size(hyps);
    i64 totals[2 + 2 * MAX_ORDER] = {0}, *seg = NULL;
    int rc = bleu_read_text(hyps, refs, tok13a, &b, &pb);
    if (rc == 0 && per_segment) {
        buf = PyBytes_FromStringAndSize(NULL,
                                        (Py_ssize_t)((size_t)n * (2 + 2 * N) * sizeof(i64)));
        if (!buf) rc = -1;
        else seg = (i64 *)PyBytes_AS_STRING(buf);
    }
    if (rc == 0) {
        /* the texts are held: tokenize and count without the GIL */
        Work *w = work_get();
        int nomem = !w;
        PyThreadState *ts = NULL;
        if (w && b.units >= NOGIL_WORK) ts = PyEval_SaveThread();
        if (w) rc = bleu_tokenize(&b, n, tok13a, &pb);
        if (w && rc == 0) {
            nomem = work_bleu(w, b.maxhyp, b.maxrefsum) < 0;
            if (!nomem) bleu_count_loop(w, &b, n, N, seg, totals);
        }
        if (ts) PyEval_RestoreThread(ts);
        work_put(w);
        if (nomem) {
            PyErr_NoMemory();
            rc = -1;
        }
    }
    if (rc > 0) {
        PyObject *p = problem_tuple(&pb);
        if (p) result = Py_BuildValue("(OON)", Py_None, Py_None, p);
    } else if (rc == 0) {
        PyObject *tot = tuple_of(totals, 2 + 2 * N);
        if (tot) result = Py_BuildValue("(ONO)", buf ? buf : Py_None, tot, Py_None);
    }
    Py_XDECREF(buf);
    bleu_in_free(&b);
    return result;
}

PyDoc_STRVAR(bleu_sentence_doc,
"bleu_sentence(hypothesis, references, max_order, /)\n--\n\n"
"BLEU statistics of one segment, (c, r, matches, totals), or None when the input is\n"
"not lists of exact str with at least one reference (the pure path handles those).");

static PyObject *
py_bleu_sentence(PyObject *self, PyObject *args)
{
    PyObject *hyp, *refs, *result = NULL;
    int N;
    BleuIn b = {0};
    Problem pb = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOi:bleu_sentence", &hyp, &refs, &N)) return NULL;
    if (N < 1 || N > MAX_ORDER || !is_array(hyp) || !is_array(refs)) Py_RETURN_NONE;
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
    if (bleu_count_all(&b, 1, N, NULL, totals) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *m = tuple_of(totals + 2, N), *t = tuple_of(totals + 2 + N, N);
    if (m && t) result = Py_BuildValue("(LLOO)", totals[0], totals[1], m, t);
    Py_XDECREF(m);
    Py_XDECREF(t);
done:
    Py_XDECREF(h1);
    Py_XDECREF(r1);
    bleu_in_free(&b);
    return result;
}

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

/* GCC and Clang must not fuse a * b + c into one rounding: Python rounds each step. */
#if defined(__clang__)
#define NO_FP_CONTRACT
#elif defined(__GNUC__)
#define NO_FP_CONTRACT __attribute__((optimize("fp-contract=off")))
#else
#define NO_FP_CONTRACT
#endif

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
    Py_ssize_t n;        /* segments */
    PyObject **held;     /* the hypotheses, then the references segment by segment */
    size_t nheld;
    size_t *rseg;        /* n + 1: segment i's references are held[n + rseg[i] .. n + rseg[i+1]) */
    size_t maxlen, total;
    Py_UCS4 *hw, *rw;    /* the hypothesis and the reference, widened */
    u32 *hid, *rid;      /* their word ids */
    u32 *wpos, *wlen;    /* word spans of one text */
    WEnt *wtab;          /* the hypothesis's words; 2^wbits slots */
    unsigned wbits;
    u32 *wtouched;
    const struct LinesIn *lines; /* sacrebleu_chrf_lines: the texts as lines, not held */
} Sacre;

/* Line i of input f of sacrebleu_chrf_lines (see there) decoded into out; its count. */
static size_t lines_widen(const struct LinesIn *L, Py_ssize_t f, size_t i, Py_UCS4 *out);

static void
sacre_free(Sacre *S)
{
    if (S->held)
        for (size_t i = 0; i < S->nheld; i++) Py_DECREF(S->held[i]);
    PyMem_Free(S->held);
    PyMem_Free(S->rseg);
    free(S->hw);
    free(S->rw);
    free(S->hid);
    free(S->rid);
    free(S->wpos);
    free(S->wlen);
    free(S->wtab);
    free(S->wtouched);
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
    return units_hash((const unsigned char *)(s + pos), (size_t)len * sizeof(Py_UCS4),
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
        if (!e->id1 ||
            (e->h == h && e->len == len &&
             memcmp(S->hw + e->pos, s + pos, (size_t)len * sizeof(Py_UCS4)) == 0))
            return k;
    }
}

/* One text's characters (into chars, or the widened text itself with whitespace) and, with
 * W, its words' spans; returns the characters' count. */
static size_t
sacre_text(const Sacre *S, size_t t, Py_UCS4 *wide, u32 *chars, const u32 **cp,
           size_t *nwords)
{
    /* held text t, or as lines: hypothesis t, or reference (t - n) % nr of segment
     * (t - n) / nr, the line of input 1 + that reference */
    size_t n, nr = S->lines ? (S->rseg[1] - S->rseg[0]) : 0;
    if (!S->lines)
        n = widen(S->held[t], wide);
    else if (t < (size_t)S->n)
        n = lines_widen(S->lines, 0, t, wide);
    else
        n = lines_widen(S->lines, 1 + (Py_ssize_t)((t - (size_t)S->n) % nr),
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
static void
sacre_segment(Sacre *S, Work *w, Py_ssize_t i, i64 *out)
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
        chrf_segment_counts(w, hc, lh, rc, lr, C, o);
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
            chrf_segment_counts(w, S->hid, nhw, S->rid, nrw, W, o);
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
static int sacre_scratch(Sacre *S);

static int
sacre_build(Sacre *S, PyObject *hyps, PyObject *refs)
{
    if (!is_array(hyps) || !is_array(refs) || array_size(hyps) != array_size(refs)) {
        PyErr_SetString(PyExc_ValueError,
                        "hypotheses and references must be lists of the same length");
        return -1;
    }
    Py_ssize_t n = S->n = array_size(hyps);
    PyObject **hi = array_items(hyps), **ri = array_items(refs);
    size_t nref = 0;
    S->rseg = PyMem_Malloc(((size_t)n + 1) * sizeof(size_t));
    if (!S->rseg) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!is_array(ri[i]) || array_size(ri[i]) == 0) {
            PyErr_Format(PyExc_ValueError, "references[%zd] must be a list of one or more str",
                         i);
            return -1;
        }
        S->rseg[i] = nref;
        nref += (size_t)array_size(ri[i]);
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
        PyObject **rl = array_items(ri[i]);
        for (size_t j = 0; j < S->rseg[i + 1] - S->rseg[i]; j++)
            if (sacre_hold(S, rl[j], "references[%zd][%zd] is not a str", i, (Py_ssize_t)j) < 0)
                return -1;
    }
    return sacre_scratch(S);
}

/* sacre_build's scratch for texts of up to S->maxlen code points (raw: no GIL needed).  -1
 * with an exception. */
static int
sacre_scratch(Sacre *S)
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

PyDoc_STRVAR(sacrebleu_chrf_counts_doc,
"sacrebleu_chrf_counts(hypotheses, references, char_order, word_order, beta, whitespace,\n"
"                      eps_smoothing, per_segment, /)\n--\n\n"
"sacreBLEU 2.6.0's chrF/chrF++ segment statistics: (buffer or None, totals).  hypotheses:\n"
"a list of str; references: per segment a list of one or more str (lowercase them first\n"
"if wanted).  Per segment 3*(char_order+word_order) native int64, [n_hyp, n_ref, n_match]\n"
"per order (character orders, then word orders), of the first reference with the\n"
"strictly greatest CHRF._compute_f_score; totals are their sums.");

static PyObject *
py_sacrebleu_chrf_counts(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *buf = NULL, *result = NULL;
    int per_segment;
    Sacre S = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiiippp:sacrebleu_chrf_counts", &hyps, &refs, &S.C, &S.W,
                          &S.beta, &S.whitespace, &S.eps_smoothing, &per_segment))
        return NULL;
    if (S.C < 0 || S.C > MAX_ORDER || S.W < 0 || S.W > MAX_ORDER || S.C + S.W == 0 ||
        S.beta < 0 || S.beta > 1000000) {
        PyErr_SetString(PyExc_ValueError, "chrF orders or beta out of range for the kernel");
        return NULL;
    }
    if (sacre_build(&S, hyps, refs) < 0) goto done;
    int K = S.C + S.W;
    i64 *seg = NULL, totals[6 * MAX_ORDER] = {0}, one[6 * MAX_ORDER];
    if (per_segment) {
        buf = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)S.n * 3 * K * sizeof(i64)));
        if (!buf) goto done;
        seg = (i64 *)PyBytes_AS_STRING(buf);
    }
    Work *w = work_get();
    if (!w || work_chrf(w, S.maxlen) < 0) {
        work_put(w);
        PyErr_NoMemory();
        goto done;
    }
    PyThreadState *ts = NULL;
    if (S.total >= NOGIL_WORK) ts = PyEval_SaveThread();
    for (Py_ssize_t i = 0; i < S.n; i++) {
        i64 *o = seg ? seg + (size_t)i * 3 * K : one;
        sacre_segment(&S, w, i, o);
        for (int k = 0; k < 3 * K; k++) totals[k] += o[k];
    }
    if (ts) PyEval_RestoreThread(ts);
    work_put(w);
    PyObject *tot = tuple_of(totals, 3 * K);
    if (tot) result = Py_BuildValue("(ON)", buf ? buf : Py_None, tot);
done:
    Py_XDECREF(buf);
    sacre_free(&S);
    return result;
}

/* ------------------------------------------------------------------------------------ */
/* TER: sacreBLEU 2.6.0's translation_edit_rate over word ids (mtcompute.core.ter)      */
/* ------------------------------------------------------------------------------------ */

/*
 * The port of mtcompute.core.ter.translation_edit_rate (sacrebleu/metrics/lib_ter.py):
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
    Py_ssize_t m, n;             /* reference and hypothesis lengths */
    Py_ssize_t *lo, *hi, *off;   /* row i: columns [lo[i], hi[i]) at cells off[i].. */
    i64 *M, *S;                  /* rows of the current words; rows of a candidate */
    i64 *B;                      /* the current words' costs to the end (ter_fill_back) */
    int back;                    /* whether B is of the current words */
    i64 *words, *shifted;        /* n each */
    Py_ssize_t *align;           /* m: hypothesis position aligned with each ref position */
    Py_ssize_t *hyp_sum, *ref_sum; /* n + 1, m + 1: prefix sums of the error flags */
    unsigned char *ops;          /* n + m: the trace, last operation first */
    size_t rows_cap, words_cap, cells_cap, ref_cap, ops_cap; /* room, kept between pairs */
} Ter;

static void
ter_free(Ter *T)
{
    free(T->lo);
    free(T->hi);
    free(T->off);
    free(T->M);
    free(T->S);
    free(T->B);
    free(T->words);
    free(T->shifted);
    free(T->align);
    free(T->hyp_sum);
    free(T->ref_sum);
    free(T->ops);
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
#define TER_COPY(a, b)                                                       \
    do {                                                                     \
        Py_ssize_t a_ = (a), b_ = (b) < n ? (b) : n;                         \
        for (Py_ssize_t x_ = a_; x_ < b_; x_++) out[k++] = w[x_];            \
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
ter_type_error(PyObject *x, const char *expected, const char *field, Py_ssize_t a,
               Py_ssize_t b, Py_ssize_t c, int depth)
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
                PyErr_Format(PyExc_OverflowError, "%s[%zd][%zd] is outside the kernel's 64-bit "
                             "range", field, a, k);
            else
                PyErr_Format(PyExc_OverflowError, "%s[%zd][%zd][%zd] is outside the kernel's "
                             "64-bit range", field, a, b, k);
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
        PyErr_Format(PyExc_ValueError, "%zd hypotheses but %zd reference lists", n,
                     seq_len(refs));
        return -1;
    }
    return n;
}

PyDoc_STRVAR(ter_edits_doc,
"ter_edits(hypotheses, references, /)\n--\n\n"
"sacreBLEU 2.6.0's translation_edit_rate of word ids (mtcompute.core.ter): for each\n"
"segment i a tuple with, for each reference of references[i], the pair (edits, reference\n"
"length) of hypotheses[i] against it.  hypotheses is a list or tuple of lists or tuples of\n"
"int (word ids, compared for equality only); references a list or tuple, as long, of\n"
"lists or tuples of one or more such id lists.  TypeError or ValueError naming the first\n"
"bad argument; OverflowError for an id outside the 64-bit range.  The GIL is released\n"
"while computing.");

static PyObject *
py_ter_edits(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *result = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO:ter_edits", &hyps, &refs)) return NULL;
    Py_ssize_t n = ter_segment_count(hyps, refs);
    if (n < 0) return NULL;
    /* pass 1: types and sizes */
    size_t total = 0, pairs = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (ter_check_ids(seq_item(hyps, i), "hypotheses", i, 0, 1, &total) < 0) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *segment = seq_item(refs, i);
        if (!is_seq(segment)) {
            ter_type_error(segment, "a list or tuple of id lists", "references", i, 0, 0, 1);
            return NULL;
        }
        Py_ssize_t count = seq_len(segment);
        if (count == 0) {
            PyErr_Format(PyExc_ValueError, "references[%zd] has no reference", i);
            return NULL;
        }
        for (Py_ssize_t j = 0; j < count; j++)
            if (ter_check_ids(seq_item(segment, j), "references", i, j, 2, &total) < 0)
                return NULL;
        pairs += (size_t)count;
    }
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
    Py_BEGIN_ALLOW_THREADS
    for (size_t q = 0; q < pairs && !failed; q++) {
        Py_ssize_t h = pair_hyp[q], hn = hyp_at[h + 1] - hyp_at[h];
        if (ref_len[q] == 0) {
            edits[q] = hn; /* an empty reference: one edit per hypothesis word */
            continue;
        }
        edits[q] = ter_pair(&T, ids + hyp_at[h], hn, ids + ref_at[q], ref_len[q]);
        if (edits[q] < 0) failed = 1;
    }
    ter_free(&T);
    Py_END_ALLOW_THREADS
    if (failed) {
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
    free(ids);
    free(hyp_at);
    free(pair_hyp);
    free(ref_at);
    free(ref_len);
    free(edits);
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
    Py_ssize_t n;                /* segments */
    size_t texts;                /* texts (hypotheses, then the references in order) */
    PyObject **held;             /* texts, referenced for the call */
    size_t *ref_at;              /* n + 1: the segment's first text among the references */
    size_t *text_word;           /* texts + 1: the text's first word */
    i64 *ids;                    /* each word's id */
    size_t words, ids_cap;
    TerWord *table;              /* distinct words, linear probing; len 0 = empty */
    size_t table_mask, distinct;
    i64 *edits, *lengths;        /* n: the fewest edits, the sum of the reference lengths */
    int lower;                   /* fold code points under U+0100 by lower1 (see there) */
    Ter work;                    /* the workspace of every pair */
} TerText;

/*
 * str.lower of each code point under U+0100, filled at import from the running Python's
 * own str.lower (lower1_ok stays 0 if some result were not one such code point, or changed
 * whether it is whitespace; neither happens).  For a text whose code points are all under
 * U+0100 (PEP 393's one-byte kind) str.lower is this table applied code point by code
 * point: the one rule of str.lower with context (final sigma) concerns U+03A3.  Folding
 * the code points under U+0100 of a text that str.lower has lowered already changes
 * nothing (its output lowers to itself), so ter_statistics_text's `lower` may fold every
 * text and leave only the wider ones to Python.
 */
static Py_UCS4 lower1[256];
static int lower1_ok = 0;

static inline Py_UCS4
ter_fold(const TerText *X, Py_UCS4 c)
{
    return X->lower && c < 256 ? lower1[c] : c;
}

static void
ter_text_free(TerText *X)
{
    free(X->ref_at);
    free(X->text_word);
    free(X->ids);
    free(X->table);
    free(X->edits);
    free(X->lengths);
    ter_free(&X->work);
}

/* Whether code points [a, a + len) of text ta equal [b, b + len) of text tb (folded by
 * ter_fold when X->lower). */
static inline int
ter_same_code_points(const TerText *X, PyObject *ta, size_t a, PyObject *tb, size_t b,
                     size_t len)
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
#define TER_SPLIT(TYPE)                                                                \
    do {                                                                               \
        const TYPE *d = (const TYPE *)PyUnicode_DATA(text);                           \
        size_t i = 0;                                                                  \
        while (i < len) {                                                              \
            while (i < len && is_space(d[i])) i++;                                     \
            if (i == len) break;                                                       \
            size_t start = i;                                                          \
            u64 h = 0xCBF29CE484222325ULL;                                             \
            while (i < len && !is_space(d[i])) {                                       \
                h = (h ^ ter_fold(X, d[i])) * 0x100000001B3ULL;                        \
                i++;                                                                   \
            }                                                                          \
            if (ter_text_word(X, t, start, i - start, mix64(h, i - start)) < 0)        \
                return -1;                                                             \
        }                                                                              \
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

/* Check that `x` is a str (its index path in the message) and ready. */
static int
ter_check_text(PyObject *x, const char *field, Py_ssize_t a, Py_ssize_t b, int depth)
{
    if (!PyUnicode_Check(x)) {
        ter_type_error(x, "a str", field, a, b, 0, depth);
        return -1;
    }
    return ready(x);
}

PyDoc_STRVAR(ter_statistics_text_doc,
"ter_statistics_text(hypotheses, references, lower=False, /)\n--\n\n"
"sacreBLEU 2.6.0's TER segment statistics of tokenized texts: for each segment i the pair\n"
"(edits, average reference length), the fewest ter_edits edits of hypotheses[i] over the\n"
"references references[i] (words: str.split()'s, the same word when their code points are\n"
"equal) and the int sum of the reference lengths over their count (a float).  hypotheses\n"
"is a list or tuple of str; references a list or tuple, as long, of lists or tuples of one\n"
"or more str.  With lower, each code point under U+0100 is taken as str.lower gives it\n"
"(the words of text.lower() for a text of such code points only; wider texts must come\n"
"lowered: see wide_texts); ValueError if this Python's str.lower does not allow it.\n"
"TypeError or ValueError naming the first bad argument.  The GIL is released while\n"
"splitting, interning and computing.");

static PyObject *
py_ter_statistics_text(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *result = NULL;
    int lower = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO|p:ter_statistics_text", &hyps, &refs, &lower)) return NULL;
    if (lower && !lower1_ok) {
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
    size_t nrefs = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (ter_check_text(seq_item(hyps, i), "hypotheses", i, 0, 1) < 0) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *segment = seq_item(refs, i);
        if (!is_seq(segment)) {
            ter_type_error(segment, "a list or tuple of str", "references", i, 0, 0, 1);
            return NULL;
        }
        Py_ssize_t count = seq_len(segment);
        if (count == 0) {
            PyErr_Format(PyExc_ValueError, "references[%zd] has no reference", i);
            return NULL;
        }
        for (Py_ssize_t j = 0; j < count; j++)
            if (ter_check_text(seq_item(segment, j), "references", i, j, 2) < 0)
                return NULL;
        nrefs += (size_t)count;
    }
    /* pass 2: the texts, referenced for the call (the lists may change while the GIL is
     * released; the str objects cannot) */
    X.texts = (size_t)n + nrefs;
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
    Py_BEGIN_ALLOW_THREADS
    failed = ter_text_intern(&X) < 0 || ter_text_segments(&X) < 0;
    Py_END_ALLOW_THREADS
    for (size_t k = 0; k < X.texts; k++) Py_DECREF(X.held[k]);
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
        PyObject *pair = Py_BuildValue("(Ld)", (long long)X.edits[i],
                                       (double)X.lengths[i] / count);
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

/* ------------------------------------------------------------------------------------ */
/* Odds and ends                                                                          */
/* ------------------------------------------------------------------------------------ */

PyDoc_STRVAR(first_lone_surrogate_doc,
"first_lone_surrogate(texts, /)\n--\n\n"
"(index of the first text holding a code point U+D800..U+DFFF, its position), or None.");

static PyObject *
py_first_lone_surrogate(PyObject *self, PyObject *arg)
{
    (void)self;
    PyObject *seq = PySequence_Fast(arg, "texts must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *res = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_Check(items[i])) {
            PyErr_Format(PyExc_TypeError, "texts[%zd] is not a str", i);
            goto done;
        }
        if (ready(items[i]) < 0) goto done;
        Py_ssize_t at = first_surrogate(items[i]);
        if (at >= 0) {
            res = Py_BuildValue("(nn)", i, at);
            goto done;
        }
    }
    res = Py_None;
    Py_INCREF(res);
done:
    Py_DECREF(seq);
    return res;
}

PyDoc_STRVAR(plain_texts_doc,
"plain_texts(hypotheses, references, /)\n--\n\n"
"Whether hypotheses is a non-empty list of exact str and references a list of as many\n"
"lists of one or more exact str each, and no text holds a lone surrogate: the input the batch\n"
"functions' checks all pass, in one pass (False: the checks run, one by one, to find and\n"
"report the fault).");

static PyObject *
py_plain_texts(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO:plain_texts", &hyps, &refs)) return NULL;
    if (!PyList_CheckExact(hyps) || !PyList_CheckExact(refs) || PyList_GET_SIZE(hyps) == 0 ||
        PyList_GET_SIZE(hyps) != PyList_GET_SIZE(refs))
        Py_RETURN_FALSE;
    Py_ssize_t n = PyList_GET_SIZE(hyps);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyList_GET_ITEM(hyps, i);
        if (!PyUnicode_CheckExact(s) || ready(s) < 0 || first_surrogate(s) >= 0)
            Py_RETURN_FALSE;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *segment = PyList_GET_ITEM(refs, i);
        if (!PyList_CheckExact(segment) || PyList_GET_SIZE(segment) == 0) Py_RETURN_FALSE;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(segment); j++) {
            PyObject *s = PyList_GET_ITEM(segment, j);
            if (!PyUnicode_CheckExact(s) || ready(s) < 0 || first_surrogate(s) >= 0)
                Py_RETURN_FALSE;
        }
    }
    Py_RETURN_TRUE;
}

PyDoc_STRVAR(wide_texts_doc,
"wide_texts(hypotheses, references, /)\n--\n\n"
"Where the texts with a code point of U+0100 or more are (those ter_statistics_text's\n"
"lower does not lower): (indices i of hypotheses, pairs (i, j) of references[i][j]).\n"
"hypotheses is a list of str, references a list of lists of str (as plain_texts\n"
"accepts); TypeError otherwise.");

static int
wide_text(PyObject *s)
{
    if (!PyUnicode_Check(s)) {
        PyErr_SetString(PyExc_TypeError, "wide_texts takes lists of str");
        return -1;
    }
    if (ready(s) < 0) return -1;
    return PyUnicode_KIND(s) != PyUnicode_1BYTE_KIND;
}

static PyObject *
py_wide_texts(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *hw = NULL, *rw = NULL, *x;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!:wide_texts", &PyList_Type, &hyps, &PyList_Type, &refs))
        return NULL;
    if (!(hw = PyList_New(0)) || !(rw = PyList_New(0))) goto fail;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hyps); i++) {
        int w = wide_text(PyList_GET_ITEM(hyps, i));
        if (w < 0) goto fail;
        if (w) {
            if (!(x = PyLong_FromSsize_t(i))) goto fail;
            int rc = PyList_Append(hw, x);
            Py_DECREF(x);
            if (rc < 0) goto fail;
        }
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(refs); i++) {
        PyObject *segment = PyList_GET_ITEM(refs, i);
        if (!PyList_Check(segment)) {
            PyErr_SetString(PyExc_TypeError, "wide_texts takes lists of str");
            goto fail;
        }
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(segment); j++) {
            int w = wide_text(PyList_GET_ITEM(segment, j));
            if (w < 0) goto fail;
            if (w) {
                if (!(x = Py_BuildValue("(nn)", i, j))) goto fail;
                int rc = PyList_Append(rw, x);
                Py_DECREF(x);
                if (rc < 0) goto fail;
            }
        }
    }
    return Py_BuildValue("(NN)", hw, rw);
fail:
    Py_XDECREF(hw);
    Py_XDECREF(rw);
    return NULL;
}

/* Fill lower1 from str.lower (see there); -1 on a Python error. */
static int
lower1_init(void)
{
    int ok = 1;
    for (Py_UCS4 c = 0; c < 256; c++) {
        PyObject *ch = PyUnicode_FromOrdinal((int)c);
        if (!ch) return -1;
        PyObject *lo = PyObject_CallMethod(ch, "lower", NULL);
        Py_DECREF(ch);
        if (!lo) return -1;
        if (PyUnicode_GET_LENGTH(lo) != 1 || PyUnicode_READ_CHAR(lo, 0) >= 256 ||
            is_space(PyUnicode_READ_CHAR(lo, 0)) != is_space(c))
            ok = 0;
        else
            lower1[c] = PyUnicode_READ_CHAR(lo, 0);
        Py_DECREF(lo);
    }
    lower1_ok = ok;
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* Lines of a UTF-8 file (mtcompute.cli._common's segment files)                          */
/* ------------------------------------------------------------------------------------ */

/*
 * split_lines cuts bytes into lines exactly as bytes.decode("utf-8") followed by
 * str.split("\n") does: only \n ends a line (\r, U+2028 and the rest stay in it), a
 * byte order mark is the code point U+FEFF, and the input must be strict UTF-8 (no
 * overlong forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF, no truncated
 * sequence).  Each line is scanned and checked without the GIL; the str objects are
 * allocated with it (their exact largest code point known, so each gets its canonical
 * PEP 393 kind), then filled without it: nothing else can see them before the call
 * returns.
 */

typedef struct {
    size_t start, bytes; /* byte range of the line in the input, without its \n */
    size_t length;       /* code points */
    u32 maxchar;         /* largest code point (0 for an empty line) */
} LineSpan;

/* The valid UTF-8 sequence at p (p < end): its length in bytes, its code point in *cp;
 * 0 when the bytes there are not strict UTF-8 (RFC 3629's table, which CPython's
 * strict decoder follows). */
static inline int
utf8_seq(const unsigned char *p, const unsigned char *end, u32 *cp)
{
    unsigned c = p[0];
    size_t room = (size_t)(end - p);
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        if (room < 2 || (p[1] & 0xC0) != 0x80) return 0;
        *cp = ((u32)(c & 0x1F) << 6) | (p[1] & 0x3F);
        return 2;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        if (room < 3 || p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80) return 0;
        *cp = ((u32)(c & 0x0F) << 12) | ((u32)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        if (room < 4 || p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80 ||
            (p[3] & 0xC0) != 0x80)
            return 0;
        *cp = ((u32)(c & 0x07) << 18) | ((u32)(p[1] & 0x3F) << 12) |
              ((u32)(p[2] & 0x3F) << 6) | (p[3] & 0x3F);
        return 4;
    }
    return 0;
}

/* Whether the n bytes at p are all ASCII (eight at a time). */
static inline int
all_ascii(const unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        u64 v;
        memcpy(&v, p + i, 8);
        if (v & 0x8080808080808080ULL) return 0;
    }
    for (; i < n; i++)
        if (p[i] & 0x80) return 0;
    return 1;
}

/* Check one line and measure it (code points, largest code point); 0 if it is not
 * strict UTF-8. */
static int
measure_line(const unsigned char *p, LineSpan *line)
{
    size_t n = line->bytes;
    if (all_ascii(p, n)) {
        line->length = n;
        line->maxchar = n ? 0x7F : 0;
        return 1;
    }
    const unsigned char *q = p, *end = p + n;
    size_t length = 0;
    u32 maxchar = 0, cp = 0;
    while (q < end) {
        int k = utf8_seq(q, end, &cp);
        if (!k) return 0;
        if (cp > maxchar) maxchar = cp;
        q += k;
        length++;
    }
    line->length = length;
    line->maxchar = maxchar; /* >= 0x80: a byte >= 0x80 starts a code point >= U+0080 */
    return 1;
}

/* Decode one checked line into the data of its str (kind as its maxchar gives). */
static void
fill_line(const unsigned char *p, const LineSpan *line, PyObject *s)
{
    int kind = PyUnicode_KIND(s);
    void *data = PyUnicode_DATA(s);
    if (line->maxchar < 0x80) {
        memcpy(data, p, line->bytes);
        return;
    }
    const unsigned char *q = p, *end = p + line->bytes;
    size_t i = 0;
    u32 cp = 0;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        for (Py_UCS1 *d = data; q < end; i++) {
            q += utf8_seq(q, end, &cp);
            d[i] = (Py_UCS1)cp;
        }
        break;
    case PyUnicode_2BYTE_KIND:
        for (Py_UCS2 *d = data; q < end; i++) {
            q += utf8_seq(q, end, &cp);
            d[i] = (Py_UCS2)cp;
        }
        break;
    default:
        for (Py_UCS4 *d = data; q < end; i++) {
            q += utf8_seq(q, end, &cp);
            d[i] = cp;
        }
    }
}

/*
 * Pass 1 of split_lines, without Python calls: up to `count` lines from data[start..size)
 * into *spans (grown as needed; *n of them).  A line is the bytes up to the next \n, or
 * with `final` the bytes after the last \n when there are any.  Stops before the first
 * line that is not UTF-8 (*bad gets its start) or an unfinished line (not final).  *stop
 * gets the offset after the last line taken.  -1 on memory failure.
 */
static int
scan_lines(const unsigned char *data, size_t size, size_t start, size_t count, int final,
           LineSpan **spans, size_t *n, size_t *cap, size_t *stop, Py_ssize_t *bad)
{
    size_t at = start;
    *bad = -1;
    while (*n < count && at < size) {
        const unsigned char *nl = memchr(data + at, '\n', size - at);
        if (!nl && !final) break;
        size_t bytes = nl ? (size_t)(nl - (data + at)) : size - at;
        if (*n == *cap) {
            size_t grown = *cap ? 2 * *cap : 1024;
            LineSpan *more = realloc(*spans, grown * sizeof(LineSpan));
            if (!more) return -1;
            *spans = more;
            *cap = grown;
        }
        LineSpan *line = &(*spans)[*n];
        line->start = at;
        line->bytes = bytes;
        if (!measure_line(data + at, line)) {
            *bad = (Py_ssize_t)at;
            break;
        }
        (*n)++;
        at += bytes + (nl != NULL);
    }
    *stop = at;
    return 0;
}

PyDoc_STRVAR(split_lines_doc,
"split_lines(data, start, count, final, /)\n--\n\n"
"Up to count lines of the bytes data[start:], decoded as strict UTF-8, exactly as\n"
"data.decode('utf-8').split('\\n') gives them (only \\n ends a line; it is not part of\n"
"it).  Only lines ended by \\n are taken, and with final also the bytes after the last\n"
"\\n.  Returns (lines, stop, bad): stop is the offset after the last line taken; bad is\n"
"-1, or the offset where the first line that is not UTF-8 starts (the lines before it\n"
"are returned, stop == bad).  The GIL is released while the bytes are checked and\n"
"decoded.");

static PyObject *
py_split_lines(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t start, count;
    int final;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nnp:split_lines", &view, &start, &count, &final))
        return NULL;
    PyObject *lines = NULL, *result = NULL;
    LineSpan *spans = NULL;
    size_t n = 0, cap = 0, stop = 0, size = (size_t)view.len;
    Py_ssize_t bad = -1;
    const unsigned char *data = view.buf;
    if (start < 0 || (size_t)start > size || count < 0) {
        PyErr_SetString(PyExc_ValueError, "start or count out of range");
        goto done;
    }
    int rc;
    int nogil = size - (size_t)start >= NOGIL_WORK;
    if (nogil) {
        Py_BEGIN_ALLOW_THREADS
        rc = scan_lines(data, size, (size_t)start, (size_t)count, final, &spans, &n, &cap,
                        &stop, &bad);
        Py_END_ALLOW_THREADS
    } else {
        rc = scan_lines(data, size, (size_t)start, (size_t)count, final, &spans, &n, &cap,
                        &stop, &bad);
    }
    if (rc < 0) {
        PyErr_NoMemory();
        goto done;
    }
    /* with the GIL: the str objects (empty, of their final length and kind) in a list */
    lines = PyList_New((Py_ssize_t)n);
    if (!lines) goto done;
    for (size_t i = 0; i < n; i++) {
        PyObject *s = PyUnicode_New((Py_ssize_t)spans[i].length, spans[i].maxchar);
        if (!s) goto done;
        PyList_SET_ITEM(lines, (Py_ssize_t)i, s);
    }
    /* their data, without the GIL: only this call holds them */
    if (nogil) {
        Py_BEGIN_ALLOW_THREADS
        for (size_t i = 0; i < n; i++)
            if (spans[i].length)
                fill_line(data + spans[i].start, &spans[i], PyList_GET_ITEM(lines, i));
        Py_END_ALLOW_THREADS
    } else {
        for (size_t i = 0; i < n; i++)
            if (spans[i].length)
                fill_line(data + spans[i].start, &spans[i], PyList_GET_ITEM(lines, i));
    }
    result = Py_BuildValue("(Onn)", lines, (Py_ssize_t)stop, bad);
done:
    Py_XDECREF(lines);
    free(spans);
    PyBuffer_Release(&view);
    return result;
}

/* ---------------------------------------------------------------------------------------
 * js_dumps: mtcompute.core.jsjson.dumps (JSON.stringify's text) of the common JSON values,
 * as UTF-8 bytes, or None for anything the pure writer must decide (then it is used).
 *
 * Written here: exact dicts with exact str keys (in their order), exact lists and tuples,
 * exact str without surrogate code points, exact int of magnitude at most 2^53, exact
 * float (non-finite: null; else Number::toString from repr's shortest digits), True,
 * False, None.  Anything else (a subclass, another mapping or sequence, a str holding a
 * surrogate, a larger int, nesting deeper than JS_DUMPS_DEPTH) answers None, and so does
 * the whole value: the pure writer then writes it, with the same text.
 * ------------------------------------------------------------------------------------- */

#define JS_DUMPS_DEPTH 200
#define JS_MAX_SAFE 9007199254740992LL /* 2^53 */

typedef struct {
    char *data;
    Py_ssize_t size, capacity;
} JsBuffer;

static int
jsb_reserve(JsBuffer *b, Py_ssize_t more)
{
    if (b->size + more <= b->capacity) return 0;
    Py_ssize_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->size + more) {
        if (capacity > PY_SSIZE_T_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        capacity *= 2;
    }
    char *data = PyMem_Realloc(b->data, (size_t)capacity);
    if (!data) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->capacity = capacity;
    return 0;
}

static int
jsb_write(JsBuffer *b, const char *text, Py_ssize_t length)
{
    if (jsb_reserve(b, length) < 0) return -1;
    memcpy(b->data + b->size, text, (size_t)length);
    b->size += length;
    return 0;
}

/* 1: written; 0: the pure writer must write this value; -1: an error is set. */
static int js_write(JsBuffer *b, PyObject *value, int depth);

static int
js_write_string(JsBuffer *b, PyObject *text)
{
    if (ready(text) < 0) return -1;
    if (first_surrogate(text) >= 0) return 0; /* escaped by the pure writer */
    Py_ssize_t length;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &length);
    if (!utf8) return -1;
    if (jsb_reserve(b, 2 + 6 * length) < 0) return -1; /* each byte at most \u00xx */
    char *out = b->data + b->size;
    static const char hex[] = "0123456789abcdef";
    *out++ = '"';
    for (Py_ssize_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)utf8[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *out++ = (char)c;
            continue;
        }
        *out++ = '\\';
        switch (c) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '\b': *out++ = 'b'; break;
        case '\f': *out++ = 'f'; break;
        case '\n': *out++ = 'n'; break;
        case '\r': *out++ = 'r'; break;
        case '\t': *out++ = 't'; break;
        default:
            *out++ = 'u';
            *out++ = '0';
            *out++ = '0';
            *out++ = hex[c >> 4];
            *out++ = hex[c & 15];
        }
    }
    *out++ = '"';
    b->size = out - b->data;
    return 1;
}

/* Number::toString of a finite double, from repr's shortest round-trip digits (what
 * jsmath._format_double does). */
static int
js_write_float(JsBuffer *b, double x)
{
    if (!isfinite(x)) return jsb_write(b, "null", 4) < 0 ? -1 : 1;
    if (x == 0.0) return jsb_write(b, "0", 1) < 0 ? -1 : 1;
    char *text = PyOS_double_to_string(x < 0 ? -x : x, 'r', 0, 0, NULL);
    if (!text) return -1;
    /* text: digits[.digits][e(+|-)digits] */
    char digits[32];
    int k = 0, point = -1, exponent = 0;
    const char *p = text;
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') point = k;
        else if (k < 31) digits[k++] = *p;
    }
    if (*p == 'e') exponent = atoi(p + 1);
    PyMem_Free(text);
    if (point < 0) point = k;
    /* value = 0.d1d2...dk * 10^(point + exponent) once leading zeros are dropped */
    int lead = 0;
    while (lead < k - 1 && digits[lead] == '0') lead++;
    int n = point + exponent - lead;
    int end = k;
    while (end > lead + 1 && digits[end - 1] == '0') end--;
    const char *s = digits + lead;
    int count = end - lead;
    char out[64];
    int o = 0;
    if (x < 0) out[o++] = '-';
    if (count <= n && n <= 21) {
        memcpy(out + o, s, (size_t)count);
        o += count;
        for (int i = 0; i < n - count; i++) out[o++] = '0';
    } else if (0 < n && n <= 21) {
        memcpy(out + o, s, (size_t)n);
        o += n;
        out[o++] = '.';
        memcpy(out + o, s + n, (size_t)(count - n));
        o += count - n;
    } else if (-6 < n && n <= 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (int i = 0; i < -n; i++) out[o++] = '0';
        memcpy(out + o, s, (size_t)count);
        o += count;
    } else {
        out[o++] = s[0];
        if (count > 1) {
            out[o++] = '.';
            memcpy(out + o, s + 1, (size_t)(count - 1));
            o += count - 1;
        }
        o += snprintf(out + o, sizeof out - (size_t)o, "e%c%d", n - 1 >= 0 ? '+' : '-',
                      n - 1 >= 0 ? n - 1 : 1 - n);
    }
    return jsb_write(b, out, o) < 0 ? -1 : 1;
}

static int
js_write(JsBuffer *b, PyObject *value, int depth)
{
    if (depth > JS_DUMPS_DEPTH) return 0;
    PyTypeObject *type = Py_TYPE(value);
    if (type == &PyUnicode_Type) return js_write_string(b, value);
    if (type == &PyLong_Type) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (overflow || v > JS_MAX_SAFE || v < -JS_MAX_SAFE) return 0;
        char out[24];
        int o = snprintf(out, sizeof out, "%lld", v);
        return jsb_write(b, out, o) < 0 ? -1 : 1;
    }
    if (type == &PyFloat_Type) return js_write_float(b, PyFloat_AS_DOUBLE(value));
    if (value == Py_None) return jsb_write(b, "null", 4) < 0 ? -1 : 1;
    if (value == Py_True) return jsb_write(b, "true", 4) < 0 ? -1 : 1;
    if (value == Py_False) return jsb_write(b, "false", 5) < 0 ? -1 : 1;
    if (type == &PyList_Type || type == &PyTuple_Type) {
        PyObject *seq = PySequence_Fast(value, "");
        if (!seq) return -1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        int status = jsb_write(b, "[", 1) < 0 ? -1 : 1;
        for (Py_ssize_t i = 0; i < n && status == 1; i++) {
            if (i > 0 && jsb_write(b, ",", 1) < 0) status = -1;
            else status = js_write(b, PySequence_Fast_GET_ITEM(seq, i), depth + 1);
        }
        Py_DECREF(seq);
        if (status != 1) return status;
        return jsb_write(b, "]", 1) < 0 ? -1 : 1;
    }
    if (type == &PyDict_Type) {
        Py_ssize_t pos = 0;
        PyObject *key, *item;
        int first = 1;
        if (jsb_write(b, "{", 1) < 0) return -1;
        while (PyDict_Next(value, &pos, &key, &item)) {
            if (Py_TYPE(key) != &PyUnicode_Type) return 0;
            if (!first && jsb_write(b, ",", 1) < 0) return -1;
            first = 0;
            Py_INCREF(key);
            Py_INCREF(item);
            int status = js_write_string(b, key);
            if (status == 1) status = jsb_write(b, ":", 1) < 0 ? -1 : 1;
            if (status == 1) status = js_write(b, item, depth + 1);
            Py_DECREF(key);
            Py_DECREF(item);
            if (status != 1) return status;
        }
        return jsb_write(b, "}", 1) < 0 ? -1 : 1;
    }
    return 0;
}

PyDoc_STRVAR(js_dumps_doc,
"js_dumps(value, /)\n--\n\n"
"mtcompute.core.jsjson.dumps(value) as UTF-8 bytes, for a value of exact JSON types (dict\n"
"with str keys, list, tuple, str without surrogates, int within 2^53, float, bool, None);\n"
"None for any other value (the pure writer decides it).");

static PyObject *
py_js_dumps(PyObject *self, PyObject *value)
{
    (void)self;
    JsBuffer b = {NULL, 0, 0};
    int status = js_write(&b, value, 0);
    PyObject *res = NULL;
    if (status == 1) res = PyBytes_FromStringAndSize(b.data, b.size);
    else if (status == 0) {
        res = Py_None;
        Py_INCREF(res);
    }
    PyMem_Free(b.data);
    return res;
}

/* ---------------------------------------------------------------------------------------
 * chrf_ratios: mtcompute.core.chrf.chrf_ratio of a counts buffer's total and of each of its
 * segments, as reduced (numerator, denominator) pairs, in unsigned __int128 through the lcm
 * form of chrf_exact; None where a product would overflow (Python's integers finish it: the
 * reduced fraction is the same either way).
 * ------------------------------------------------------------------------------------- */

static PyObject *
u128_to_long(u128 v)
{
    if (!(v >> 64)) return PyLong_FromUnsignedLongLong((unsigned long long)v);
    PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(v >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)v);
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

PyDoc_STRVAR(chrf_ratios_doc,
"chrf_ratios(counts, char_order, beta, /)\n--\n\n"
"mtcompute.core.chrf.chrf_ratio of the counts summed over the segments of a chrf_counts\n"
"buffer, and of each segment's: (total, [segment, ...]), each a reduced (numerator,\n"
"denominator) pair, or None where the exact integers do not fit 128 bits (or a sum 64 bits):\n"
"Python finishes those.");

static PyObject *
py_chrf_ratios(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int N, beta;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ii:chrf_ratios", &view, &N, &beta)) return NULL;
    PyObject *out = NULL, *list = NULL, *total = NULL;
    Py_ssize_t n = counts_rows(&view, N, beta);
    if (n < 0) goto done;
    size_t stride = 3 * (size_t)N * sizeof(i64);
    list = PyList_New(n);
    if (!list) goto done;
    i64 sums[3 * MAX_ORDER] = {0};
    int summed = 1;
    u128 num, den;
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 c[3 * MAX_ORDER];
        memcpy(c, (const char *)view.buf + (size_t)i * stride, stride);
        for (int k = 0; k < 3 * N; k++) summed &= !__builtin_add_overflow(sums[k], c[k], &sums[k]);
        PyObject *pair;
        if (chrf_ratio_counts(c, c + N, c + 2 * N, N, (u32)beta, &num, &den)) {
            pair = ratio_pair(num, den);
        } else {
            pair = Py_NewRef(Py_None);
        }
        if (!pair) goto done;
        PyList_SET_ITEM(list, i, pair);
    }
    if (summed && chrf_ratio_counts(sums, sums + N, sums + 2 * N, N, (u32)beta, &num, &den)) {
        total = ratio_pair(num, den);
    } else {
        total = Py_NewRef(Py_None);
    }
    if (total) out = PyTuple_Pack(2, total, list);
done:
    Py_XDECREF(total);
    Py_XDECREF(list);
    PyBuffer_Release(&view);
    return out;
}

PyDoc_STRVAR(skip_lines_doc,
"skip_lines(data, start, count, final, /)\n--\n\n"
"The lines split_lines(data, start, count, final) would take, without checking or\n"
"decoding them: (stop, found), stop the offset after the last line taken and found their\n"
"number (only lines ended by \\n, and with final also the bytes after the last \\n).\n"
"The GIL is released while the newlines are looked for.");

/* skip_lines' search, without Python calls */
static size_t
skip_scan(const unsigned char *data, size_t size, size_t at, size_t count, int final,
          size_t *found)
{
    size_t n = 0;
    while (n < count && at < size) {
        const unsigned char *nl = memchr(data + at, '\n', size - at);
        if (!nl) {
            if (final) {
                at = size;
                n++;
            }
            break;
        }
        at = (size_t)(nl - data) + 1;
        n++;
    }
    *found = n;
    return at;
}

static PyObject *
py_skip_lines(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t start, count;
    int final;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nnp:skip_lines", &view, &start, &count, &final))
        return NULL;
    size_t size = (size_t)view.len, found = 0, stop;
    if (start < 0 || (size_t)start > size || count < 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "start or count out of range");
        return NULL;
    }
    if (size - (size_t)start >= NOGIL_WORK) {
        Py_BEGIN_ALLOW_THREADS
        stop = skip_scan(view.buf, size, (size_t)start, (size_t)count, final, &found);
        Py_END_ALLOW_THREADS
    } else {
        stop = skip_scan(view.buf, size, (size_t)start, (size_t)count, final, &found);
    }
    PyBuffer_Release(&view);
    return Py_BuildValue("(nn)", (Py_ssize_t)stop, (Py_ssize_t)found);
}

/* ------------------------------------------------------------------------------------ */
/* BLEU of undecoded lines                                                                */
/* ------------------------------------------------------------------------------------ */

/* The code points of a checked line (measure_line) into out (room for line->length). */
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
        q += utf8_seq(q, end, &cp);
        out[i] = cp;
    }
}

/* The inputs of bleu_counts_lines: per input its buffer and its checked lines. */
typedef struct LinesIn {
    Py_buffer *views;
    LineSpan **spans;
    size_t *caps;
    Py_ssize_t inputs; /* the hypotheses', then one per reference */
} LinesIn;

static size_t
lines_widen(const struct LinesIn *L, Py_ssize_t f, size_t i, Py_UCS4 *out)
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

/* Pass 1, without Python calls: every input split into exactly n checked lines.  1 when
 * one is not (a line that is not UTF-8, fewer or more lines, a line of 2^32 code points or
 * more), -1 on memory failure, else 0 with the sizes bleu_read_text's measure_text would
 * add up (code points, a bound on the tokens, the longest line). */
static int
lines_scan(LinesIn *L, size_t n, int tok13a, size_t *units, size_t *bound, size_t *maxlen)
{
    for (Py_ssize_t f = 0; f < L->inputs; f++) {
        size_t got = 0, stop = 0, size = (size_t)L->views[f].len;
        Py_ssize_t bad = -1;
        if (scan_lines(L->views[f].buf, size, 0, n, 1, &L->spans[f], &got, &L->caps[f], &stop,
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

/* One line of input f decoded and its tokens pushed (as tok13a_text or split_text). */
static void
push_line(BleuIn *b, const LinesIn *L, Py_ssize_t f, Py_ssize_t i, int tok13a, size_t *used)
{
    const LineSpan *line = &L->spans[f][i];
    const unsigned char *p = (const unsigned char *)L->views[f].buf + line->start;
    if (tok13a) {
        decode_ucs4(p, line, b->scratch);
        tok13a_units(b, line->length, used);
    } else {
        decode_ucs4(p, line, b->text + *used);
        split_units(b, line->length, used);
    }
}

/* bleu_tokenize of lines, in its reading order: every hypothesis, then per segment its
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
        if ((rc = end_hypothesis(b, i, pb))) return rc;
    }
    b->hoff[n] = b->ntok;
    pb->field = "references";
    for (Py_ssize_t i = 0; i < n; i++) {
        b->rseg[i] = b->nref;
        for (Py_ssize_t j = 0; j < nr; j++) {
            b->roff[b->nref] = b->ntok;
            push_line(b, L, 1 + j, i, tok13a, &used);
            if ((rc = end_reference(b, i, j, pb))) return rc;
        }
        end_segment(b, i);
    }
    end_input(b, n);
    return 0;
}

PyDoc_STRVAR(bleu_counts_lines_doc,
"bleu_counts_lines(hypotheses, references, count, max_order, per_segment, tokenizer, /)\n"
"--\n\n"
"bleu_counts_text of undecoded lines: hypotheses the bytes of count lines (each ended by\n"
"\\n, the last one may not be), references a tuple of one or more such bytes, one a\n"
"reference of every segment; the lines are what split_lines(data, 0, count, True) would\n"
"decode.  Returns (buffer or None, totals), or None when an input is not exactly count\n"
"lines of strict UTF-8 or a text is too long for the kernel (decode the lines and take\n"
"bleu_counts_text).  The GIL is released while the lines are checked, decoded, tokenized\n"
"and counted.");

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
    return b->text && b->tpos && b->tlen && b->hash && b->hoff && b->rseg && b->roff &&
                   b->scratch
               ? 0
               : -1;
}

static void
bleu_lines_free(BleuIn *b, LinesIn *L)
{
    PyMem_RawFree(b->text);
    PyMem_RawFree(b->tpos);
    PyMem_RawFree(b->tlen);
    PyMem_RawFree(b->hash);
    PyMem_RawFree(b->hoff);
    PyMem_RawFree(b->rseg);
    PyMem_RawFree(b->roff);
    PyMem_RawFree(b->scratch);
    for (Py_ssize_t f = 0; f < L->inputs; f++) {
        free(L->spans[f]);
        L->spans[f] = NULL;
    }
}

static PyObject *
py_bleu_counts_lines(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *buf = NULL, *result = NULL;
    Py_ssize_t n;
    int N, per_segment, tok13a;
    const char *tokenizer;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!nips:bleu_counts_lines", &hyps, &PyTuple_Type, &refs, &n,
                          &N, &per_segment, &tokenizer))
        return NULL;
    if (strcmp(tokenizer, "none") == 0)
        tok13a = 0;
    else if (strcmp(tokenizer, "13a") == 0)
        tok13a = 1;
    else {
        PyErr_SetString(PyExc_ValueError, "the kernel's tokenizers are 'none' and '13a'");
        return NULL;
    }
    if (N < 1 || N > MAX_ORDER || n < 0 || PyTuple_GET_SIZE(refs) < 1) {
        PyErr_SetString(PyExc_ValueError, "max_order, count or references out of range");
        return NULL;
    }
    LinesIn L = {0};
    BleuIn b = {0};
    Problem pb = {0};
    pb.pos = -1;
    Py_ssize_t nr = PyTuple_GET_SIZE(refs);
    L.inputs = 1 + nr;
    L.views = PyMem_Calloc((size_t)L.inputs, sizeof(Py_buffer));
    L.spans = PyMem_Calloc((size_t)L.inputs, sizeof(LineSpan *));
    L.caps = PyMem_Calloc((size_t)L.inputs, sizeof(size_t));
    if (!L.views || !L.spans || !L.caps) {
        lines_free(&L);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t f = 0; f < L.inputs; f++) {
        PyObject *o = f ? PyTuple_GET_ITEM(refs, f - 1) : hyps;
        if (PyObject_GetBuffer(o, &L.views[f], PyBUF_SIMPLE) < 0) {
            L.views[f].obj = NULL;
            lines_free(&L);
            return NULL;
        }
    }
    /* pass 1 without the GIL: the lines checked and measured, the arrays allocated */
    size_t units = 0, bound = 0, maxlen = 0, nref = (size_t)n * (size_t)nr;
    int rc, nomem = 0;
    Py_BEGIN_ALLOW_THREADS
    rc = lines_scan(&L, (size_t)n, tok13a, &units, &bound, &maxlen);
    if (rc == 0 && bound >= UINT32_MAX - 1) rc = 1;
    if (rc == 0) rc = bleu_lines_alloc(&b, (size_t)n, nref, units, bound, maxlen);
    Py_END_ALLOW_THREADS
    i64 totals[2 + 2 * MAX_ORDER] = {0}, *seg = NULL;
    Work *w = NULL;
    if (rc == 0 && per_segment) {
        buf = PyBytes_FromStringAndSize(NULL,
                                        (Py_ssize_t)((size_t)n * (2 + 2 * N) * sizeof(i64)));
        if (buf)
            seg = (i64 *)PyBytes_AS_STRING(buf);
        else
            rc = -2; /* the exception is set */
    }
    if (rc == 0 && !(w = work_get())) rc = -1;
    /* pass 2 without the GIL: decoded, tokenized and counted; then everything freed */
    Py_BEGIN_ALLOW_THREADS
    if (rc == 0) rc = bleu_tokenize_lines(&b, &L, n, tok13a, &pb);
    if (rc == 0) {
        nomem = work_bleu(w, b.maxhyp, b.maxrefsum) < 0;
        if (!nomem) bleu_count_loop(w, &b, n, N, seg, totals);
    }
    bleu_lines_free(&b, &L);
    Py_END_ALLOW_THREADS
    work_put(w);
    if (rc == -1 || nomem)
        PyErr_NoMemory();
    else if (rc > 0) /* not lines of UTF-8, or a text too long: the str path says which */
        result = Py_NewRef(Py_None);
    else if (rc == 0) {
        PyObject *tot = tuple_of(totals, 2 + 2 * N);
        if (tot) result = Py_BuildValue("(ON)", buf ? buf : Py_None, tot);
    }
    Py_XDECREF(buf);
    lines_free(&L);
    return result;
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

PyDoc_STRVAR(sacrebleu_chrf_lines_doc,
"sacrebleu_chrf_lines(hypotheses, references, count, char_order, word_order, beta,\n"
"                     whitespace, eps_smoothing, per_segment, /)\n--\n\n"
"sacrebleu_chrf_counts of undecoded lines, as bleu_counts_lines takes them: (buffer or\n"
"None, totals), or None when an input is not exactly count lines of strict UTF-8 or a\n"
"line is too long for the kernel (decode the lines and take sacrebleu_chrf_counts).  The\n"
"GIL is released while the lines are checked, decoded and counted.");

static PyObject *
py_sacrebleu_chrf_lines(PyObject *self, PyObject *args)
{
    PyObject *hyps, *refs, *buf = NULL, *result = NULL;
    Py_ssize_t n;
    int per_segment;
    Sacre S = {0};
    LinesIn L = {0};
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!niiippp:sacrebleu_chrf_lines", &hyps, &PyTuple_Type, &refs,
                          &n, &S.C, &S.W, &S.beta, &S.whitespace, &S.eps_smoothing,
                          &per_segment))
        return NULL;
    if (S.C < 0 || S.C > MAX_ORDER || S.W < 0 || S.W > MAX_ORDER || S.C + S.W == 0 ||
        S.beta < 0 || S.beta > 1000000 || n < 0 || PyTuple_GET_SIZE(refs) < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "chrF orders, beta, count or references out of range for the kernel");
        return NULL;
    }
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
    Py_BEGIN_ALLOW_THREADS
    rc = lines_scan(&L, (size_t)n, 0, &units, &bound, &maxlen);
    if (rc == 0 && maxlen >= MAX_TEXT) rc = 1;
    Py_END_ALLOW_THREADS
    if (rc < 0) {
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
    if (sacre_scratch(&S) < 0) goto done;
    int K = S.C + S.W;
    i64 *seg = NULL, totals[6 * MAX_ORDER] = {0}, one[6 * MAX_ORDER];
    if (per_segment) {
        buf = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)n * 3 * K * sizeof(i64)));
        if (!buf) goto done;
        seg = (i64 *)PyBytes_AS_STRING(buf);
    }
    Work *w = work_get();
    if (!w || work_chrf(w, S.maxlen) < 0) {
        work_put(w);
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        i64 *o = seg ? seg + (size_t)i * 3 * K : one;
        sacre_segment(&S, w, i, o);
        for (int k = 0; k < 3 * K; k++) totals[k] += o[k];
    }
    for (Py_ssize_t f = 0; f < L.inputs; f++) {
        free(L.spans[f]);
        L.spans[f] = NULL;
    }
    Py_END_ALLOW_THREADS
    work_put(w);
    PyObject *tot = tuple_of(totals, 3 * K);
    if (tot) result = Py_BuildValue("(ON)", buf ? buf : Py_None, tot);
done:
    Py_XDECREF(buf);
    sacre_free(&S);
    lines_free(&L);
    return result;
}

static PyMethodDef methods[] = {
    {"chrf_counts", py_chrf_counts, METH_VARARGS, chrf_counts_doc},
    {"chrf_segment", py_chrf_segment, METH_VARARGS, chrf_segment_doc},
    {"chrf_scores", py_chrf_scores, METH_VARARGS, chrf_scores_doc},
    {"chrf_pairwise", py_chrf_pairwise, METH_VARARGS, chrf_pairwise_doc},
    {"bleu_counts", py_bleu_counts, METH_VARARGS, bleu_counts_doc},
    {"bleu_counts_text", py_bleu_counts_text, METH_VARARGS, bleu_counts_text_doc},
    {"tokenize_13a", py_tokenize_13a, METH_O, tokenize_13a_doc},
    {"sacrebleu_chrf_counts", py_sacrebleu_chrf_counts, METH_VARARGS, sacrebleu_chrf_counts_doc},
    {"bleu_sentence", py_bleu_sentence, METH_VARARGS, bleu_sentence_doc},
    {"first_lone_surrogate", py_first_lone_surrogate, METH_O, first_lone_surrogate_doc},
    {"plain_texts", py_plain_texts, METH_VARARGS, plain_texts_doc},
    {"ter_edits", py_ter_edits, METH_VARARGS, ter_edits_doc},
    {"ter_statistics_text", py_ter_statistics_text, METH_VARARGS, ter_statistics_text_doc},
    {"split_lines", py_split_lines, METH_VARARGS, split_lines_doc},
    {"skip_lines", py_skip_lines, METH_VARARGS, skip_lines_doc},
    {"bleu_counts_lines", py_bleu_counts_lines, METH_VARARGS, bleu_counts_lines_doc},
    {"sacrebleu_chrf_lines", py_sacrebleu_chrf_lines, METH_VARARGS, sacrebleu_chrf_lines_doc},
    {"wide_texts", py_wide_texts, METH_VARARGS, wide_texts_doc},
    {"js_dumps", py_js_dumps, METH_O, js_dumps_doc},
    {"chrf_ratios", py_chrf_ratios, METH_VARARGS, chrf_ratios_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(module_doc,
"The C speed layer of mtcompute: chrF (Popovic 2015) and BLEU (Papineni et al. 2002)\n"
"sufficient statistics and exact sentence chrF, identical to the pure Python core, and\n"
"sacreBLEU 2.6.0's 13a tokenizer and chrF/chrF++ statistics.\n"
"Use it through mtcompute.counting.");

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "mtcompute._kernel", module_doc, -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    if (lower1_init() < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_ORDER", MAX_ORDER) < 0 ||
        PyModule_AddIntConstant(m, "MAX_BETA", MAX_BETA) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
