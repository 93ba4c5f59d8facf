/* test_sanders_lessons.c — the two lessons on Sanders & Sibeyn (lessons/chain-vs-tree.lua,
 * lessons/fractional-tradeoff.lua): every page's broadcast is built as the TUI builds it (the
 * page's lesson state through setup_make, the model's constants included), and every
 * question's answer is derived here from builds and simulations and compared with the
 * lesson's: step counts, costs, transfers, the busiest sender, and for the "set r and see"
 * tasks the r of least simulated cost found by sweeping r = 1..16 (unique, or the test
 * fails).  Both lessons are in the course's shape: 8+ questions, 2+ tasks, feedback for every
 * wrong choice. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/sim.h"
#include "../../src/script/lesson-state.h"
#include "../../src/script/lesson.h"
#include "../../src/script/setup.h"
#include "srctree.h"

/* One broadcast: a page's state, with the algorithm and one setting optionally replaced. */
typedef struct {
    Setup setup;
    Sched *sched;
    Sim *sim;
} Run;

static Run run_of(const LessonState *st, const char *algo, const char *set)
{
    const char *sets[LESSON_STATE_MAXSET + 1];
    size_t n = 0;
    size_t klen = set ? (size_t)(strchr(set, '=') - set) : 0;
    for (size_t i = 0; i < st->nset; i++) {
        /* another algorithm keeps the model's constants and s (chain and bintree have no r) */
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)strcspn(st->set[i], "="), st->set[i]);
        bool keep = !algo || cost_is_param(key) || strcmp(key, "s") == 0;
        if (keep && (!set || strncmp(st->set[i], set, klen + 1) != 0))
            sets[n++] = st->set[i];
    }
    if (set)
        sets[n++] = set;
    SetupSpec spec = {.net = st->net, .algo = algo ? algo : st->algo, .source = st->source,
                      .bytes = st->bytes_text[0] ? st->bytes_text : NULL, .model = st->model,
                      .sets = sets, .nsets = n};
    Run r;
    char err[512];
    memset(&r, 0, sizeof r);
    if (!setup_make(&spec, &r.setup, err, sizeof err))
        fail_msg("setup: %s", err);
    r.sched = algo_build(r.setup.def, r.setup.net, &r.setup.args, err, sizeof err);
    if (!r.sched)
        fail_msg("build: %s", err);
    r.sim = sim_run(r.sched, &r.setup.cost, SIM_HISTORY, err, sizeof err);
    assert_non_null(r.sim);
    const SimTotals *t = sim_totals(r.sim);
    assert_true(t->verified && t->valid);   /* every broadcast a lesson shows is right */
    return r;
}

static void run_free(Run *r)
{
    sim_free(r->sim);
    sched_free(r->sched);
    setup_free(&r->setup);
}

static const SimTotals *tot(const Run *r) { return sim_totals(r->sim); }

static double cost_with(const LessonState *st, const char *algo, const char *set, int32_t *steps)
{
    Run r = run_of(st, algo, set);
    double c = tot(&r)->cost.total;
    if (steps)
        *steps = tot(&r)->nsteps;
    run_free(&r);
    return c;
}

/* The r in 1..16 of least simulated cost with setting `set` (s=..); fails on a tie. */
static int best_r(const LessonState *st, const char *set_s)
{
    LessonState x = *st;
    const char *sets[LESSON_STATE_MAXSET];
    size_t n = 0;
    for (size_t i = 0; i < st->nset; i++)
        if (strncmp(st->set[i], "s=", 2) != 0)
            sets[n++] = st->set[i];
    sets[n++] = set_s;
    memcpy(x.set, sets, n * sizeof *sets);
    x.nset = n;
    int best = 0;
    double bc = INFINITY, second = INFINITY;
    for (int r = 1; r <= 16; r++) {
        char rs[16];
        snprintf(rs, sizeof rs, "r=%d", r);
        double c = cost_with(&x, NULL, rs, NULL);
        if (c < bc) {
            second = bc;
            bc = c;
            best = r;
        } else if (c < second) {
            second = c;
        }
    }
    return second > bc ? best : -best;   /* negative: a tie for the least cost */
}

static int choice(const LessonPage *pg, const char *text)
{
    for (size_t i = 0; i < pg->nchoices; i++)
        if (strcmp(pg->choices[i], text) == 0)
            return (int)i;
    fail_msg("no choice [%s] (question: %s)", text, pg->question);
    return -1;
}

