/* app-spec.c — changing what the App shows by its words: a whole new spec (app_set_spec, the
 * lesson's), one word (app_change: :net, :algo, :bytes ...), K=V settings (app_sets), the
 * script's reload when its file changes; each builds the new broadcast first and keeps the
 * old one (with a message) when it does not build.  See app.h. */
#include "app-core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../script/profile.h"
#include "vs.h"

/* Replace the broadcast by one built from spec (taken over on success). */
bool app_take_spec(App *a, BSpec *spec, int32_t keep_pos)
{
    char err[300] = "";
    Bcast nb;
    if (!app_build(a, &nb, spec, keep_pos, err, sizeof err, true)) {
        if (a->cancelled) app_msg(a, false, "cancelled (Esc): still showing what was shown");
        else app_msg(a, true, "%s", err[0] ? err : "cannot build this broadcast");
        return false;
    }
    bool same_net = a->b.ready && strcmp(net_spec(a->b.setup.net), net_spec(nb.setup.net)) == 0;
    app_bcast_free(&a->b);
    a->b = nb;   /* with its own generation (app_build) */
    a->b.pos = sim_pos(a->b.sim);
    if (!same_net) {
        a->cursor = nb.setup.args.source;
        a->sel_link = -1;
        a->view_r0 = a->view_c0 = 0;
        a->zoom_auto = true;
    }
    if (a->cursor >= net_size(a->b.setup.net)) a->cursor = 0;
    app_vs_follow(a);
    app_goto(a, keep_pos);
    a->playing = false;
    return true;
}

bool app_check_spec(const SetupSpec *spec, char *err, size_t errlen)
{
    Setup st;
    if (!setup_make(spec, &st, err, errlen)) return false;
    bool ok = algo_check(st.def, st.net, &st.args, err, errlen);
    setup_free(&st);
    return ok;
}

bool app_set_spec(App *a, const SetupSpec *spec)
{
    BSpec s;
    if (!app_bspec_from(&s, spec)) {
        app_bspec_free(&s);
        app_msg(a, true, "out of memory");
        return false;
    }
    bool ok = app_take_spec(a, &s, 0);
    app_bspec_free(&s);
    return ok;
}

bool app_rebuild(App *a)
{
    BSpec s;
    SetupSpec ss = app_bspec_setup(&a->b.spec);
    if (!app_bspec_from(&s, &ss)) {
        app_bspec_free(&s);
        return false;
    }
    bool ok = app_take_spec(a, &s, app_pos(a));
    app_bspec_free(&s);
    return ok;
}

bool app_check_reload(App *a)
{
    if (!app_is_script(a->b.spec.algo)) return false;
    time_t sec;
    long ns;
    app_script_stamp(a->b.spec.algo, &sec, &ns);
    if (sec == 0 || (sec == a->b.script_mtime && ns == a->b.script_mtime_ns))
        return false;
    a->b.script_mtime = sec;
    a->b.script_mtime_ns = ns;
    if (app_rebuild(a))
        app_msg(a, false, "reloaded %s (step %ld kept)", a->b.spec.algo, (long)a->b.pos);
    return true;
}

