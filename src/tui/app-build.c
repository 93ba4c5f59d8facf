/* app-build.c — the App's broadcast: its words (BSpec), building it (on a worker while the
 * wait hook draws the progress), a big one's rest simulated meanwhile (app_poll takes it in,
 * app_need_steps waits for it), and freeing it.  See app.h (app_set_spec, app_poll,
 * app_need_steps, app_build_bcast) and app-core.h (what the other app*.c files use). */
#include "app-core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../algos/algo.h"
#include "../algos/sanders/autotune.h"
#include "../engine/partials.h"
#include "measured.h"

/* ---- the broadcast ------------------------------------------------------------------- */

char *app_dupz(const char *s) { return s ? strdup(s) : NULL; }

void app_bspec_free(BSpec *s)
{
    free(s->net); free(s->algo); free(s->source); free(s->bytes); free(s->model); free(s->fit);
    free(s->sources); free(s->op); free(s->profile);
    for (size_t i = 0; i < s->nsets; i++) free(s->sets[i]);
    free(s->sets);
    memset(s, 0, sizeof *s);
}

bool app_bspec_from(BSpec *d, const SetupSpec *s)
{
    memset(d, 0, sizeof *d);
    d->net = app_dupz(s->net); d->algo = app_dupz(s->algo); d->source = app_dupz(s->source);
    d->bytes = app_dupz(s->bytes); d->model = app_dupz(s->model); d->fit = app_dupz(s->fit);
    d->sources = app_dupz(s->sources); d->op = app_dupz(s->op); d->profile = app_dupz(s->profile);
    if (s->nsets) {
        d->sets = calloc(s->nsets, sizeof *d->sets);
        if (!d->sets) return false;
        for (size_t i = 0; i < s->nsets; i++)
            d->sets[d->nsets++] = strdup(s->sets[i]);
    }
    return true;
}

SetupSpec app_bspec_setup(const BSpec *s)
{
    SetupSpec ss = {s->net, s->algo, s->source, s->bytes, s->model, s->fit,
                    (const char *const *)s->sets, s->nsets, s->sources, s->op, s->profile, NULL};
    return ss;
}

static bool str_same(const char *x, const char *y)
{
    return x == y || (x && y && strcmp(x, y) == 0);
}

/* The same words, settings in the same order. */
bool app_bspec_same(const BSpec *x, const BSpec *y)
{
    if (!str_same(x->net, y->net) || !str_same(x->algo, y->algo) ||
        !str_same(x->source, y->source) || !str_same(x->bytes, y->bytes) ||
        !str_same(x->model, y->model) || !str_same(x->fit, y->fit) || x->nsets != y->nsets ||
        !str_same(x->sources, y->sources) || !str_same(x->op, y->op) ||
        !str_same(x->profile, y->profile))
        return false;
    for (size_t i = 0; i < x->nsets; i++)
        if (!str_same(x->sets[i], y->sets[i])) return false;
    return true;
}

static void rest_free(BcastRest *r)
{
    if (!r) return;
    if (r->job) {
        job_cancel(r->job);
        job_join(r->job);
    }
    if (r->sim) sim_free(r->sim);
    free(r);
}

static void bcast_free(Bcast *b)
{
    rest_free(b->rest);
    reduce_free(b->reduce);
    partials_free(b->partials);
    if (b->sim) sim_free(b->sim);
    if (b->sched) sched_free(b->sched);
    if (b->ready) setup_free(&b->setup);
    app_bspec_free(&b->spec);
    long gen = b->gen;
    memset(b, 0, sizeof *b);
    b->gen = gen;
}

bool app_is_script(const char *algo)
{
    size_t n = algo ? strlen(algo) : 0;
    return n > 4 && strcmp(algo + n - 4, ".lua") == 0;
}

void app_script_stamp(const char *path, time_t *sec, long *nsec)
{
    struct stat st;
    *sec = 0;
    *nsec = 0;
    if (path && app_is_script(path) && stat(path, &st) == 0) {
        *sec = st.st_mtim.tv_sec;
        *nsec = st.st_mtim.tv_nsec;
    }
}

int64_t app_split_min = APP_LONG_SEEK_TRANSFERS, app_prefix_transfers = 262144;

/* How many first steps to show while the rest is simulated: -1 for none (a small broadcast,
 * or one shown from a later position). */
static int32_t prefix_steps(const Sched *s, int32_t pos)
{
    int32_t n = sched_nsteps(s), m = 0;
    if (sched_total_transfers(s) < app_split_min) return -1;
    int64_t sum = 0;
    while (m < n && (m == 0 || sum + sched_ntransfers(s, m) <= app_prefix_transfers))
        sum += sched_ntransfers(s, m++);
    return m >= n || pos > m ? -1 : m;
}

