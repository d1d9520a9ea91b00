/*
 * tok13a.c: sacreBLEU 2.6.0's 13a tokenizer on code points: tokenize_13a, and the 13a tokens that
 * bleu_counts_text and bleu_counts_lines count.
 * Python twin: mtcompute.core.tokenizers.tokenize_13a.
 */
#include "common.h"

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
    [0x20] = 1, [0x21] = 1, [0x22] = 1, [0x23] = 1, [0x24] = 1, [0x25] = 1, [0x26] = 1, [0x28] = 1,
    [0x29] = 1, [0x2A] = 1, [0x2B] = 1, [0x2F] = 1, [0x3A] = 1, [0x3B] = 1, [0x3C] = 1, [0x3D] = 1,
    [0x3E] = 1, [0x3F] = 1, [0x40] = 1, [0x5B] = 1, [0x5C] = 1, [0x5D] = 1, [0x5E] = 1, [0x5F] = 1,
    [0x60] = 1, [0x7B] = 1, [0x7C] = 1, [0x7D] = 1, [0x7E] = 1,
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

/*
 * A two-code-point stage k (2, 3 or 4): it holds at most one pending code point p (pk, hk);
 * when (p, c) matches MATCH, the stage gives the four code points OUT to its NEXT stage and
 * starts afresh; else it gives p on and holds c.
 */
#define T13_PAIR_STAGE(NAME, k, NEXT, MATCH, OUT1, OUT2, OUT3, OUT4)                               \
    static inline void NAME(T13 *t, u32 c)                                                         \
    {                                                                                              \
        if (t->h##k) {                                                                             \
            u32 p = t->p##k;                                                                       \
            if (MATCH) {                                                                           \
                t->h##k = 0;                                                                       \
                NEXT(t, OUT1);                                                                     \
                NEXT(t, OUT2);                                                                     \
                NEXT(t, OUT3);                                                                     \
                NEXT(t, OUT4);                                                                     \
                return;                                                                            \
            }                                                                                      \
            NEXT(t, p);                                                                            \
        }                                                                                          \
        t->p##k = c;                                                                               \
        t->h##k = 1;                                                                               \
    }

/* ([0-9])(-) -> r'\1 \2 ' */
T13_PAIR_STAGE(t13_s4, 4, t13_out, is_digit(p) && c == '-', p, ' ', c, ' ')
/* ([\.,])([^0-9]) -> r' \1 \2' */
T13_PAIR_STAGE(t13_s3, 3, t13_s4, is_dot_comma(p) && !is_digit(c), ' ', p, ' ', c)
/* ([^0-9])([\.,]) -> r'\1 \2 ' */
T13_PAIR_STAGE(t13_s2, 2, t13_s3, !is_digit(p) && is_dot_comma(c), p, ' ', c, ' ')
#undef T13_PAIR_STAGE

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
        fast = t->h2 && t->h3 && t->h4 && !is_dot_comma_dash(t->p2) && !is_dot_comma_dash(t->p3);
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
void
mtk_tok13a_text(BleuIn *b, PyObject *s, size_t *used)
{
    mtk_tok13a_units(b, mtk_widen(s, b->scratch), used);
}

/* mtk_tok13a_text of the n code points already in b->scratch (which it changes). */
void
mtk_tok13a_units(BleuIn *b, size_t n, size_t *used)
{
    T13 t = {0};
    t.b = b;
    t.base = *used;
    t.out = b->text + *used;
    t13_line(&t, b->scratch, n, 1);
    *used += t.n;
}

/* The kernel's tokenizer named `name` (bleu_counts_text, bleu_counts_lines): 0 for "none",
 * 1 for "13a", else -1 with ValueError. */
int
mtk_tok13a_named(const char *name)
{
    if (strcmp(name, "none") == 0) return 0;
    if (strcmp(name, "13a") == 0) return 1;
    PyErr_SetString(PyExc_ValueError, "the kernel's tokenizers are 'none' and '13a'");
    return -1;
}

KERNEL_FUNCTION(tokenize_13a, arg, "tokenize_13a(text, /)",
                "sacreBLEU 2.6.0's Tokenizer13a of text, exactly (no rstrip).")
{
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
    mtk_widen(arg, s);
    T13 t = {0};
    t.out = s + n;
    t13_line(&t, s, n, 0);
    PyObject *res = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, t.out, (Py_ssize_t)t.n);
    PyMem_Free(s);
    return res;
}

PyMethodDef mtk_tok13a_methods[] = {
    KERNEL_METHOD(tokenize_13a, METH_O),
    KERNEL_METHODS_END,
};
