/* app-lesson.c — the App's lesson: opening one (on a worker with the wait hook), turning
 * pages (each page's broadcast and step), answering its questions (a choice, a node, a link,
 * a "now you try" task), restarting it, and its saved progress.  See app.h (app_open_lesson,
 * app_lesson_page) and app-core.h (what the keys and the mouse call). */
#include "app-core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../script/lesson-state.h"
#include "../script/lesson-try.h"

/* ---- lessons -------------------------------------------------------------------------- */

static void lesson_save(App *a)
{
    char err[200];
    if (a->lesson && !lesson_progress_save(a->lesson, &a->prog, err, sizeof err))
        app_msg(a, true, "%s", err);
}

void app_lesson_page(App *a, size_t i)
{
    if (!a->lesson) return;
    size_t n = lesson_npages(a->lesson);
    if (n == 0) return;
    if (i >= n) i = n - 1;
    const LessonPage *p = lesson_page(a->lesson, i);
    a->page = i;
    a->answered = false;
    a->last_answer = 0;
    a->last_choice = -1;
    a->try_why[0] = '\0';
    a->lesson_done = false;
    a->lesson_off = 0;
    a->sel_link = -1;
    if (p) {
        /* the page's own broadcast (lesson-state.h): never what happens to be on screen */
        LessonState st;
        lesson_state(a->lesson, i, &st);
        BSpec s = {.net = app_dupz(st.net), .algo = app_dupz(st.algo), .source = app_dupz(st.source),
                   .bytes = st.bytes ? app_dupz(st.bytes_text) : NULL, .model = app_dupz(st.model),
                   .fit = app_dupz(st.fit), .sources = app_dupz(st.sources)};
        s.sets = st.nset ? calloc(st.nset, sizeof *s.sets) : NULL;
        for (size_t k = 0; s.sets && k < st.nset; k++) s.sets[s.nsets++] = strdup(st.set[k]);
        int32_t show = lesson_state_shown_step(a->lesson, i, &st);   /* predict, then see */
        if (!a->b.ready || !app_bspec_same(&s, &a->b.spec)) app_take_spec(a, &s, show);
        app_bspec_free(&s);
        app_goto(a, show);
        a->shown_step = st.step;
        if (p->nnodes > 0) a->cursor = p->nodes[0];
    }
    if (i < 256) a->prog.seen[i] = true;
    a->prog.npages = n;
    a->prog.last_page = i;
    lesson_save(a);
    a->panel = PANEL_LESSON;
}

/* lesson_load on a worker thread when the loop has a wait hook: a lesson is a script. */
typedef struct {
    const char *name;
    Lesson *l;
    char err[300];
} LessonJob;

static void lesson_job(void *v)
{
    LessonJob *j = v;
    j->l = lesson_load(j->name, j->err, sizeof j->err);
}

bool app_open_lesson(App *a, const char *name)
{
    LessonJob j = {name, NULL, ""};
    a->cancelled = false;
    if (a->wait) {
        AppWaitCtx w = {a, ""};
        snprintf(w.what, sizeof w.what, "loading lesson %s", name);
        if (!job_run(lesson_job, &j, app_build_wait, &w)) {
            a->cancelled = true;
            if (j.l) lesson_free(j.l);
            app_msg(a, true, "lesson %s: cancelled", name);
            return false;
        }
    } else {
        lesson_job(&j);
    }
    Lesson *l = j.l;
    char *err = j.err;
    if (!l) {
        app_msg(a, true, "%s", err[0] ? err : "cannot load lesson");
        return false;
    }
    if (a->lesson) lesson_free(a->lesson);
    a->lesson = l;
    memset(&a->prog, 0, sizeof a->prog);
    lesson_progress_load(l, &a->prog);
    size_t start = a->prog.last_page < lesson_npages(l) ? a->prog.last_page : 0;
    app_lesson_page(a, start);
    app_msg(a, false, "lesson: %s", lesson_title(l));
    return true;
}

