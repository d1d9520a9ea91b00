/*
 * module.c: the module mtcompute._kernel: PyInit__kernel creates it, adds MAX_ORDER and MAX_BETA,
 * fills the str.lower table (text.c) and registers the method table of every concern file.
 * Python side: mtcompute.native imports it and decides once whether it is used.
 */
#include "common.h"

/* The method tables of the concern files, registered in this order. */
static PyMethodDef *const tables[] = {
    mtk_chrf_methods,          /* chrf.c */
    mtk_chrf_pairwise_methods, /* chrf_pairwise.c */
    mtk_bleu_methods,          /* bleu.c */
    mtk_tok13a_methods,        /* tok13a.c */
    mtk_sacre_chrf_methods,    /* sacre_chrf.c */
    mtk_ter_methods,           /* ter.c */
    mtk_text_methods,          /* text.c */
    mtk_lines_methods,         /* lines.c */
    mtk_lines_metrics_methods, /* lines_metrics.c */
    mtk_json_methods,          /* json.c */
    mtk_resample_methods,      /* resample.c */
};

PyDoc_STRVAR(
    module_doc,
    "The C speed layer of mtcompute: chrF (Popovic 2015) and BLEU (Papineni et al. 2002)\n"
    "sufficient statistics and exact sentence chrF, identical to the pure Python core, and\n"
    "sacreBLEU 2.6.0's 13a tokenizer and chrF/chrF++ statistics.\n"
    "Use it through mtcompute.counting.");

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "mtcompute._kernel", module_doc, -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__kernel(void)
{
    if (mtk_lower1_init() < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_ORDER", MAX_ORDER) < 0 ||
        PyModule_AddIntConstant(m, "MAX_BETA", MAX_BETA) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        if (PyModule_AddFunctions(m, tables[i]) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    return m;
}
