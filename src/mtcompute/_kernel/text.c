/*
 * text.c: text checks: lone surrogates (first_lone_surrogate), the batch input's shape
 * (plain_texts), texts wider than one byte a code point (wide_texts), and the str.lower table
 * of the code points under U+0100 that ter.c folds with.
 * Python twins: the pure paths of mtcompute.counting.first_lone_surrogate and plain_texts,
 * and str.lower.
 */
#include "common.h"

/* Index of the first code point in U+D800..U+DFFF, or -1. */
Py_ssize_t
mtk_first_surrogate(PyObject *s)
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
/* Odds and ends                                                                          */
/* ------------------------------------------------------------------------------------ */

KERNEL_FUNCTION(
    first_lone_surrogate, arg, "first_lone_surrogate(texts, /)",
    "(index of the first text holding a code point U+D800..U+DFFF, its position), or None.")
{
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
        Py_ssize_t at = mtk_first_surrogate(items[i]);
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

KERNEL_FUNCTION(plain_texts, args, "plain_texts(hypotheses, references, /)",
                "Whether the texts are an input the batch functions' checks all pass.")
{
    PyObject *hyps, *refs;
    if (!PyArg_ParseTuple(args, "OO:plain_texts", &hyps, &refs)) return NULL;
    if (!PyList_CheckExact(hyps) || !PyList_CheckExact(refs) || PyList_GET_SIZE(hyps) == 0 ||
        PyList_GET_SIZE(hyps) != PyList_GET_SIZE(refs))
        Py_RETURN_FALSE;
    Py_ssize_t n = PyList_GET_SIZE(hyps);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyList_GET_ITEM(hyps, i);
        if (!PyUnicode_CheckExact(s) || ready(s) < 0 || mtk_first_surrogate(s) >= 0)
            Py_RETURN_FALSE;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *segment = PyList_GET_ITEM(refs, i);
        if (!PyList_CheckExact(segment) || PyList_GET_SIZE(segment) == 0) Py_RETURN_FALSE;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(segment); j++) {
            PyObject *s = PyList_GET_ITEM(segment, j);
            if (!PyUnicode_CheckExact(s) || ready(s) < 0 || mtk_first_surrogate(s) >= 0)
                Py_RETURN_FALSE;
        }
    }
    Py_RETURN_TRUE;
}

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

KERNEL_FUNCTION(wide_texts, args, "wide_texts(hypotheses, references, /)",
                "Where the texts with a code point of U+0100 or more are.")
{
    PyObject *hyps, *refs, *hw = NULL, *rw = NULL, *x;
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

/*
 * str.lower of each code point under U+0100, filled at import from the running Python's
 * own str.lower (mtk_lower1_ok stays 0 if some result were not one such code point, or changed
 * whether it is whitespace; neither happens).  For a text whose code points are all under
 * U+0100 (PEP 393's one-byte kind) str.lower is this table applied code point by code
 * point: the one rule of str.lower with context (final sigma) concerns U+03A3.  Folding
 * the code points under U+0100 of a text that str.lower has lowered already changes
 * nothing (its output lowers to itself), so ter_statistics_text's `lower` may fold every
 * text and leave only the wider ones to Python.
 */
Py_UCS4 mtk_lower1[256];
int mtk_lower1_ok = 0;

/* Fill mtk_lower1 from str.lower (see there); -1 on a Python error. */
int
mtk_lower1_init(void)
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
            mtk_lower1[c] = PyUnicode_READ_CHAR(lo, 0);
        Py_DECREF(lo);
    }
    mtk_lower1_ok = ok;
    return 0;
}

PyMethodDef mtk_text_methods[] = {
    KERNEL_METHOD(first_lone_surrogate, METH_O),
    KERNEL_METHOD(plain_texts, METH_VARARGS),
    KERNEL_METHOD(wide_texts, METH_VARARGS),
    KERNEL_METHODS_END,
};