/* R, y: the lesson's progress forgotten (its file deleted), back to page 1. */
void app_lesson_restart(App *a)
{
    char err[300];
    if (lesson_progress_clear(lesson_id(a->lesson), err, sizeof err) < 0) {
        app_msg(a, true, "%s", err);
        return;
    }
    memset(&a->prog, 0, sizeof a->prog);
    app_lesson_page(a, 0);
    app_msg(a, false, "lesson %s restarted: no page seen, no question answered",
            lesson_id(a->lesson));
}

const LessonPage *app_lesson_cur_page(const App *a)
{
    return a->lesson ? lesson_page(a->lesson, a->page) : NULL;
}

void app_lesson_answer(App *a, bool right)
{
    a->last_answer = right ? 1 : -1;
    a->lesson_answers++;
    if (right) a->answered = true;
    a->lesson_follow = true;
    if (a->page < 256) {
        if (!a->prog.first[a->page]) a->prog.first[a->page] = (int8_t)(right ? 1 : -1);
        a->prog.answer[a->page] = (int8_t)(right ? 1 : -1);
    }
    lesson_save(a);
    app_msg(a, !right, right ? "Right!" : "Not quite - try again.");
    if (right) {   /* then see: a click question's step is shown once answered */
        LessonState st;
        lesson_state(a->lesson, a->page, &st);
        if (a->b.pos != st.step && lesson_state_shown_step(a->lesson, a->page, &st) != st.step)
            app_goto(a, st.step);
    }
}

/* A "now you try" task: is what is shown the state asked for? */
void app_lesson_answer_try(App *a)
{
    const LessonPage *p = app_lesson_cur_page(a);
    if (!p || p->qkind != LESSON_Q_TRY || a->answered || !a->b.ready) return;
    bool met = lesson_try_met(&p->want, &a->b.setup, a->b.pos, a->cursor, a->try_why,
                              sizeof a->try_why);
    app_lesson_answer(a, met);
    if (!met) app_msg(a, true, "Not yet: %s.", a->try_why);
}

bool app_lesson_question_open(const App *a)
{
    const LessonPage *p = app_lesson_cur_page(a);
    return p && p->qkind != LESSON_Q_NONE && !a->answered && a->panel == PANEL_LESSON &&
           !a->lesson_done;
}

void app_lesson_answer_node(App *a, int32_t node)
{
    const LessonPage *p = app_lesson_cur_page(a);
    if (!p || p->qkind != LESSON_Q_NODE || a->answered) return;
    app_lesson_answer(a, node == p->answer_node);
}

static bool link_matches(const App *a, int64_t got, int64_t want, bool any)
{
    if (got == want) return true;
    if (!any || !a->b.ready) return false;
    const Net *net = a->b.setup.net;
    int32_t node; int dim, dir;
    net_link_info(net, got, &node, &dim, &dir);
    int32_t head = net_link_head(net, got);
    return head >= 0 && net_link(net, head, dim, -dir) == want;
}

void app_lesson_answer_link(App *a, int64_t link)
{
    const LessonPage *p = app_lesson_cur_page(a);
    if (!p || p->qkind != LESSON_Q_LINK || a->answered) return;
    app_lesson_answer(a, link_matches(a, link, p->answer_link, p->link_any_direction));
}
/* ---- what a lesson's open question hides ---------------------------------------------- */

bool app_quiz_hides(const App *a)
{
    if (!a->lesson || a->lesson_done || a->answered) return false;
    const LessonPage *p = lesson_page(a->lesson, a->page);
    if (!p || p->qkind == LESSON_Q_NONE || p->qkind == LESSON_Q_TRY) return false;
    return !(a->page < 256 && a->prog.answer[a->page] == 1);   /* right before: nothing to hide */
}

bool app_quiz_hides_counts(const App *a)
{
    const LessonPage *p = a->lesson ? lesson_page(a->lesson, a->page) : NULL;
    return app_quiz_hides(a) && p && p->qkind == LESSON_Q_CHOICE;
}