/* Change one word of the spec and rebuild.  field: "net", "algo", ... */
bool app_change(App *a, const char *field, const char *value)
{
    BSpec s;
    SetupSpec ss = app_bspec_setup(&a->b.spec);
    if (!app_bspec_from(&s, &ss)) { app_bspec_free(&s); return false; }
    char **slot = strcmp(field, "net") == 0 ? &s.net : strcmp(field, "algo") == 0 ? &s.algo
                : strcmp(field, "source") == 0 ? &s.source : strcmp(field, "bytes") == 0 ? &s.bytes
                : strcmp(field, "model") == 0 ? &s.model : strcmp(field, "sources") == 0
                ? &s.sources : strcmp(field, "op") == 0 ? &s.op
                : strcmp(field, "profile") == 0 ? &s.profile : &s.fit;
    free(*slot);
    /* ":profile off": back to the built-in constants */
    *slot = strcmp(field, "profile") == 0 && strcmp(value, "off") == 0 ? NULL : app_dupz(value);
    /* one source or many: the other goes (":sources off" back to one source) */
    if (strcmp(field, "source") == 0) { free(s.sources); s.sources = NULL; }
    if (strcmp(field, "sources") == 0) {
        free(s.source); s.source = NULL;
        if (strcmp(value, "off") == 0) { free(s.sources); s.sources = NULL; }
    }
    int32_t keep = strcmp(field, "net") == 0 || strcmp(field, "algo") == 0 ? 0 : app_pos(a);
    char first[320];
    bool ok = app_take_spec(a, &s, keep);
    if (!ok && strcmp(field, "net") == 0 && !a->cancelled) {
        snprintf(first, sizeof first, "%s", a->msg);
        /* the source may not exist on the new net: retry from node 0 */
        if (s.source || s.sources) {
            free(s.source);
            s.source = NULL;
            free(s.sources);
            s.sources = NULL;
            ok = app_take_spec(a, &s, 0);
            if (ok) app_msg(a, false, "net %s (source reset to node 0)", value);
        }
        /* the algorithm may not run on this kind of net: show the first that does */
        char err[160];
        Net *probe = ok ? NULL : net_parse(value, err, sizeof err);
        char algo[64];
        snprintf(algo, sizeof algo, "%s", s.algo ? s.algo : "st");
        if (probe && !algo_find(algo, probe)) {
            for (size_t i = 0; i < algo_count() && !ok; i++) {
                const AlgoDef *d = algo_at(i);
                if (!(d->nets & (1u << net_kind(probe)))) continue;
                free(s.algo);
                s.algo = strdup(d->name);
                ok = app_take_spec(a, &s, 0);
                if (ok) app_msg(a, false, "net %s: %s does not run there, showing %s", value,
                                algo, d->name);
            }
        }
        if (probe) net_free(probe);
        if (!ok) app_msg(a, true, "%s", first);
    } else if (ok && strcmp(field, "profile") == 0 && strcmp(value, "off") != 0) {
        char perr[200];
        Profile *pr = profile_load(value, perr, sizeof perr);
        app_msg(a, false, "profile %s: %s", value, pr ? profile_about(pr) : perr);
        profile_free(pr);
    } else if (ok && strcmp(field, "profile") == 0) {
        app_msg(a, false, "profile off: the built-in constants");
    } else if (ok) {
        app_msg(a, false, "%s %s", field, value);
    }
    app_bspec_free(&s);
    return ok;
}

/* Add or replace K=V settings. */
bool app_sets(App *a, char **kv, size_t n)
{
    BSpec s;
    SetupSpec ss = app_bspec_setup(&a->b.spec);
    if (!app_bspec_from(&s, &ss)) { app_bspec_free(&s); return false; }
    char **grown = realloc(s.sets, (s.nsets + n + 1) * sizeof *grown);
    if (!grown) { app_bspec_free(&s); return false; }
    s.sets = grown;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        size_t kl = eq ? (size_t)(eq - kv[i]) : strlen(kv[i]);
        size_t j;
        for (j = 0; j < s.nsets; j++)
            if (strncmp(s.sets[j], kv[i], kl) == 0 && s.sets[j][kl] == '=')
                break;
        if (j < s.nsets) {
            free(s.sets[j]);
            s.sets[j] = strdup(kv[i]);
        } else {
            s.sets[s.nsets++] = strdup(kv[i]);
        }
    }
    bool ok = app_take_spec(a, &s, app_pos(a));
    if (ok) {
        char buf[200] = "";
        for (size_t i = 0; i < n; i++) {
            size_t l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, "%s%s", i ? " " : "", kv[i]);
        }
        app_msg(a, false, "set %s", buf);
    }
    app_bspec_free(&s);
    return ok;
}
