/* bcast.h — one broadcast as the screen shows it: the user's words for it (BSpec) and what
 * was built from them (Bcast: setup, schedule, simulation with history, the position shown).
 * Types only, no curses: the App (app.h) builds and frees them (app_build_bcast,
 * app_bcast_free); the views that draw a broadcast (vs.h, asynctl.h, the map) read one
 * through this header, not through the App.
 *
 * Position: pos 0 is before the first step, pos k after k steps.  At pos k >= 1 the screen
 * shows the circuits of step k (schedule step index k-1) and the holdings after it.
 *
 * Ownership: a Bcast owns its BSpec's strings, its setup, schedule, simulation, reduction,
 * partials and rest; app_bcast_free frees them all.
 */
#ifndef MESHCAST_TUI_BCAST_H
#define MESHCAST_TUI_BCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../engine/reduce.h"
#include "../engine/sched.h"
#include "../engine/sim.h"
#include "../script/setup.h"

/* The user's words for one broadcast (owned copies; NULL = setup.h's default). */
typedef struct {
    char *net, *algo, *source, *bytes, *model, *fit;
    char **sets;
    size_t nsets;
    char *sources;         /* s-to-p: --sources SPEC */
    char *op;              /* --op broadcast|reduce (NULL: the algorithm's own) */
    char *profile;         /* --profile / :profile NAME (NULL: the built-in constants) */
} BSpec;

/* One broadcast, ready to step. */
typedef struct {
    BSpec spec;
    bool ready;            /* setup, sched and sim valid */
    Setup setup;
    Sched *sched;
    Sim *sim;
    Reduce *reduce;        /* a reduction (a script's own, or --op reduce): its check, else NULL */
    struct Partials *partials; /* a reduction: every node's partials step by step (NULL: too
                                * big, or a broadcast); partials.h */
    bool has_predicted;
    double predicted;
    char auto_note[400];   /* --set s=auto / r=auto: the paper's values and the search's
                            * (autotune.h), "" otherwise */
    int32_t pos;           /* 0..nsim */
    int32_t nsim;          /* steps the Sim has: all of them, or fewer while `rest` runs */
    struct BcastRest *rest;/* a big broadcast's whole history, being simulated on a worker
                            * while its first steps are shown (app_poll takes it in) */
    long gen;              /* unique among the App's broadcasts: a new one every build
                            * (app_build), the second's (vs.h) too */
    time_t script_mtime;   /* --algo FILE.lua: mtime when built */
    long script_mtime_ns;
} Bcast;

/* The schedule step shown at the broadcast's position (pos-1), or -1 at pos 0 / not ready. */
static inline int32_t bcast_step_shown(const Bcast *b) { return b->ready ? b->pos - 1 : -1; }
/* Whether only its first steps are simulated yet (the rest on a worker). */
static inline bool bcast_partial(const Bcast *b) { return b->ready && b->rest != NULL; }
/* A reduction with its partials counted (bcast.c): how many contributions node's partials
 * combine at the position shown (*count) out of the most any can (*full = nodes * chunks;
 * partials.h); false for a broadcast (cells show chunks held). */
bool bcast_partial_count(const Bcast *b, int32_t node, uint64_t *count, uint64_t *full);

#endif
