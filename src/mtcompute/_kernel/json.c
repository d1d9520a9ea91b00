/*
 * json.c: JSON text as JSON.stringify writes it, for values of exact JSON types: js_dumps.
 * Python twin: mtcompute.core.jsjson.dumps.
 */
#include "common.h"

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
    if (pymem_resize((void **)&b->data, (size_t)capacity, 1) < 0) return -1;
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
    if (mtk_first_surrogate(text) >= 0) return 0; /* escaped by the pure writer */
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
        case '"':
            *out++ = '"';
            break;
        case '\\':
            *out++ = '\\';
            break;
        case '\b':
            *out++ = 'b';
            break;
        case '\f':
            *out++ = 'f';
            break;
        case '\n':
            *out++ = 'n';
            break;
        case '\r':
            *out++ = 'r';
            break;
        case '\t':
            *out++ = 't';
            break;
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
        if (*p == '.')
            point = k;
        else if (k < 31)
            digits[k++] = *p;
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
            if (i > 0 && jsb_write(b, ",", 1) < 0)
                status = -1;
            else
                status = js_write(b, PySequence_Fast_GET_ITEM(seq, i), depth + 1);
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

KERNEL_FUNCTION(js_dumps, value, "js_dumps(value, /)",
                "mtcompute.core.jsjson.dumps(value) as UTF-8 bytes, or None.")
{
    JsBuffer b = {NULL, 0, 0};
    int status = js_write(&b, value, 0);
    PyObject *res = NULL;
    if (status == 1)
        res = PyBytes_FromStringAndSize(b.data, b.size);
    else if (status == 0) {
        res = Py_None;
        Py_INCREF(res);
    }
    PyMem_Free(b.data);
    return res;
}

PyMethodDef mtk_json_methods[] = {
    KERNEL_METHOD(js_dumps, METH_O),
    KERNEL_METHODS_END,
};
