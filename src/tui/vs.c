/* vs.c — a second broadcast side by side (see vs.h). */
#include "vs.h"
#include "asynctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vs_close(App *a)
{
    if (!a->vs) return;
    asynctl_vs_free(a);
    app_bcast_free(a->vs);
    free(a->vs);
    a->vs = NULL;
    a->vs_label[0] = '\0';
}

int32_t vs_pos(const App *a)
{
    return a->vs ? sim_pos(a->vs->sim) : 0;
}

void vs_sync(App *a, int32_t pos)
{
    if (!a->vs || !a->vs->ready) return;
    int32_t n = sched_nsteps(a->vs->sched);
    if (sim_seek(a->vs->sim, pos < n ? pos : n)) a->vs->pos = sim_pos(a->vs->sim);
}

/* Build the second broadcast from the first one's words changed by `label`'s words. */
static bool build(App *a, const char *label)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s", label);
    SetupSpec ss = app_spec(a);
    const char *sets[32];
    size_t ns = 0;
    for (size_t i = 0; i < ss.nsets && ns < 16; i++) sets[ns++] = ss.sets[i];
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (strchr(w, '=')) {
            if (ns < 32) sets[ns++] = w;   /* later settings win (setup applies in order) */
        } else {
            ss.algo = w;
        }
    }
    ss.sets = sets;
    ss.nsets = ns;
    Bcast *nb = calloc(1, sizeof *nb);
    if (!nb) return false;
    char err[300] = "";
    if (!app_build_bcast(a, nb, &ss, a->b.pos, err, sizeof err)) {
        free(nb);
        if (a->cancelled) app_msg(a, false, "cancelled (Esc)");
        else app_msg(a, true, "vs %s: %s", label, err);
        return false;
    }
    vs_close(a);
    a->vs = nb;
    snprintf(a->vs_label, sizeof a->vs_label, "%s", label);
    vs_sync(a, a->b.pos);
    return true;
}

bool vs_command(App *a, const char *const *words, int n)
{
    if (n == 1 && strcmp(words[0], "off") == 0) {
        vs_close(a);
        app_msg(a, false, "one broadcast again");
        return true;
    }
    if (n < 1 || !a->b.ready) {
        app_msg(a, true, ":vs takes an algorithm and/or settings, e.g. :vs bst, :vs st nu=1, "
                "or :vs off");
        return false;
    }
    char label[96] = "";
    for (int i = 0; i < n; i++) {
        size_t l = strlen(label);
        snprintf(label + l, sizeof label - l, "%s%s", i ? " " : "", words[i]);
    }
    if (!build(a, label)) return false;
    app_msg(a, false, "side by side: %s | %s (:vs off to leave)", a->b.setup.def->name, label);
    return true;
}

void vs_follow(App *a)
{
    if (!a->vs || !a->b.ready) return;
    char label[96];
    snprintf(label, sizeof label, "%s", a->vs_label);
    char keep[sizeof a->msg];
    snprintf(keep, sizeof keep, "%s", a->msg);
    bool err = a->msg_error;
    if (!build(a, label)) {
        vs_close(a);
        return;
    }
    snprintf(a->msg, sizeof a->msg, "%s", keep);
    a->msg_error = err;
}