static int choicef(const LessonPage *pg, const char *fmt, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return choice(pg, buf);
}

/* The most transfers one node sends. */
static int64_t busiest_sender(const Run *r)
{
    int32_t P = net_size(r->setup.net);
    int64_t *n = calloc((size_t)P, sizeof *n), most = 0;
    assert_non_null(n);
    for (int32_t k = 0; k < sched_nsteps(r->sched); k++)
        for (int64_t i = 0; i < sched_ntransfers(r->sched, k); i++) {
            SchedTransfer t;
            sched_transfer(r->sched, k, i, &t);
            if (++n[t.src] > most)
                most = n[t.src];
        }
    free(n);
    return most;
}

/* What the engine says a page's task wants: step (-1 any), algo (NULL any), one setting. */
typedef struct {
    int32_t step;
    const char *algo;
    char set[32];
} Want;

static void check_try(const char *lesson, size_t pno, const LessonPage *pg, const Want *w)
{
    const LessonTry *t = &pg->want;
    bool same = t->step == w->step && (t->algo == NULL) == (w->algo == NULL) &&
                (!t->algo || strcmp(t->algo, w->algo) == 0) &&
                t->nset == (w->set[0] ? 1u : 0u) && (!w->set[0] || strcmp(t->set[0], w->set) == 0) &&
                !t->net && !t->model && t->source < 0 && t->bytes == 0 && t->node < 0;
    if (!same)
        fail_msg("%s page %zu: the engine wants step %d algo %s set %s; the lesson's task "
                 "differs", lesson, pno, w->step, w->algo ? w->algo : "-",
                 w->set[0] ? w->set : "-");
}

static const char *cheaper(double chain, double tree)
{
    return chain < tree ? "the chain" : tree < chain ? "the binary tree" : "they cost the same";
}

static void chain_vs_tree_page(size_t pno, const LessonPage *pg, const LessonState *st,
                               const Run *b, int *want, Want *task)
{
    const SimTotals *t = tot(b);
    switch (pno) {
    case 1: case 2: case 4: case 5:
        *want = choicef(pg, "%.0f", t->nsteps);
        break;
    case 3: case 6:
        *want = choice(pg, cheaper(cost_with(st, "chain", NULL, NULL),
                                   cost_with(st, "bintree", NULL, NULL)));
        break;
    case 7: {
        Run c = run_of(st, "chain", NULL), bt = run_of(st, "bintree", NULL);
        int64_t nc = tot(&c)->ntransfers, nb = tot(&bt)->ntransfers;
        *want = nc == nb ? choicef(pg, "both %.0f", (double)nc)
              : choice(pg, nb == 2 * nc ? "the tree twice as many" : "the chain twice as many");
        run_free(&c);
        run_free(&bt);
        break;
    }
    case 8:
        assert_string_equal(b->setup.def->name, "bintree");
        *want = choicef(pg, "%.0f", (double)busiest_sender(b));
        break;
    case 9:   /* the first position with every node holding a packet */
        for (int32_t k = 1; k <= t->nsteps && task->step < 0; k++)
            if (sim_step(b->sim, k - 1)->informed == net_size(b->setup.net))
                task->step = k;
        break;
    case 10: {   /* the cheaper of the two with one packet */
        double c = cost_with(st, "chain", "s=1", NULL), bt = cost_with(st, "bintree", "s=1", NULL);
        assert_true(c != bt);
        task->algo = c < bt ? "chain" : "bintree";
        snprintf(task->set, sizeof task->set, "s=1");
        break;
    }
    }
}

