/* app-panels.c — what the side panels read from the App, computed on demand and cached: the
 * narration line of the position shown (per broadcast and position; on the time line, its
 * moment) and the node inspector's history of the cursor node.  See app.h (app_narration,
 * app_node_history). */
#include "app-core.h"

#include <stdlib.h>
#include <string.h>

#include "asynctl.h"
#include "narrate.h"

/* ---- narration ------------------------------------------------------------------------ */

const char *app_narration(App *a)
{
    if (!a->b.ready) return "";
    if (app_quiz_hides(a)) return "(the narration comes back once the lesson's question is answered)";
    if (app_async_view(a)) {   /* the time line: its moment, cheap enough for every frame */
        narrate_moment(app_async_view(a), cost_unit(sim_params(a->b.sim)->model), a->narr,
                       sizeof a->narr);
        a->narr_gen = -1;
        return a->narr;
    }
    if (a->narr_gen != a->b.gen || a->narr_pos != a->b.pos) {
        narrate_step(a->b.sim, a->b.pos, a->ascii, a->narr, sizeof a->narr);
        a->narr_gen = a->b.gen;
        a->narr_pos = a->b.pos;
    }
    return a->narr;
}

/* ---- the node inspector --------------------------------------------------------------- */

void app_node_history_free(App *a)
{
    free(a->hist_node.held); free(a->hist_node.nsent); free(a->hist_node.nrecv);
    free(a->hist_node.to); free(a->hist_node.from);
    memset(&a->hist_node, 0, sizeof a->hist_node);
    a->hist_node.gen = -1;
}

bool app_node_history(App *a)
{
    if (!a->b.ready) return false;
    if (a->hist_node.gen == a->b.gen && a->hist_node.node == a->cursor) return a->hist_node.ok;
    app_node_history_free(a);
    a->hist_node.gen = a->b.gen;
    a->hist_node.node = a->cursor;
    Sched *s = a->b.sched;
    int32_t n = sched_nsteps(s);
    if (sched_total_transfers(s) > 2000000 || n > 100000 || a->b.nsim < n) return false;
    a->hist_node.nsteps = n;
    a->hist_node.held = calloc((size_t)n + 1, sizeof *a->hist_node.held);
    a->hist_node.nsent = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.nrecv = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.to = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.from = calloc((size_t)n + 1, sizeof(int32_t));
    if (!a->hist_node.held || !a->hist_node.nsent || !a->hist_node.nrecv || !a->hist_node.to ||
        !a->hist_node.from)
        return false;
    int32_t node = a->cursor, pos = a->b.pos;
    for (int32_t p = 0; p <= n; p++) {
        if (!sim_seek(a->b.sim, p)) break;
        a->hist_node.held[p] = sim_held(a->b.sim, node);
    }
    sim_seek(a->b.sim, pos);
    for (int32_t st = 0; st < n; st++) {
        a->hist_node.to[st] = a->hist_node.from[st] = -1;
        int64_t nt = sched_ntransfers(s, st);
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            if (t.src == node) {
                if (a->hist_node.nsent[st]++ == 0) a->hist_node.to[st] = t.dst;
            }
            if (t.dst == node) {
                if (a->hist_node.nrecv[st]++ == 0) a->hist_node.from[st] = t.src;
            }
        }
    }
    a->hist_node.ok = true;
    return true;
}
