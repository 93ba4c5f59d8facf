/* test_tui_vs.c — side by side (vs.h) and the asynchronous time line (asynctl.h) through their
 * narrow interfaces, without an App: a host of our own builds the second broadcast straight
 * from the engine and records what vs asks of it; a time line is built from an AtlSrc.  What
 * is expected is derived here from the words given and the engine's schedule, not from
 * meshcast's output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim.h"
#include "../../src/script/setup.h"
#include "../../src/tui/asynctl.h"
#include "../../src/tui/vs.h"

/* ---- a host of our own ---------------------------------------------------------------- */

typedef struct {
    int builds, frees;
    char algo[64];             /* the words of the last build */
    char sets[8][64];
    size_t nsets;
    int32_t pos;
    bool fail, cancel;         /* the next builds fail (cancelled) */
    char msg[400];
    bool msg_error;
} Host;

static bool host_build(void *ctx, Bcast *out, const SetupSpec *spec, int32_t pos, char *err,
                       size_t errlen)
{
    Host *h = ctx;
    h->builds++;
    snprintf(h->algo, sizeof h->algo, "%s", spec->algo ? spec->algo : "(null)");
    h->nsets = spec->nsets < 8 ? spec->nsets : 8;
    for (size_t i = 0; i < h->nsets; i++) snprintf(h->sets[i], sizeof h->sets[i], "%s", spec->sets[i]);
    h->pos = pos;
    if (h->fail) {
        snprintf(err, errlen, "boom");
        return false;
    }
    memset(out, 0, sizeof *out);
    if (!setup_make(spec, &out->setup, err, errlen)) return false;
    out->sched = algo_build(out->setup.def, out->setup.net, &out->setup.args, err, errlen);
    assert_non_null(out->sched);
    out->sim = sim_run(out->sched, &out->setup.cost, SIM_HISTORY, err, errlen);
    assert_non_null(out->sim);
    out->nsim = sched_nsteps(out->sched);
    if (pos > 0) sim_seek(out->sim, pos);
    out->pos = sim_pos(out->sim);
    out->ready = true;
    return true;
}

static int nfreed;
static void host_bcast_free(Bcast *b)
{
    nfreed++;
    if (b->sim) sim_free(b->sim);
    if (b->sched) sched_free(b->sched);
    if (b->ready) setup_free(&b->setup);
    memset(b, 0, sizeof *b);
}

static void host_msg(void *ctx, bool error, const char *text)
{
    Host *h = ctx;
    snprintf(h->msg, sizeof h->msg, "%s", text);
    h->msg_error = error;
}

static bool host_cancelled(void *ctx) { return ((Host *)ctx)->cancel; }

/* The first broadcast: st on mesh:8x8 with nu=0, at position pos. */
static const char *const first_sets[] = {"nu=0"};
static VsHost host_of(Host *h, int32_t pos)
{
    VsHost v = {
        .ready = true, .pos = pos, .name = "st",
        .spec = {.net = "mesh:8x8", .algo = "st", .sets = first_sets, .nsets = 1},
        .ctx = h, .build = host_build, .bcast_free = host_bcast_free, .msg = host_msg,
        .cancelled = host_cancelled,
    };
    return v;
}

/* The steps of ALGO on mesh:8x8, from the engine. */
static int32_t steps_of(const char *algo)
{
    SetupSpec s = {.net = "mesh:8x8", .algo = algo};
    Setup st;
    char err[200];
    assert_true(setup_make(&s, &st, err, sizeof err));
    Sched *sc = algo_build(st.def, st.net, &st.args, err, sizeof err);
    assert_non_null(sc);
    int32_t n = sched_nsteps(sc);
    sched_free(sc);
    setup_free(&st);
    return n;
}

/* :vs WORD: a word without '=' is the algorithm, the first's settings stay; the label is the
 * words; the message names both. */
static void test_vs_open(void **state)
{
    (void)state;
    Host h = {0};
    VsHost vh = host_of(&h, 2);
    Vs *v = vs_new();
    assert_non_null(v);
    assert_null(vs_bcast(v));
    assert_int_equal(vs_nsteps(v), 0);
    const char *w[] = {"bst"};
    assert_true(vs_command(v, &vh, w, 1));
    assert_int_equal(h.builds, 1);
    assert_string_equal(h.algo, "bst");
    assert_int_equal(h.nsets, 1);
    assert_string_equal(h.sets[0], "nu=0");
    assert_int_equal(h.pos, 2);                 /* built at the first's position */
    assert_non_null(vs_bcast(v));
    assert_string_equal(vs_label(v), "bst");
    assert_int_equal(vs_nsteps(v), steps_of("bst"));
    assert_int_equal(vs_pos(v), 2);
    assert_false(h.msg_error);
    assert_string_equal(h.msg, "side by side: st | bst (:vs off to leave)");
    nfreed = 0;
    vs_free(v, &vh);
    assert_int_equal(nfreed, 1);
}

