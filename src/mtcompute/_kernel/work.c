/*
 * work.c: workspaces: the scratch tables of the counting functions (n-gram tables, token tables,
 * code point buffers), kept in a small pool and reused across calls.  Scratch memory only:
 * no Python twin.
 */
#include "common.h"

/* ------------------------------------------------------------------------------------ */
/* Workspaces                                                                            */
/* ------------------------------------------------------------------------------------ */

static Work *pool = NULL; /* idle workspaces; only touched with the GIL held */
static int pool_len = 0;

static void
work_free(Work *w)
{
    if (!w) return;
    FREE_EACH(free, w->ctab, w->btab, w->ttab, w->touched, w->cpa, w->cpb, w->sa, w->sb, w);
}

Work *
mtk_work_get(void)
{
    if (pool) {
        Work *w = pool;
        pool = w->next;
        pool_len--;
        return w;
    }
    return calloc(1, sizeof(Work));
}

void
mtk_work_put(Work *w)
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
int
mtk_grow_zeroed(void **p, size_t *have, size_t n, size_t size)
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
int
mtk_grow_plain(void **p, size_t *have, size_t n, size_t size)
{
    if (*have >= n) return 0;
    void *q = malloc(n * size);
    if (!q) return -1;
    free(*p);
    *p = q;
    *have = n;
    return 0;
}

/* Room for code points, position arrays and the per-order table of texts up to maxlen. */
int
mtk_work_chrf(Work *w, size_t maxlen)
{
    size_t slots = (size_t)1 << table_bits(maxlen ? maxlen : 1);
    if (mtk_grow_zeroed((void **)&w->ctab, &w->ctab_n, slots, sizeof(CEnt))) return -1;
    if (mtk_grow_plain((void **)&w->touched, &w->touched_n, maxlen + 1, sizeof(u32))) return -1;
    return mtk_work_positions(w, maxlen + 1);
}

/* cpa, cpb, sa and sb with room for cp entries each. */
int
mtk_work_positions(Work *w, size_t cp)
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