/* Build everything for spec into nb (which takes spec over on success).  With `rest`, a big
 * broadcast gets only its first steps simulated (nb->nsim < its steps). */
static bool bcast_build(Bcast *nb, BSpec *spec, int32_t pos, char *err, size_t errlen,
                        bool rest)
{
    memset(nb, 0, sizeof *nb);
    SetupSpec ss = app_bspec_setup(spec);
    app_script_stamp(spec->algo, &nb->script_mtime, &nb->script_mtime_ns);
    if (!setup_make(&ss, &nb->setup, err, errlen))
        return false;
    progress_report(PROGRESS_BUILD, 0, -1);
    nb->sched = algo_build(nb->setup.def, nb->setup.net, &nb->setup.args, err, errlen);
    if (!nb->sched) {
        setup_free(&nb->setup);
        return false;
    }
    if (nb->setup.reduce) {   /* --op reduce: the broadcast run backwards */
        Sched *rs = reduce_reverse(nb->sched, NULL, err, errlen);
        sched_free(nb->sched);
        nb->sched = rs;
        if (!rs) {
            setup_free(&nb->setup);
            return false;
        }
    }
    int32_t m = rest ? prefix_steps(nb->sched, pos) : -1;
    nb->sim = m >= 0 ? sim_run_prefix(nb->sched, &nb->setup.cost, SIM_HISTORY, m, err, errlen)
                     : sim_run(nb->sched, &nb->setup.cost, SIM_HISTORY, err, errlen);
    nb->nsim = m >= 0 ? m : sched_nsteps(nb->sched);
    if (!nb->sim) {
        sched_free(nb->sched);
        setup_free(&nb->setup);
        nb->sched = NULL;
        return false;
    }
    /* a reduction (the script's own, op = "reduce", or --op reduce): whose contributions
     * reach the root, and every node's partials to show */
    if ((nb->setup.def->flags & ALGO_REDUCE) || nb->setup.reduce) {
        nb->partials = partials_new(nb->sched, NULL, 0);   /* NULL: too big to show */
        nb->reduce = reduce_run(nb->sched, nb->setup.args.source, nb->setup.cost.gamma, err,
                                errlen);
        if (!nb->reduce) {
            partials_free(nb->partials);
            nb->partials = NULL;
            sim_free(nb->sim);
            sched_free(nb->sched);
            setup_free(&nb->setup);
            nb->sim = NULL;
            nb->sched = NULL;
            return false;
        }
    }
    /* the position wanted, here on the worker: a seek across big steps takes a while */
    progress_report(PROGRESS_SEEK, 0, 1);
    if (pos >= 0 && pos < nb->nsim) sim_seek(nb->sim, pos);
    nb->has_predicted = algo_predict(nb->setup.def, nb->setup.net, &nb->setup.args,
                                     &nb->setup.cost, &nb->predicted) &&
                        (!nb->setup.reduce ||
                         reduce_prediction_holds(nb->setup.net, nb->setup.cost.model));
    /* s=auto, r=auto: the paper's formulas run; say what a search of the cost finds */
    if (!sanders_autotune(nb->setup.def, nb->setup.net, &nb->setup.args, nb->auto_note,
                          sizeof nb->auto_note))
        nb->auto_note[0] = '\0';
    nb->ready = true;
    nb->spec = *spec;
    memset(spec, 0, sizeof *spec);
    return true;
}


/* bcast_build on a worker thread when the loop has a wait hook (job.h). */
typedef struct {
    Bcast *nb;
    BSpec *spec;
    int32_t pos;
    char *err;
    size_t errlen;
    bool ok;
    BcastRest *rest;           /* NULL: simulate the whole before handing over */
} BuildJob;

/* With j->rest: once the first steps are in nb, say so (j, on the UI thread's stack, is then
 * gone) and simulate the whole into rest. */
static void build_job(void *v)
{
    BuildJob *j = v;
    BcastRest *r = j->rest;
    bool ok = bcast_build(j->nb, j->spec, j->pos, j->err, j->errlen, r != NULL);
    if (!ok || !r || j->nb->nsim == sched_nsteps(j->nb->sched)) {
        j->ok = ok;
        return;
    }
    r->sched = j->nb->sched;
    r->cost = j->nb->setup.cost;
    atomic_store(&r->want, j->pos > 0 ? j->pos : 0);
    j->ok = true;
    atomic_store(&r->prefix_ready, true);
    r->sim = sim_run(r->sched, &r->cost, SIM_HISTORY, r->err, sizeof r->err);
    if (r->sim) sim_seek(r->sim, atomic_load(&r->want));
}


