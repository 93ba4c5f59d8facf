/* app-cmds.c — what the `:` commands (cmdtab.c) do to the App beyond its broadcast's words:
 * quit, help, export, the figures and charts of the Chart panel, the overview, the tiles, the
 * cursor, projector mode, the theme.  cmdtab.c parses the words and calls these (app.h, "The
 * commands' acts"); it never sees the App's fields. */
#include "app-core.h"

#include <stdio.h>
#include <string.h>

#include "figure.h"
#include "overview.h"
#include "tileview.h"

void app_quit(App *a) { a->quit = true; }

void app_help_open(App *a)
{
    a->mode = MODE_HELP;
    a->help_top = 0;
}

void app_msg_clear(App *a) { a->msg[0] = '\0'; }

void app_export_request(App *a, const char *path, bool force)
{
    snprintf(a->export_path, sizeof a->export_path, "%s", path);
    a->export_force = force;
}

static bool fig_wait(void *ctx, const char *what, const Progress *p, double elapsed_s)
{
    App *a = ctx;
    return a->wait(a, what, p, elapsed_s, a->wait_ctx);
}

bool app_figure(App *a, const char *const *w, int n)
{
    a->chart_fig3 = false;   /* a figure of the s-to-p paper replaces Fig. 3 too */
    if (n == 1 && strcmp(w[0], "off") == 0) {
        figure_free(a->fig);
        a->fig = NULL;
        app_msg(a, false, "the Chart panel shows cost vs message size again");
        return true;
    }
    FigSrc src = {a->b.ready ? cost_model_name(a->b.setup.cost.model) : NULL, a->b.spec.profile};
    struct AppFigure *f;
    char t[600];
    bool ok = figure_make(w, n, &src, a->wait ? fig_wait : NULL, a, &f, &a->cancelled, t,
                          sizeof t);
    app_msg(a, !ok, "%s", t);
    if (!ok) return false;
    figure_free(a->fig);
    a->fig = f;
    a->panel = PANEL_CHART;
    return true;
}

void app_chart_show(App *a, bool fig3, int64_t P)
{
    figure_free(a->fig);   /* either figure, or the cost chart */
    a->fig = NULL;
    a->chart_fig3 = fig3;
    a->fig3_p = P;
    a->panel = PANEL_CHART;
}

void app_overview_set(App *a, bool on, long block)
{
    if (!on) {
        a->ov_block = 0;
    } else if (a->b.ready) {
        int fit = overview_fit(a->b.setup.net, a->lay.map_w, a->lay.map_h);
        a->ov_block = block > fit && block < (1L << 20) ? (int)block : fit;
    }
    a->zoom_auto = false;
}

bool app_tiles(App *a, int level)
{
    char t[200];
    TileSrc src = app_tiles_src(a);
    bool ok = tileview_set(a->tv, &src, level, t, sizeof t);
    app_msg(a, !ok, "%s", t);
    return ok;
}

void app_cursor_to(App *a, int32_t node)
{
    a->cursor = node;
    a->sel_link = -1;
}

void app_big(App *a, int on)
{
    a->big = on < 0 ? !a->big : on > 0;
    a->zoom_auto = true;
    app_msg(a, false, "projector mode %s", a->big ? "on (:big off leaves it)" : "off");
}

void app_theme_request(App *a, const char *name)
{
    snprintf(a->theme, sizeof a->theme, "%s", name);
    a->theme_changed = true;
}
