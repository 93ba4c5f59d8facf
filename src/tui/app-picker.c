/* app-picker.c — the App's pickers (algorithm, net, bytes, model, source, lesson): the list
 * each opens with (o, a, N, B, M; the lesson picker in the course's order with its track
 * headings, which cannot be chosen), its keys, and what choosing an item does.  See app-core.h
 * (app_open_picker, app_picker_key) and app.h (app_bytes_text). */
#include "app-core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../script/course.h"
#include "algo-names.h"
#include "lesson-pick.h"

/* ---- pickers -------------------------------------------------------------------------- */

static void items_add(App *a, const char *s)
{
    char **g = realloc(a->items, (a->nitems + 1) * sizeof *g);
    if (!g) return;
    a->items = g;
    a->items[a->nitems++] = strdup(s);
}

void app_bytes_text(char *buf, size_t len, uint64_t v)
{
    if (v >= (UINT64_C(1) << 20) && v % (UINT64_C(1) << 20) == 0)
        snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
    else if (v >= 1024 && v % 1024 == 0)
        snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)v);
}

void app_open_picker(App *a, PickKind k)
{
    app_items_free(a);
    a->pick = k;
    char buf[64];
    switch (k) {
    case PICK_ALGO: {
        /* the built-ins that run here, then the Lua scripts on the search path that do */
        char *names[160];
        size_t n = algo_names(a->b.ready ? a->b.setup.net : NULL, names, 160);
        for (size_t i = 0; i < n; i++) { items_add(a, names[i]); free(names[i]); }
        break;
    }
    case PICK_NET: {
        static const char *nets[] = {"array:8", "array:16", "array:64", "ring:16", "mesh:4x4",
                                     "mesh:8x8", "mesh:16x16", "mesh:32x32", "mesh:64x64",
                                     "torus:5x5", "torus:8x8", "torus:16x16", "mesh:4x4x4"};
        for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) items_add(a, nets[i]);
        break;
    }
    case PICK_BYTES: {
        /* powers of 4 from 16 to 1M (1K and 1M among them), and the current size in order */
        uint64_t cur = a->b.ready ? a->b.setup.args.bytes : 0;
        bool put_cur = cur == 0;
        for (uint64_t b = 16; b <= (UINT64_C(1) << 20); b *= 4) {
            if (!put_cur && cur <= b) {
                put_cur = true;
                if (cur < b) {
                    app_bytes_text(buf, sizeof buf, cur);
                    items_add(a, buf);
                }
            }
            app_bytes_text(buf, sizeof buf, b);
            items_add(a, buf);
        }
        if (!put_cur) {
            app_bytes_text(buf, sizeof buf, cur);
            items_add(a, buf);
        }
        break;
    }
    case PICK_MODEL:
        for (int m = 0; m < COST_NMODELS; m++) items_add(a, cost_model_name((CostModel)m));
        break;
    case PICK_SOURCE:
        break;
    case PICK_LESSON: {
        /* in the course's order, a heading per track (course.h) */
        char err[300], line[512];
        Course *c = course_load(NULL, err, sizeof err);
        if (!c) app_msg(a, true, "%s", err);
        if (!c) c = course_none();   /* a broken course file: the lessons by name */
        const char *names[COURSE_MAXLESSONS];
        size_t track[COURSE_MAXLESSONS];
        size_t n = c ? course_order(c, names, track, COURSE_MAXLESSONS) : 0;
        for (size_t i = 0; i < n; i++) {
            if ((i == 0 || track[i] != track[i - 1]) && course_ntracks(c) > 0) {
                lesson_pick_heading(course_track_title(c, track[i]), line, sizeof line);
                items_add(a, line);
                if (a->nitems == 1) a->pick_sel = 1;
            }
            lesson_pick_line(names[i], line, sizeof line);   /* title, pages, progress */
            items_add(a, line);
        }
        course_free(c);
        if (n == 0) {
            app_msg(a, true, "no lessons found (lessons/*.lua on the search path)");
            return;
        }
        break;
    }
    }
    if (a->nitems == 0) return;
    /* start on the current value */
    const char *cur = k == PICK_ALGO ? a->b.spec.algo : k == PICK_NET ? a->b.spec.net
                    : k == PICK_BYTES ? a->b.spec.bytes : k == PICK_MODEL ? a->b.spec.model : NULL;
    if (a->b.ready && k == PICK_NET) cur = net_spec(a->b.setup.net);
    if (a->b.ready && k == PICK_ALGO) cur = a->b.setup.def->name;
    if (a->b.ready && k == PICK_BYTES) {
        app_bytes_text(buf, sizeof buf, a->b.setup.args.bytes);
        cur = buf;
    }
    for (size_t i = 0; cur && i < a->nitems; i++)
        if (strcmp(a->items[i], cur) == 0) a->pick_sel = i;
    /* the lesson open now (a lesson's line starts with its name and two spaces) */
    size_t idl = a->lesson ? strlen(lesson_id(a->lesson)) : 0;
    for (size_t i = 0; k == PICK_LESSON && idl && i < a->nitems; i++)
        if (strncmp(a->items[i], lesson_id(a->lesson), idl) == 0 && a->items[i][idl] == ' ')
            a->pick_sel = i;
    a->mode = MODE_PICKER;
}