/* :vs st nu=1: K=V is a setting after the first's (the later wins), the other word the
 * algorithm. */
static void test_vs_settings(void **state)
{
    (void)state;
    Host h = {0};
    VsHost vh = host_of(&h, 0);
    Vs *v = vs_new();
    const char *w[] = {"st", "nu=1"};
    assert_true(vs_command(v, &vh, w, 2));
    assert_string_equal(h.algo, "st");
    assert_int_equal(h.nsets, 2);
    assert_string_equal(h.sets[0], "nu=0");
    assert_string_equal(h.sets[1], "nu=1");
    assert_string_equal(vs_label(v), "st nu=1");
    vs_free(v, &vh);
}

/* Position k shows step min(k, its steps) of the second. */
static void test_vs_sync(void **state)
{
    (void)state;
    Host h = {0};
    VsHost vh = host_of(&h, 0);
    Vs *v = vs_new();
    const char *w[] = {"bst"};
    assert_true(vs_command(v, &vh, w, 1));
    int32_t n = steps_of("bst");
    assert_true(n > 2);
    vs_sync(v, 1);
    assert_int_equal(vs_pos(v), 1);
    vs_sync(v, n + 5);
    assert_int_equal(vs_pos(v), n);
    vs_sync(v, 0);
    assert_int_equal(vs_pos(v), 0);
    vs_free(v, &vh);
}

/* A build that fails leaves what was shown and says why (cancelled: not an error); without a
 * first broadcast or words, usage; "off" closes. */
static void test_vs_fail_and_off(void **state)
{
    (void)state;
    Host h = {0};
    VsHost vh = host_of(&h, 0);
    Vs *v = vs_new();
    const char *w[] = {"bst"}, *w2[] = {"rh"}, *off[] = {"off"};
    assert_true(vs_command(v, &vh, w, 1));
    h.fail = true;
    assert_false(vs_command(v, &vh, w2, 1));
    assert_true(h.msg_error);
    assert_string_equal(h.msg, "vs rh: boom");
    assert_string_equal(vs_label(v), "bst");    /* still the one that built */
    assert_non_null(vs_bcast(v));
    h.cancel = true;
    assert_false(vs_command(v, &vh, w2, 1));
    assert_false(h.msg_error);
    assert_string_equal(h.msg, "cancelled (Esc)");
    h.fail = h.cancel = false;
    vh.ready = false;
    assert_false(vs_command(v, &vh, w2, 1));
    assert_true(h.msg_error);
    assert_non_null(strstr(h.msg, ":vs takes an algorithm"));
    vh.ready = true;
    nfreed = 0;
    assert_true(vs_command(v, &vh, off, 1));
    assert_int_equal(nfreed, 1);
    assert_null(vs_bcast(v));
    assert_int_equal(vs_nsteps(v), 0);
    assert_string_equal(h.msg, "one broadcast again");
    vs_free(v, &vh);
}

/* The first changed: the second is rebuilt from its own words; when that fails it closes. */
static void test_vs_follow(void **state)
{
    (void)state;
    Host h = {0};
    VsHost vh = host_of(&h, 0);
    Vs *v = vs_new();
    assert_true(vs_follow(v, &vh));             /* none open: nothing to do */
    assert_int_equal(h.builds, 0);
    const char *w[] = {"rh", "nu=1"};
    assert_true(vs_command(v, &vh, w, 2));
    vh.spec.net = "mesh:4x4";
    vh.pos = 1;
    assert_true(vs_follow(v, &vh));
    assert_int_equal(h.builds, 2);
    assert_string_equal(h.algo, "rh");
    assert_string_equal(h.sets[h.nsets - 1], "nu=1");
    assert_int_equal(net_size(vs_bcast(v)->setup.net), 16);
    assert_int_equal(vs_pos(v), 1);
    h.fail = true;
    assert_false(vs_follow(v, &vh));
    assert_null(vs_bcast(v));
    assert_string_equal(h.msg, "vs rh nu=1: boom");
    vs_free(v, &vh);
}

/* ---- the time line -------------------------------------------------------------------- */

typedef struct {
    Setup st;
    Sched *sc;
    Sim *sim;
} Built;

static void built_make(Built *b, const char *net, const char *algo)
{
    SetupSpec s = {.net = net, .algo = algo};
    char err[200];
    assert_true(setup_make(&s, &b->st, err, sizeof err));
    b->sc = algo_build(b->st.def, b->st.net, &b->st.args, err, sizeof err);
    assert_non_null(b->sc);
    b->sim = sim_run(b->sc, &b->st.cost, SIM_HISTORY, err, sizeof err);
    assert_non_null(b->sim);
}

static void built_free(Built *b)
{
    sim_free(b->sim);
    sched_free(b->sc);
    setup_free(&b->st);
}

