/* app-mouse.c — the App's mouse: the wheel zooms, a click on the time line goes to that
 * step, a click on the map selects a node or a link (the tree's cells, the hxbar modules' on
 * those views) and answers a lesson's node or link question.  See app.h (app_mouse). */
#include "app-core.h"

#include "fulltree.h"
#include "hxview.h"

/* ---- mouse ---------------------------------------------------------------------------- */

void app_mouse(App *a, int button, bool press, int line, int col)
{
    if (!press || a->lay.too_small) return;
    if (a->mode == MODE_HELP) { a->mode = MODE_MAP; return; }
    if (a->mode != MODE_MAP || !a->b.ready) return;
    if (button == 4) { app_set_zoom(a, a->zoom - 1); return; }
    if (button == 5) { app_set_zoom(a, a->zoom + 1); return; }
    if (button != 1) return;
    /* a click on a row of the timeline goes to that step */
    if (a->panel == PANEL_TIMELINE && col >= a->lay.side_x && line >= a->tl_y0 &&
        line < a->tl_y0 + a->tl_rows) {
        a->playing = false;
        app_goto(a, a->tl_first + (line - a->tl_y0) / (a->tl_per > 1 ? a->tl_per : 1) + 1);
        return;
    }
    const Net *net = a->b.setup.net;
    int32_t node = -1;
    int64_t link = -1;
    /* side by side (vs.h): either half, each in its own layout (the second's on the right) */
    const Layout *left, *right;
    const Bcast *hb = &a->b;   /* the broadcast of the half clicked */
    int what;
    if (app_map_halves(a, &left, &right)) {
        what = layout_hit(left, net, col, line, &node, &link);
        if (!what && (what = layout_hit(right, net, col, line, &node, &link)) != 0)
            hb = vs_bcast(a->vs);
    } else {
        what = layout_hit(&a->lay, net, col, line, &node, &link);
    }
    FtSrc fs = app_fulltree_click_src(a);
    if ((fulltree_active(&fs) || hxview_active(&fs)) && !vs_bcast(a->vs) && a->ov_block == 0) {
        /* the tree's cells, or the hxbar modules' */
        node = fulltree_hit(a->ft, col, line);
        what = node >= 0 ? 1 : 0;
    }
    if (what == 1) {
        a->cursor = node;
        a->sel_link = -1;
        const LessonPage *p = app_lesson_cur_page(a);
        if (p && p->qkind == LESSON_Q_NODE && app_lesson_question_open(a))
            app_lesson_answer_node(a, node);
    } else if (what == 2) {
        /* prefer the direction that carries a circuit in the step the half shows */
        int32_t step = bcast_step_shown(hb);
        if (step >= 0) {
            int32_t from; int dim, dir;
            net_link_info(net, link, &from, &dim, &dir);
            int32_t head = net_link_head(net, link);
            int64_t rev = head >= 0 ? net_link(net, head, dim, -dir) : -1;
            if (rev >= 0 && sim_link_load(hb->sim, step, link) == 0 &&
                sim_link_load(hb->sim, step, rev) > 0)
                link = rev;
        }
        a->sel_link = link;
        int32_t from; int dim, dir;
        net_link_info(net, link, &from, &dim, &dir);
        a->cursor = from;
        const LessonPage *p = app_lesson_cur_page(a);
        if (p && p->qkind == LESSON_Q_LINK && app_lesson_question_open(a))
            app_lesson_answer_link(a, link);
    }
}