static void fractional_page(size_t pno, const LessonPage *pg, const LessonState *st,
                            const Run *b, int *want, Want *task)
{
    const SimTotals *t = tot(b);
    switch (pno) {
    case 1: {   /* r = 1 against bintree */
        int32_t ns;
        double c = cost_with(st, "bintree", NULL, &ns);
        *want = choice(pg, ns == t->nsteps && c == t->cost.total ? "the same steps and cost"
                           : ns > t->nsteps ? "fewer steps" : "more steps");
        break;
    }
    case 2: {   /* r = P - 1: the chain's steps */
        int32_t ns;
        cost_with(st, "chain", NULL, &ns);
        assert_int_equal(ns, t->nsteps);
        *want = choicef(pg, "%.0f", t->nsteps);
        break;
    }
    case 3: case 6:
        *want = choicef(pg, "%.0f", t->nsteps);
        break;
    case 4: {
        double ch = cost_with(st, "chain", NULL, NULL), bt = cost_with(st, "bintree", NULL, NULL);
        double fr = t->cost.total;
        *want = choice(pg, fr < ch && fr < bt ? "the fractional tree, r = 4"
                           : ch < bt ? "the chain" : "bintree");
        assert_string_equal(pg->choices[2], "the fractional tree, r = 4");
        break;
    }
    case 5: case 7: {   /* set r and see: the least cost over r = 1..16 at this s */
        const char *s = NULL;
        for (size_t i = 0; i < st->nset; i++)
            if (strncmp(st->set[i], "s=", 2) == 0)
                s = st->set[i];
        assert_non_null(s);
        int r = best_r(st, s);
        assert_true(r > 0);   /* unique */
        snprintf(task->set, sizeof task->set, "r=%d", r);
        break;
    }
    case 8: {   /* the best r at s = 256 against s = 64 (ties: the smallest best r) */
        int r256 = abs(best_r(st, "s=256")), r64 = abs(best_r(st, "s=64"));
        *want = choice(pg, r256 > r64 ? "larger" : r256 < r64 ? "smaller" : "the same");
        break;
    }
    case 9:
        *want = choicef(pg, "%.0f", (double)t->ntransfers);
        break;
    case 10: {   /* simplex ports: the direct schedule, valid, faster than the emulation */
        int32_t ns;
        assert_true(t->valid);
        cost_with(st, "fractional-simplex", NULL, &ns);
        assert_true(ns > t->nsteps);
        *want = choicef(pg, "%.0f", t->nsteps);
        break;
    }
    }
}

static void check_lesson(const char *path)
{
    char err[512];
    Lesson *l = lesson_load(path, err, sizeof err);
    if (!l)
        fail_msg("%s: %s", path, err);
    bool chain = strcmp(lesson_id(l), "chain-vs-tree") == 0;
    int questions = 0, tries = 0;
    assert_true(lesson_npages(l) >= 8 && lesson_npages(l) <= 16);
    for (size_t i = 0; i < lesson_npages(l); i++) {
        const LessonPage *pg = lesson_page(l, i);
        LessonState st;
        lesson_state(l, i, &st);
        /* each page declares its whole state: net, algorithm, source, bytes, model, settings */
        assert_true(pg->net && pg->algo && pg->source && pg->bytes && pg->model && pg->nset > 0);
        Run b = run_of(&st, NULL, NULL);
        if (pg->step > tot(&b)->nsteps)
            fail_msg("%s page %zu: step %d of %d", path, i + 1, pg->step, tot(&b)->nsteps);
        for (size_t c = 0; pg->qkind == LESSON_Q_CHOICE && c < pg->nchoices; c++)
            if ((int)c != pg->answer_choice && (!pg->feedback || !pg->feedback[c]))
                fail_msg("%s page %zu: choice %c has no feedback", path, i + 1, (char)('a' + c));
        int want = -2;
        Want task = {.step = -1};
        if (chain)
            chain_vs_tree_page(i + 1, pg, &st, &b, &want, &task);
        else
            fractional_page(i + 1, pg, &st, &b, &want, &task);
        if (pg->qkind == LESSON_Q_CHOICE && want != pg->answer_choice)
            fail_msg("%s page %zu: the engine says choice %d, the lesson says %d", path, i + 1,
                     want, pg->answer_choice);
        if (pg->qkind == LESSON_Q_TRY)
            check_try(path, i + 1, pg, &task);
        assert_true(pg->qkind == LESSON_Q_CHOICE || pg->qkind == LESSON_Q_TRY);
        questions++;
        tries += pg->qkind == LESSON_Q_TRY;
        run_free(&b);
    }
    assert_true(questions >= 8 && tries >= 2);
    lesson_free(l);
}

static void test_chain_vs_tree(void **state)
{
    (void)state;
    check_lesson("lessons/chain-vs-tree.lua");
}

static void test_fractional_tradeoff(void **state)
{
    (void)state;
    check_lesson("lessons/fractional-tradeoff.lua");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!srctree_enter(argv[0], "lessons/chain-vs-tree.lua"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_vs_tree),
        cmocka_unit_test(test_fractional_tradeoff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
