/* lesson-try.c — checking a "now you try" task (see lesson-try.h). */
#include "lesson-try.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "../engine/num.h"

/* The current value of setting `key` (a cost parameter or one of the algorithm's); false if
 * there is no such setting here. */
static bool setting(const Setup *s, const char *key, double *v)
{
    if (cost_is_param(key)) {
        *v = cost_param_get(&s->cost, key);
        return true;
    }
    for (int i = 0; i < s->def->nparams && i < ALGO_MAXPARAM; i++)
        if (strcmp(s->def->params[i].name, key) == 0) {
            *v = s->args.param[i];
            return true;
        }
    return false;
}

bool lesson_try_met(const LessonTry *w, const Setup *s, int32_t pos, int32_t cursor, char *why,
                    size_t len)
{
    char buf[48];
    if (w->net) {
        char err[200];
        Net *n = net_parse(w->net, err, sizeof err);
        bool same = n && strcmp(net_spec(n), net_spec(s->net)) == 0;
        if (n) net_free(n);
        if (!same) {
            snprintf(why, len, "the net is %s, not the one asked for", net_spec(s->net));
            return false;
        }
    }
    if (w->algo && strcmp(w->algo, s->def->name) != 0) {
        snprintf(why, len, "the algorithm is %s, not the one asked for", s->def->name);
        return false;
    }
    if (w->model) {
        CostModel m;
        if (!cost_model_parse(w->model, &m) || m != s->cost.model) {
            snprintf(why, len, "the model is %s, not the one asked for",
                     cost_model_name(s->cost.model));
            return false;
        }
    }
    if (w->source >= 0 && w->source != s->args.source) {
        snprintf(why, len, "the source is %s, not the one asked for",
                 net_node_name(s->net, s->args.source, buf, sizeof buf));
        return false;
    }
    if (w->bytes && w->bytes != s->args.bytes) {
        snprintf(why, len, "the message is %llu bytes, not the size asked for",
                 (unsigned long long)s->args.bytes);
        return false;
    }
    for (size_t i = 0; i < w->nset; i++) {
        const char *eq = strchr(w->set[i], '=');
        char key[64];
        snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - w->set[i]) : 0, w->set[i]);
        double v, want = NAN;
        if (eq && num_real(eq + 1, &want) != NUM_OK)   /* num.h's one rule */
            want = NAN;
        if (!eq || !setting(s, key, &v) || v != want) {
            if (eq && setting(s, key, &v))
                snprintf(why, len, "%s is %g, not the value asked for", key, v);
            else
                snprintf(why, len, "%s is not a setting of this broadcast", key);
            return false;
        }
    }
    if (w->step >= 0 && w->step != pos) {
        snprintf(why, len, "step %ld is not the step asked for", (long)pos);
        return false;
    }
    if (w->node >= 0 && w->node != cursor) {
        snprintf(why, len, "the cursor is not on the node asked for");
        return false;
    }
    if (len) why[0] = '\0';
    return true;
}