/* Built once per generation at moment 0; moved; at its end; another generation rebuilds it. */
static void test_asynctl_view(void **state)
{
    (void)state;
    Built b;
    built_make(&b, "mesh:4x4", "st");
    AsyncTl *tl = asynctl_new();
    assert_non_null(tl);
    char err[300];
    AtlSrc none = {NULL, NULL, 0};
    assert_null(asynctl_view(tl, &none, err, sizeof err));
    assert_string_equal(err, "");
    AtlSrc src = {b.sc, sim_params(b.sim), 7};
    AsyncView *v = asynctl_view(tl, &src, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(asynctl_gen(tl), 7);
    assert_int_equal(asyncview_pos(v), 0);
    assert_true(asynctl_move(tl, 2, true));
    assert_true(asynctl_move(tl, 1, true));
    assert_int_equal(asyncview_pos(v), 3);
    assert_ptr_equal(asynctl_view(tl, &src, err, sizeof err), v);   /* same generation */
    assert_int_equal(asyncview_pos(v), 3);
    int64_t last = asyncview_ntimes(v) - 1;
    assert_false(asynctl_at_end(tl));
    assert_true(asynctl_move(tl, last, false));
    assert_true(asynctl_at_end(tl));
    /* every transfer has started by the last moment: the lockstep position is the last step */
    assert_int_equal(asynctl_step_at_moment(tl), sched_nsteps(b.sc));
    assert_true(asynctl_move(tl, 0, false));
    assert_int_equal(asynctl_step_at_moment(tl), 0);
    src.gen = 8;
    v = asynctl_view(tl, &src, err, sizeof err);
    assert_non_null(v);
    assert_int_equal(asyncview_pos(v), 0);
    asynctl_drop(tl);
    assert_null(asynctl_current(tl));
    assert_null(asynctl_run(tl));
    assert_int_equal(asynctl_gen(tl), -1);
    asynctl_free(tl);
    built_free(&b);
}

/* The latest moment not after t: each moment's own time and any time before the next one
 * lead to it; before the first, moment 0. */
static void test_asynctl_seek_time(void **state)
{
    (void)state;
    Built b;
    built_make(&b, "mesh:4x4", "bst");
    AsyncTl *tl = asynctl_new();
    char err[300];
    AtlSrc src = {b.sc, sim_params(b.sim), 1};
    AsyncView *v = asynctl_view(tl, &src, err, sizeof err);
    assert_non_null(v);
    int64_t n = asyncview_ntimes(v);
    assert_true(n > 3);
    for (int64_t i = 0; i < n; i++) {
        double t = asyncview_time(v, i);
        assert_true(asynctl_seek_time(tl, t));
        assert_int_equal(asyncview_pos(v), i);
        if (i + 1 < n) {
            double mid = (t + asyncview_time(v, i + 1)) / 2;
            assert_true(asynctl_seek_time(tl, mid));
            assert_int_equal(asyncview_pos(v), i);
        }
    }
    assert_true(asynctl_seek_time(tl, asyncview_time(v, n - 1) + 1e9));
    assert_int_equal(asyncview_pos(v), n - 1);
    asynctl_free(tl);
    built_free(&b);
}

/* A node's transfers: as many as the schedule has to or from it, each involving it, by start
 * time. */
static void test_asynctl_node_events(void **state)
{
    (void)state;
    Built b;
    built_make(&b, "mesh:4x4", "st");
    AsyncTl *tl = asynctl_new();
    const int64_t *ev;
    assert_int_equal(asynctl_node_events(tl, b.sc, 0, &ev), -1);   /* nothing built */
    char err[300];
    AtlSrc src = {b.sc, sim_params(b.sim), 1};
    assert_non_null(asynctl_view(tl, &src, err, sizeof err));
    for (int32_t node = 0; node < 16; node++) {
        int64_t want = 0;
        for (int32_t s = 0; s < sched_nsteps(b.sc); s++)
            for (int64_t i = 0; i < sched_ntransfers(b.sc, s); i++) {
                SchedTransfer t;
                sched_transfer(b.sc, s, i, &t);
                if (t.src == node || t.dst == node) want++;
            }
        int64_t n = asynctl_node_events(tl, b.sc, node, &ev);
        assert_int_equal(n, want);
        const SimAsync *as = asynctl_run(tl);
        for (int64_t k = 0; k < n; k++) {
            const SimAsyncEvent *e = sim_async_event(as, ev[k]);
            SchedTransfer t;
            sched_transfer(b.sc, e->step, e->index, &t);
            assert_true(t.src == node || t.dst == node);
            if (k) assert_true(sim_async_event(as, ev[k - 1])->start <= e->start);
        }
    }
    asynctl_free(tl);
    built_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vs_open),
        cmocka_unit_test(test_vs_settings),
        cmocka_unit_test(test_vs_sync),
        cmocka_unit_test(test_vs_fail_and_off),
        cmocka_unit_test(test_vs_follow),
        cmocka_unit_test(test_asynctl_view),
        cmocka_unit_test(test_asynctl_seek_time),
        cmocka_unit_test(test_asynctl_node_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
