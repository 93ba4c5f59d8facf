/* app-loop.c — what the terminal loop (tui.c) reads and takes of the App (app.h, "The terminal
 * loop's interface"): the message line, the look (colour, ASCII, theme), the wait hook, the
 * flags the keys and commands raise for the loop (Ctrl-Z, Ctrl-L, :theme, :export, q), play's
 * period, a lesson's markers for a recording and the Chart panel's filling in.  tui.c never
 * sees the App's fields. */
#include "app-core.h"

#include <stdio.h>
#include <string.h>

const char *app_msg_text(const App *a) { return a->msg; }

void app_msg_set_raw(App *a, const char *text) { snprintf(a->msg, sizeof a->msg, "%s", text); }

void app_msg_progress(App *a, const char *text)
{
    app_msg(a, false, "%s", text);
    a->msg_progress = true;
}

void app_progress_over(App *a)
{
    if (!a->msg_progress) return;
    a->msg[0] = '\0';
    a->msg_progress = false;
}

bool app_quitting(const App *a) { return a->quit; }

Mode app_mode(const App *a) { return a->mode; }

bool app_cancelled(const App *a) { return a->cancelled; }

void app_set_look(App *a, bool color, bool ascii, const char *theme, bool big)
{
    a->color = color;
    a->ascii = ascii;
    if (theme) snprintf(a->theme, sizeof a->theme, "%s", theme);
    a->big = big;
}

AppLook app_look(const App *a)
{
    AppLook l = {a->color, a->ascii, a->theme};
    return l;
}

void app_set_wait(App *a, AppWaitFn wait, void *ctx)
{
    a->wait = wait;
    a->wait_ctx = ctx;
}

bool app_take_suspend(App *a)
{
    bool s = a->suspend;
    a->suspend = false;
    return s;
}

bool app_take_theme_change(App *a)
{
    bool t = a->theme_changed;
    a->theme_changed = false;
    return t;
}

bool app_take_redraw(App *a)
{
    bool r = a->redraw;
    a->redraw = false;
    return r;
}

bool app_take_export(App *a, char *path, size_t len, bool *force)
{
    if (!a->export_path[0]) return false;
    snprintf(path, len, "%s", a->export_path);
    *force = a->export_force;
    a->export_path[0] = '\0';
    return true;
}

double app_play_period(const App *a) { return a->playing ? 1.0 / app_speeds[a->speed] : 0; }

const Lesson *app_lesson(const App *a) { return a->lesson; }

bool app_lesson_marks(const App *a, size_t *page, unsigned *answers, int *last_answer)
{
    if (!a->lesson) return false;
    *page = a->page;
    *answers = a->lesson_answers;
    *last_answer = a->last_answer;
    return true;
}

bool app_chart_fill(App *a)
{
    return a->panel == PANEL_CHART && a->mode != MODE_HELP && !a->fig && !a->chart_fig3 &&
           app_chart_work(a);
}

bool app_chart_filled_shown(const App *a) { return a->panel == PANEL_CHART && a->chart.done; }
