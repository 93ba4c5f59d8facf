/* progress.c — a thread's progress report and stop request (see progress.h). */
#include "progress.h"

#include <stddef.h>

static _Thread_local Progress *cur;

void progress_init(Progress *p)
{
    atomic_store(&p->phase, PROGRESS_SETUP);
    atomic_store(&p->done, 0);
    atomic_store(&p->total, -1);
    atomic_store(&p->cancel, false);
}

void progress_attach(Progress *p) { cur = p; }

Progress *progress_current(void) { return cur; }

bool progress_cancelled(void)
{
    return cur && atomic_load_explicit(&cur->cancel, memory_order_relaxed);
}

void progress_report(ProgressPhase phase, long long done, long long total)
{
    if (!cur) return;
    atomic_store_explicit(&cur->phase, (int)phase, memory_order_relaxed);
    atomic_store_explicit(&cur->done, done, memory_order_relaxed);
    atomic_store_explicit(&cur->total, total, memory_order_relaxed);
}

void progress_add(long long n)
{
    if (cur) atomic_fetch_add_explicit(&cur->done, n, memory_order_relaxed);
}
