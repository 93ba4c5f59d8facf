/* lesson-check.c — every page of a lesson set up and built by the engine: lesson-check.h. */
#include "lesson-check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../engine/sched.h"
#include "lesson-state.h"
#include "setup.h"

/* One broadcast as words (setup.h) and as a key to build it once. */
typedef struct {
    SetupSpec spec;
    const char *sets[LESSON_STATE_MAXSET + 16];
    char bytes[24], source[16];
    char key[2048];
} Words;

static void words_from(Words *w, const LessonState *st)
{
    memset(w, 0, sizeof *w);
    w->spec.net = st->net;
    w->spec.algo = st->algo;
    w->spec.source = st->source;
    w->spec.sources = st->sources;
    w->spec.model = st->model;
    w->spec.fit = st->fit;
    if (st->bytes) {
        snprintf(w->bytes, sizeof w->bytes, "%s", st->bytes_text);
        w->spec.bytes = w->bytes;
    }
    for (size_t i = 0; i < st->nset; i++) w->sets[w->spec.nsets++] = st->set[i];
    w->spec.sets = w->sets;
}

/* The try task's pinned fields put into w ("k=v" settings replace their key's). */
static void words_try(Words *w, const LessonTry *t)
{
    if (t->net) {
        w->spec.net = t->net;
        w->spec.source = NULL;   /* a new net starts from node 0 (lesson-state.h) */
        w->spec.sources = NULL;
    }
    if (t->algo) w->spec.algo = t->algo;
    if (t->model) w->spec.model = t->model;
    if (t->source >= 0) {
        snprintf(w->source, sizeof w->source, "%ld", (long)t->source);
        w->spec.source = w->source;
        w->spec.sources = NULL;
    }
    if (t->bytes) {
        snprintf(w->bytes, sizeof w->bytes, "%llu", (unsigned long long)t->bytes);
        w->spec.bytes = w->bytes;
    }
    for (size_t i = 0; i < t->nset && w->spec.nsets < sizeof w->sets / sizeof w->sets[0]; i++) {
        const char *eq = strchr(t->set[i], '=');
        size_t kl = eq ? (size_t)(eq - t->set[i]) : strlen(t->set[i]);
        size_t k = 0;
        for (; k < w->spec.nsets; k++)
            if (strncmp(w->sets[k], t->set[i], kl) == 0 && w->sets[k][kl] == '=') break;
        w->sets[k] = t->set[i];
        if (k == w->spec.nsets) w->spec.nsets++;
    }
}

static void words_key(Words *w)
{
    const SetupSpec *s = &w->spec;
    int n = snprintf(w->key, sizeof w->key, "%s|%s|%s|%s|%s|%s|%s", s->net ? s->net : "",
                     s->algo ? s->algo : "", s->source ? s->source : "",
                     s->sources ? s->sources : "", s->model ? s->model : "",
                     s->fit ? s->fit : "", s->bytes ? s->bytes : "");
    for (size_t i = 0; i < s->nsets && n > 0 && (size_t)n < sizeof w->key; i++)
        n += snprintf(w->key + n, sizeof w->key - (size_t)n, "|%s", s->sets[i]);
}

/* The broadcast built last, by key. */
typedef struct {
    char key[2048];
    bool ok;
    int32_t nsteps;
    char err[400], what[200];
} Built;

static void build(Built *b, Words *w)
{
    words_key(w);
    if (b->key[0] && strcmp(b->key, w->key) == 0) return;
    snprintf(b->key, sizeof b->key, "%s", w->key);
    b->ok = false;
    b->nsteps = 0;
    b->err[0] = '\0';
    Setup su;
    if (!setup_make(&w->spec, &su, b->err, sizeof b->err)) return;
    snprintf(b->what, sizeof b->what, "%s on %s", su.def->name, net_spec(su.net));
    Sched *s = algo_build(su.def, su.net, &su.args, b->err, sizeof b->err);
    if (s) {
        b->ok = true;
        b->nsteps = sched_nsteps(s);
        sched_free(s);
    }
    setup_free(&su);
}

bool lesson_check(const Lesson *l, char *err, size_t errlen)
{
    Built *b = calloc(1, sizeof *b);
    Words *w = malloc(sizeof *w);
    if (!b || !w) {
        free(b);
        free(w);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < lesson_npages(l) && ok; i++) {
        const LessonPage *p = lesson_page(l, i);
        LessonState st;
        lesson_state(l, i, &st);
        words_from(w, &st);
        build(b, w);
        if (!b->ok) {
            snprintf(err, errlen, "page %zu: %s", i + 1, b->err);
            ok = false;
            break;
        }
        if (p->step >= 0 && p->step > b->nsteps) {
            snprintf(err, errlen, "page %zu: step %ld, but %s has %ld steps (step = 0..%ld)",
                     i + 1, (long)p->step, b->what, (long)b->nsteps, (long)b->nsteps);
            ok = false;
            break;
        }
        if (p->qkind != LESSON_Q_TRY) continue;
        words_try(w, &p->want);
        build(b, w);
        if (!b->ok) {
            snprintf(err, errlen, "page %zu: try: %s", i + 1, b->err);
            ok = false;
        } else if (p->want.step > b->nsteps) {
            snprintf(err, errlen, "page %zu: try: step %ld cannot be reached: %s has %ld steps",
                     i + 1, (long)p->want.step, b->what, (long)b->nsteps);
            ok = false;
        }
    }
    free(b);
    free(w);
    return ok;
}
