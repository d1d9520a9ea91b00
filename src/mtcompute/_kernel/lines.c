/*
 * lines.c: lines of UTF-8 bytes: the checked line scan that lines_metrics.c reads files by
 * (strict UTF-8, only \n ends a line) and skip_lines (the same lines, neither checked nor
 * decoded).
 * Python twins: mtcompute.streaming.split_lines (the scan's rules) and skip_lines' pure path.
 */
#include "common.h"

/* ------------------------------------------------------------------------------------ */
/* Lines of a UTF-8 file (mtcompute.cli._common's segment files)                          */
/* ------------------------------------------------------------------------------------ */

/*
 * The scan cuts bytes into lines exactly as bytes.decode("utf-8") followed by
 * str.split("\n") does: only \n ends a line (\r, U+2028 and the rest stay in it), a
 * byte order mark is the code point U+FEFF, and the input must be strict UTF-8 (no
 * overlong forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF, no truncated
 * sequence).  The scan needs no Python calls, so its callers run it without the GIL.
 * (A split_lines export that built the str objects here was removed: it was under 2x
 * faster than bytes.decode and str.split, which are C already.)
 */

/* The valid UTF-8 sequence at p (p < end): its length in bytes, its code point in *cp;
 * 0 when the bytes there are not strict UTF-8 (RFC 3629's table, which CPython's
 * strict decoder follows). */
int
mtk_utf8_seq(const unsigned char *p, const unsigned char *end, u32 *cp)
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
        if (room < 4 || p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
            return 0;
        *cp = ((u32)(c & 0x07) << 18) | ((u32)(p[1] & 0x3F) << 12) | ((u32)(p[2] & 0x3F) << 6) |
              (p[3] & 0x3F);
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
int
mtk_measure_line(const unsigned char *p, LineSpan *line)
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
        int k = mtk_utf8_seq(q, end, &cp);
        if (!k) return 0;
        if (cp > maxchar) maxchar = cp;
        q += k;
        length++;
    }
    line->length = length;
    line->maxchar = maxchar; /* >= 0x80: a byte >= 0x80 starts a code point >= U+0080 */
    return 1;
}

/*
 * The lines of a file as lines_metrics.c reads them, without Python calls: up to `count`
 * lines from data[start..size) into *spans (grown as needed; *n of them).  A line is the
 * bytes up to the next \n, or with `final` the bytes after the last \n when there are any.
 * Stops before the first line that is not UTF-8 (*bad gets its start) or an unfinished line
 * (not final).  *stop gets the offset after the last line taken.  -1 on memory failure.
 */
int
mtk_scan_lines(const unsigned char *data, size_t size, size_t start, size_t count, int final,
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
        if (!mtk_measure_line(data + at, line)) {
            *bad = (Py_ssize_t)at;
            break;
        }
        (*n)++;
        at += bytes + (nl != NULL);
    }
    *stop = at;
    return 0;
}

/* skip_lines' search, without Python calls */
static size_t
skip_scan(const unsigned char *data, size_t size, size_t at, size_t count, int final, size_t *found)
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

KERNEL_FUNCTION(skip_lines, args, "skip_lines(data, start, count, final, /)",
                "The lines split_lines(data, start, count, final) takes, unchecked: (stop, found).")
{
    Py_buffer view;
    Py_ssize_t start, count;
    int final;
    if (!PyArg_ParseTuple(args, "y*nnp:skip_lines", &view, &start, &count, &final)) return NULL;
    size_t size = (size_t)view.len, found = 0, stop;
    if (start < 0 || (size_t)start > size || count < 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "start or count out of range");
        return NULL;
    }
    if (size - (size_t)start >= NOGIL_WORK) {
        Py_BEGIN_ALLOW_THREADS stop =
            skip_scan(view.buf, size, (size_t)start, (size_t)count, final, &found);
        Py_END_ALLOW_THREADS
    } else {
        stop = skip_scan(view.buf, size, (size_t)start, (size_t)count, final, &found);
    }
    PyBuffer_Release(&view);
    return Py_BuildValue("(nn)", (Py_ssize_t)stop, (Py_ssize_t)found);
}

PyMethodDef mtk_lines_methods[] = {
    KERNEL_METHOD(skip_lines, METH_VARARGS),
    KERNEL_METHODS_END,
};