bool app_build_wait(const Progress *p, double elapsed, void *v)
{
    AppWaitCtx *w = v;
    return w->a->wait(w->a, w->what, p, elapsed, w->a->wait_ctx);
}

/* With a wait hook, on a worker; `progressive`: a big broadcast comes back with its first
 * steps while the rest is simulated (nb->rest). */
static bool build_on_worker(App *a, Bcast *nb, BSpec *spec, int32_t pos, char *err,
                            size_t errlen, bool progressive)
{
    a->cancelled = false;
    if (!a->wait) return bcast_build(nb, spec, pos, err, errlen, false);
    AppWaitCtx w = {a, ""};
    snprintf(w.what, sizeof w.what, "building %s on %s", spec->algo ? spec->algo : "st",
             spec->net ? spec->net : "mesh:8x8");
    BcastRest *r = progressive ? calloc(1, sizeof *r) : NULL;
    if (r) {
        atomic_init(&r->prefix_ready, false);
        atomic_init(&r->want, 0);
    }
    BuildJob j = {nb, spec, pos, err, errlen, false, r};
    Job *job = job_start(build_job, &j);
    if (!job) {
        free(r);
        return bcast_build(nb, spec, pos, err, errlen, false);
    }
    bool waited = job_wait(job, r ? &r->prefix_ready : NULL, app_build_wait, &w);
    bool split = r && atomic_load(&r->prefix_ready);
    if (!waited) {
        a->cancelled = true;
        job_cancel(job);
        job_join(job);
        if (r && r->sim) sim_free(r->sim);
        free(r);
        if (j.ok) bcast_free(nb);
        return false;
    }
    if (!split) {
        job_join(job);
        free(r);
        return j.ok;
    }
    r->job = job;      /* the rest goes on: app_poll takes it in */
    nb->rest = r;
    return true;
}

bool app_build(App *a, Bcast *nb, BSpec *spec, int32_t pos, char *err, size_t errlen,
               bool progressive)
{
    if (!build_on_worker(a, nb, spec, pos, err, errlen, progressive)) return false;
    /* a generation no other broadcast of this App has had: the first's and the second's
     * (vs.h) differ, so the views' caches (tileview, fulltree, asynctl) never take one for
     * the other */
    nb->gen = ++a->gen_last;
    return true;
}

/* Take the whole history in if the worker is done: 1 if it was, -1 if it failed (message in
 * err), 0 if it still runs or nothing does. */
static int bcast_settle(Bcast *b, char *err, size_t errlen)
{
    BcastRest *r = b->rest;
    if (!r || !job_finished(r->job)) return 0;
    job_join(r->job);
    r->job = NULL;
    b->rest = NULL;
    if (!r->sim) {
        snprintf(err, errlen, "simulating %s after step %ld: %s", net_spec(b->setup.net),
                 (long)b->nsim, r->err[0] ? r->err : "failed");
        free(r);
        return -1;
    }
    sim_seek(r->sim, b->pos);
    sim_free(b->sim);
    b->sim = r->sim;
    b->nsim = sched_nsteps(b->sched);
    free(r);
    return 1;
}

void app_poll(App *a)
{
    char err[400];
    if (bcast_settle(&a->b, err, sizeof err) < 0) app_msg(a, true, "%s", err);
    measured_poll(a);
}

bool app_rest_progress(const App *a, long long *done, long long *total)
{
    if (!a->b.rest) return false;
    const Progress *p = job_progress(a->b.rest->job);
    *done = atomic_load(&p->done);
    *total = atomic_load(&p->total);
    return true;
}

bool app_need_steps(App *a, int32_t pos)
{
    if (!a->b.ready) return false;
    if (pos <= a->b.nsim) return true;
    if (!a->b.rest) return false;
    AppWaitCtx w = {a, ""};
    snprintf(w.what, sizeof w.what, "simulating %s on %s (step %ld needs it)",
             a->b.setup.def->name, net_spec(a->b.setup.net), (long)pos);
    bool waited = job_wait(a->b.rest->job, NULL, a->wait ? app_build_wait : NULL, &w);
    app_poll(a);
    if (!waited && a->b.rest)
        app_msg(a, false, "stopped waiting (Esc): steps after %ld are still being simulated",
                (long)a->b.nsim);
    return pos <= a->b.nsim;
}

bool app_build_bcast(App *a, Bcast *out, const SetupSpec *spec, int32_t pos, char *err,
                     size_t errlen)
{
    BSpec s;
    if (!app_bspec_from(&s, spec)) {
        app_bspec_free(&s);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = app_build(a, out, &s, pos, err, errlen, false);
    app_bspec_free(&s);
    return ok;
}

void app_bcast_free(Bcast *b) { bcast_free(b); }

SetupSpec app_spec(const App *a) { return app_bspec_setup(&a->b.spec); }
