/* params.c — the settings of a broadcast in words (see params.h). */
#include "params.h"

#include <stdio.h>
#include <string.h>

static void add(char *out, size_t len, const char *name, double v)
{
    size_t n = strlen(out);
    if (n < len) snprintf(out + n, len - n, "%s%s=%g", n ? " " : "", name, v);
}

void params_text(const Setup *s, const char *fit, char *out, size_t len)
{
    if (!len) return;
    out[0] = '\0';
    CostParams def;
    cost_defaults(&def, s->cost.model);
    /* nu always under Seidel's model (it decides what contention costs), then every
     * parameter of any model that is not at its default, each name once */
    const char *done[32];
    size_t ndone = 0;
    if (s->cost.model == COST_SEIDEL) {
        add(out, len, "nu", s->cost.nu);
        done[ndone++] = "nu";
    }
    for (int m = 0; m < COST_NMODELS; m++)
        for (const char *const *nm = cost_param_names((CostModel)m); *nm; nm++) {
            bool seen = false;
            for (size_t i = 0; i < ndone; i++) seen = seen || strcmp(done[i], *nm) == 0;
            if (seen || ndone >= sizeof done / sizeof *done) continue;
            done[ndone++] = *nm;
            double v = cost_param_get(&s->cost, *nm);
            if (v != cost_param_get(&def, *nm)) add(out, len, *nm, v);
        }
    for (int i = 0; i < s->def->nparams && i < ALGO_MAXPARAM; i++)
        if (s->args.param[i] != s->def->params[i].def)
            add(out, len, s->def->params[i].name, s->args.param[i]);
    if (fit && *fit) {
        size_t n = strlen(out);
        if (n < len) snprintf(out + n, len - n, "%sfit=%s", n ? " " : "", fit);
    }
}
