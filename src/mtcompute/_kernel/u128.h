/*
 * u128.h: unsigned 128-bit integers (u128) and the 64-bit bit scans and overflow checks of
 * mtcompute._kernel, for GCC, Clang and MSVC.  No Python twin: Python's int is the model.
 *
 * With GCC or Clang on a target that has unsigned __int128, each function is a thin inline
 * wrapper around the native operator or builtin, so the fast path compiles to the code the
 * operators gave.  Without it (MSVC, 32-bit targets), or when MTK_PORTABLE_U128 is defined
 * (so that this path is compiled and tested with GCC too), u128 is a struct of two 64-bit
 * halves: 64x64-bit products with _umul128 / __umulh and bit scans with _BitScanReverse64
 * under MSVC on x64 and ARM64, else in plain C (products by 32-bit halves, bit scans by
 * halving); division by shift-subtract long division.
 *
 * Both give the same values: u128_add, u128_sub and the shifts are modulo 2^128, as the
 * operators are (the callers keep them in range), and the _overflow functions report a
 * result that does not fit (storing it modulo 2^128, as the builtins do).  Shift counts are
 * in [0, 128); divisors are nonzero.
 */
#ifndef MTK_U128_H
#define MTK_U128_H

#include <stdint.h>

#if !defined(MTK_PORTABLE_U128) && defined(__GNUC__)
#define MTK_GNU_BUILTINS 1 /* GCC or Clang (not clang-cl): __builtin_clzll and kin */
#if defined(__SIZEOF_INT128__)
#define MTK_NATIVE_U128 1
#endif
#elif !defined(MTK_PORTABLE_U128) && defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
#define MTK_MSVC_INTRINSICS 1
#include <intrin.h>
#endif

/* ------------------------------------------------------------------------------------ */
/* 64-bit helpers                                                                        */
/* ------------------------------------------------------------------------------------ */

/* The leading zero bits of x != 0. */
static inline int
mtk_clz64(uint64_t x)
{
#if defined(MTK_GNU_BUILTINS)
    return __builtin_clzll(x);
#elif defined(MTK_MSVC_INTRINSICS)
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
#else
    int n = 0;
    for (int s = 32; s; s >>= 1) {
        if (!(x >> (64 - s))) {
            n += s;
            x <<= s;
        }
    }
    return n;
#endif
}

/* The trailing zero bits of x != 0. */
static inline int
mtk_ctz64(uint64_t x)
{
#if defined(MTK_GNU_BUILTINS)
    return __builtin_ctzll(x);
#else
    return 63 - mtk_clz64(x & (~x + 1)); /* the lowest set bit alone: one bit scan */
#endif
}

/* *out = a + b (modulo 2^64); nonzero when the exact sum is outside int64_t. */
static inline int
mtk_add_i64_overflow(int64_t a, int64_t b, int64_t *out)
{
#if defined(MTK_GNU_BUILTINS)
    return __builtin_add_overflow(a, b, out);
#else
    *out = (int64_t)((uint64_t)a + (uint64_t)b);
    return b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b;
#endif
}

/* ------------------------------------------------------------------------------------ */
/* u128: native                                                                          */
/* ------------------------------------------------------------------------------------ */

#if defined(MTK_NATIVE_U128)

typedef unsigned __int128 u128;

static inline u128
u128_of(uint64_t x)
{
    return x;
}

static inline uint64_t
u128_hi(u128 x)
{
    return (uint64_t)(x >> 64);
}

static inline uint64_t
u128_lo(u128 x)
{
    return (uint64_t)x;
}

static inline int
u128_is_zero(u128 x)
{
    return x == 0;
}

static inline int
u128_eq(u128 a, u128 b)
{
    return a == b;
}

static inline int
u128_lt(u128 a, u128 b)
{
    return a < b;
}

static inline u128
u128_add(u128 a, u128 b)
{
    return a + b;
}

static inline u128
u128_sub(u128 a, u128 b)
{
    return a - b;
}

static inline u128
u128_and(u128 a, u128 b)
{
    return a & b;
}

static inline u128
u128_or(u128 a, u128 b)
{
    return a | b;
}

static inline u128
u128_shl(u128 x, int n)
{
    return x << n;
}

static inline u128
u128_shr(u128 x, int n)
{
    return x >> n;
}

/* The full product of two 64-bit values. */
static inline u128
u128_mul64(uint64_t a, uint64_t b)
{
    return (u128)a * b;
}

/* *out = a + b (modulo 2^128); nonzero when the sum does not fit. */
static inline int
u128_add_overflow(u128 a, u128 b, u128 *out)
{
    return __builtin_add_overflow(a, b, out);
}

/* *out = a * b (modulo 2^128); nonzero when the product does not fit. */
static inline int
u128_mul_overflow(u128 a, u128 b, u128 *out)
{
    return __builtin_mul_overflow(a, b, out);
}

/* a / b, and a % b at *rem. */
static inline u128
u128_divmod(u128 a, u128 b, u128 *rem)
{
    u128 q = a / b;
    *rem = a - q * b;
    return q;
}

static inline u128
u128_div(u128 a, u128 b)
{
    return a / b;
}

static inline u128
u128_mod(u128 a, u128 b)
{
    return a % b;
}

