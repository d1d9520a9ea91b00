/*
 * lines.c: lines of UTF-8 bytes as str objects: split_lines (strict UTF-8, only \n ends a line)
 * and skip_lines (the same lines, not decoded).
 * Python twins: mtcompute.cli._common's _split_lines_py and the pure path of skip_lines.
 */
#include "common.h"

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
            q += mtk_utf8_seq(q, end, &cp);
            d[i] = (Py_UCS1)cp;
        }
        break;
    case PyUnicode_2BYTE_KIND:
        for (Py_UCS2 *d = data; q < end; i++) {
            q += mtk_utf8_seq(q, end, &cp);
            d[i] = (Py_UCS2)cp;
        }
        break;
    default:
        for (Py_UCS4 *d = data; q < end; i++) {
            q += mtk_utf8_seq(q, end, &cp);
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

PyDoc_STRVAR(
    split_lines_doc,
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
    if (!PyArg_ParseTuple(args, "y*nnp:split_lines", &view, &start, &count, &final)) return NULL;
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
        Py_BEGIN_ALLOW_THREADS rc = mtk_scan_lines(data, size, (size_t)start, (size_t)count, final,
                                                   &spans, &n, &cap, &stop, &bad);
        Py_END_ALLOW_THREADS
    } else {
        rc = mtk_scan_lines(data, size, (size_t)start, (size_t)count, final, &spans, &n, &cap,
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
        Py_BEGIN_ALLOW_THREADS for (size_t i = 0; i < n; i++) if (spans[i].length)
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

PyDoc_STRVAR(
    skip_lines_doc,
    "skip_lines(data, start, count, final, /)\n--\n\n"
    "The lines split_lines(data, start, count, final) would take, without checking or\n"
    "decoding them: (stop, found), stop the offset after the last line taken and found their\n"
    "number (only lines ended by \\n, and with final also the bytes after the last \\n).\n"
    "The GIL is released while the newlines are looked for.");

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

static PyObject *
py_skip_lines(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t start, count;
    int final;
    (void)self;
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
    {"split_lines", py_split_lines, METH_VARARGS, split_lines_doc},
    {"skip_lines", py_skip_lines, METH_VARARGS, skip_lines_doc},
    {NULL, NULL, 0, NULL},
};