static void picker_choose(App *a)
{
    if (a->pick_sel >= a->nitems) return;
    if (a->pick == PICK_LESSON && lesson_pick_is_heading(a->items[a->pick_sel])) return;
    char *v = strdup(a->items[a->pick_sel]);
    PickKind k = a->pick;
    a->mode = MODE_MAP;
    app_items_free(a);
    if (!v) return;
    switch (k) {
    case PICK_ALGO: app_change(a, "algo", v); break;
    case PICK_NET: app_change(a, "net", v); break;
    case PICK_BYTES: app_change(a, "bytes", v); break;
    case PICK_MODEL: app_change(a, "model", v); break;
    case PICK_LESSON: app_open_lesson(a, lesson_pick_name(v)); break;
    case PICK_SOURCE: break;
    }
    free(v);
}

/* The lesson picker's track headings cannot be chosen: move on past them in direction dir
 * (back the other way at either end). */
static void picker_skip(App *a, int dir)
{
    if (a->pick != PICK_LESSON) return;
    for (int pass = 0; pass < 2; pass++, dir = -dir)
        while (a->pick_sel < a->nitems && lesson_pick_is_heading(a->items[a->pick_sel])) {
            if ((dir < 0 && a->pick_sel == 0) || (dir > 0 && a->pick_sel + 1 >= a->nitems)) break;
            a->pick_sel += dir > 0 ? 1 : (size_t)-1;
        }
}

void app_picker_key(App *a, const char *key)
{
    if (strcmp(key, "<Escape>") == 0 || strcmp(key, "q") == 0 || strcmp(key, "<C-c>") == 0) {
        a->mode = MODE_MAP;
        app_items_free(a);
    } else if (strcmp(key, "<Enter>") == 0 || strcmp(key, "l") == 0 ||
               strcmp(key, "<Right>") == 0) {
        picker_choose(a);
    } else if (strcmp(key, "<Down>") == 0 || strcmp(key, "j") == 0 || strcmp(key, "<Tab>") == 0) {
        if (a->pick_sel + 1 < a->nitems) a->pick_sel++;
        picker_skip(a, 1);
    } else if (strcmp(key, "<Up>") == 0 || strcmp(key, "k") == 0 || strcmp(key, "<S-Tab>") == 0) {
        if (a->pick_sel > 0) a->pick_sel--;
        picker_skip(a, -1);
    } else if (strcmp(key, "g") == 0 || strcmp(key, "<Home>") == 0) {
        a->pick_sel = 0;
        picker_skip(a, 1);
    } else if (strcmp(key, "G") == 0 || strcmp(key, "<End>") == 0) {
        a->pick_sel = a->nitems ? a->nitems - 1 : 0;
        picker_skip(a, -1);
    }
}