/* ------------------------------------------------------------------------------------ */
/* u128: two 64-bit halves                                                               */
/* ------------------------------------------------------------------------------------ */

#else

typedef struct {
    uint64_t hi, lo;
} u128;

static inline u128
u128_of(uint64_t x)
{
    u128 r = {0, x};
    return r;
}

static inline uint64_t
u128_hi(u128 x)
{
    return x.hi;
}

static inline uint64_t
u128_lo(u128 x)
{
    return x.lo;
}

static inline int
u128_is_zero(u128 x)
{
    return !(x.hi | x.lo);
}

static inline int
u128_eq(u128 a, u128 b)
{
    return a.hi == b.hi && a.lo == b.lo;
}

static inline int
u128_lt(u128 a, u128 b)
{
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

static inline u128
u128_add(u128 a, u128 b)
{
    u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

static inline u128
u128_sub(u128 a, u128 b)
{
    u128 r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo);
    return r;
}

static inline u128
u128_and(u128 a, u128 b)
{
    u128 r = {a.hi & b.hi, a.lo & b.lo};
    return r;
}

static inline u128
u128_or(u128 a, u128 b)
{
    u128 r = {a.hi | b.hi, a.lo | b.lo};
    return r;
}

/* x << n: the half shifted in is (lo >> 1) >> (63 - n), which is 0 for n = 0. */
static inline u128
u128_shl(u128 x, int n)
{
    u128 r = {x.lo << (n & 63), 0}; /* for n >= 64 */
    if (n < 64) r = (u128){(x.hi << n) | (x.lo >> 1 >> (63 - n)), x.lo << n};
    return r;
}

/* x >> n, the mirror of u128_shl. */
static inline u128
u128_shr(u128 x, int n)
{
    u128 r = {0, x.hi >> (n & 63)}; /* for n >= 64 */
    if (n < 64) r = (u128){x.hi >> n, (x.lo >> n) | (x.hi << 1 << (63 - n))};
    return r;
}

/* The full product of two 64-bit values. */
static inline u128
u128_mul64(uint64_t a, uint64_t b)
{
    u128 r;
#if defined(MTK_MSVC_INTRINSICS) && defined(_M_X64)
    r.lo = _umul128(a, b, &r.hi);
#elif defined(MTK_MSVC_INTRINSICS)
    r.lo = a * b;
    r.hi = __umulh(a, b);
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10; /* < 3 * 2^32 */
    r.lo = (mid << 32) | (uint32_t)p00;
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
    return r;
}

/* *out = a + b (modulo 2^128); nonzero when the sum does not fit. */
static inline int
u128_add_overflow(u128 a, u128 b, u128 *out)
{
    uint64_t lo = a.lo + b.lo, hi = a.hi + b.hi, carry = lo < a.lo;
    int over = hi < a.hi;
    out->lo = lo;
    out->hi = hi + carry;
    return over | (out->hi < hi);
}

/* *out = a * b (modulo 2^128); nonzero when the product does not fit: a.hi * b.hi must be 0
 * and the two cross products and their sum with the high half must stay under 2^64. */
static inline int
u128_mul_overflow(u128 a, u128 b, u128 *out)
{
    u128 low = u128_mul64(a.lo, b.lo), c1 = u128_mul64(a.hi, b.lo), c2 = u128_mul64(a.lo, b.hi);
    uint64_t hi = low.hi + c1.lo, hi2 = hi + c2.lo;
    out->lo = low.lo;
    out->hi = hi2;
    return (a.hi && b.hi) || c1.hi || c2.hi || hi < low.hi || hi2 < hi;
}

static inline int u128_clz(u128 x);

/* a / b, and a % b at *rem: 64-bit division when both fit, else shift-subtract long
 * division, one quotient bit per step from b aligned under a's leading bit. */
static inline u128
u128_divmod(u128 a, u128 b, u128 *rem)
{
    u128 q = {0, 0};
    if (!a.hi && !b.hi) {
        q.lo = a.lo / b.lo;
        *rem = u128_of(a.lo % b.lo);
        return q;
    }
    if (u128_lt(a, b)) {
        *rem = a;
        return q;
    }
    int shift = u128_clz(b) - u128_clz(a);
    u128 d = u128_shl(b, shift);
    for (int i = 0; i <= shift; i++) {
        q = u128_shl(q, 1);
        if (!u128_lt(a, d)) {
            a = u128_sub(a, d);
            q.lo |= 1;
        }
        d = u128_shr(d, 1);
    }
    *rem = a;
    return q;
}

static inline u128
u128_div(u128 a, u128 b)
{
    u128 rem;
    return u128_divmod(a, b, &rem);
}

static inline u128
u128_mod(u128 a, u128 b)
{
    u128 rem;
    u128_divmod(a, b, &rem);
    return rem;
}

#endif /* MTK_NATIVE_U128 */

/* The leading zero bits of x (128 for 0). */
static inline int
u128_clz(u128 x)
{
    uint64_t hi = u128_hi(x), lo = u128_lo(x);
    if (hi) return mtk_clz64(hi);
    if (lo) return 64 + mtk_clz64(lo);
    return 128;
}

#endif /* MTK_U128_H */
