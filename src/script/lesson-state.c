/* lesson-state.c — the broadcast a lesson page shows (see lesson-state.h). */
#include "lesson-state.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Length of the key of "k=v". */
static size_t key_len(const char *kv)
{
    const char *eq = strchr(kv, '=');
    return eq ? (size_t)(eq - kv) : strlen(kv);
}

static void state_set(LessonState *s, const char *kv)
{
    size_t kl = key_len(kv);
    for (size_t i = 0; i < s->nset; i++)
        if (key_len(s->set[i]) == kl && strncmp(s->set[i], kv, kl) == 0) {
            s->set[i] = kv;
            return;
        }
    if (s->nset < LESSON_STATE_MAXSET)
        s->set[s->nset++] = kv;
}

void lesson_state(const Lesson *l, size_t page, LessonState *out)
{
    memset(out, 0, sizeof *out);
    size_t n = lesson_npages(l);
    for (size_t i = 0; i < n && i <= page; i++) {
        const LessonPage *p = lesson_page(l, i);
        if (p->net) {
            out->net = p->net;
            out->source = NULL;   /* a node of the old net may not be one of the new */
            out->sources = NULL;
        }
        if (p->algo) out->algo = p->algo;
        if (p->source) {
            out->source = p->source;
            out->sources = NULL;
        }
        if (p->sources) {   /* one source or many: the other goes */
            out->sources = p->sources;
            out->source = NULL;
        }
        if (p->model) out->model = p->model;
        if (p->fit) out->fit = p->fit;
        if (p->bytes) out->bytes = p->bytes;
        for (size_t k = 0; k < p->nset; k++) state_set(out, p->set[k]);
        if (p->step >= 0) out->step = p->step;
    }
    if (out->bytes)
        snprintf(out->bytes_text, sizeof out->bytes_text, "%llu",
                 (unsigned long long)out->bytes);
}

int32_t lesson_state_shown_step(const Lesson *l, size_t page, const LessonState *st)
{
    const LessonPage *p = lesson_page(l, page);
    bool hide = p && (p->qkind == LESSON_Q_NODE || p->qkind == LESSON_Q_LINK ||
                      (p->qkind == LESSON_Q_CHOICE && p->predict));
    return hide && st->step > 0 ? st->step - 1 : st->step;
}
