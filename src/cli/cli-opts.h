/* cli-opts.h — the options shared by the batch commands (run, schedule, compare).
 *
 * Accepts "--name value" and "--name=value".  Each command says which options it takes; any
 * other option, a missing value, a repeated single-valued option or a stray argument is a
 * usage error with a one-line message.
 *
 * Ownership: the strings in CliOpts point into argv; `sets` is allocated by cli_opts_parse
 * and freed by cli_opts_free.
 */
#ifndef MESHCAST_CLI_OPTS_H
#define MESHCAST_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../engine/reduce.h"
#include "../engine/sim.h"
#include "../script/setup.h"

enum {
    OPT_NET = 1u << 0,
    OPT_ALGO = 1u << 1,
    OPT_SOURCE = 1u << 2,
    OPT_BYTES = 1u << 3,
    OPT_MODEL = 1u << 4,
    OPT_SET = 1u << 5,
    OPT_FIT = 1u << 6,
    OPT_JSON = 1u << 7,
    OPT_CSV = 1u << 8,
    OPT_FORMAT = 1u << 9,
    OPT_OP = 1u << 20,     /* --op broadcast|reduce (Sanders & Sibeyn) */
    OPT_TIMING = 1u << 14,  /* --timing lockstep|async (compare: also both) */
    OPT_TERMS = 1u << 15,   /* compare --terms (no value) */
    OPT_BY = 1u << 27,      /* compare --by tcd (Cang & Wu) */
    OPT_SOURCES = 1u << 16, /* s-to-p: --sources SPEC (was bit 15, OPT_TERMS's: run took --terms) */
    OPT_VS = 1u << 30,      /* tcd-table --vs NAME[:K=V,...] (Cang & Wu) */
    OPT_PROFILE = 1u << 21, /* --profile NAME: a machine's constants (profile.h) */
    OPT_MAP = 1u << 29,     /* --map FILE: the nodes of a GOAL file's ranks (goal.h) */
};

typedef struct {
    const char *net, *algo, *source, *bytes, *model, *fit, *format;
    const char *op;       /* --op: NULL or "broadcast" = broadcast, "reduce" */
    const char *timing;
    const char *by;         /* compare --by tcd */
    const char *sources;
    const char *vs;         /* tcd-table --vs */
    const char *profile;    /* --profile NAME */
    const char *map;        /* --map FILE */
    const char **sets;
    size_t nsets;
    bool json, csv, help;
    bool terms;
} CliOpts;

/* Parse argv[0..argc-1] (the arguments after the subcommand).  Returns false with a one-line
 * message in err.  `--help`/`-h` sets o->help and stops.  also (NULL, or NULL-terminated
 * "--name"s): the subcommand's own options, taken before this parse, which an unknown
 * option's "did you mean" considers too. */
bool cli_opts_parse(int argc, char **argv, unsigned allowed, const char *const *also,
                    CliOpts *o, char *err, size_t errlen);
void cli_opts_free(CliOpts *o);
/* The start of every subcommand: parse argv into *o.  Returns -1 when the command goes on
 * with *o (free it with cli_opts_free); otherwise *o is already freed and the return value is
 * the exit status: 2 after a one-line usage error, 0 after printing help(). */
int cli_opts_begin(int argc, char **argv, unsigned allowed, CliOpts *o, void (*help)(void));
/* cli_opts_begin, with the subcommand's own option names for "did you mean" (cli_opts_parse). */
int cli_opts_begin_also(int argc, char **argv, unsigned allowed, const char *const *also,
                        CliOpts *o, void (*help)(void));

/* The SetupSpec for these options (pointers into o). */
SetupSpec cli_opts_spec(const CliOpts *o);

/* One broadcast, ready: setup, schedule, simulation and the closed form. */
typedef struct {
    Setup setup;
    Sched *sched;
    Sim *sim;
    bool has_predicted;
    double predicted;
    bool has_predicted_tcd;  /* the closed form of the TCD (Cang & Wu) */
    double predicted_tcd;
    AlgoFit fit;          /* the fit actually applied: FIT_NONE, FIT_COMPANIONS, FIT_VIRTUAL */
    Reduce *reduce;       /* --op reduce: the broadcast run backwards is `sched` and `sim`,
                           * this is whose contributions reached the root (else NULL) */
    int64_t reduce_dropped; /* chunk deliveries of the broadcast not reversed (repeats) */
    bool reduce_declared;   /* the algorithm built the reduction itself (ALGO_REDUCE) */
} CliRun;

/* Set up from the options, build, simulate (with sim flags).  Returns 0, or the exit status
 * after printing a one-line message on stderr: 2 for a usage error, 1 if the build failed. */
int cli_prepare(const CliOpts *o, unsigned simflags, CliRun *r);
/* The same from a Setup already made (taken over, as cli_prepare_setup), with --op reduce and
 * a script's own reduction handled as cli_prepare does: the rest of cli_prepare, with the
 * one-line message in err instead of on stderr (`check` runs many cases through here). */
int cli_prepare_made(Setup *setup, unsigned simflags, CliRun *r, char *err, size_t errlen);
/* --op reduce on a prepared broadcast: r's schedule becomes the broadcast run backwards
 * (simulated with simflags) and r->reduce says whether the source ends with every
 * contribution once.  Returns 0, or 1 with a one-line message on stderr. */
int cli_prepare_reduce(CliRun *r, unsigned simflags);
/* A schedule that is a reduction already (a script's op = "reduce", ALGO_REDUCE): r->reduce
 * checks it towards the source as it is.  Returns 0, or 1 with the message printed. */
int cli_check_reduce(CliRun *r);
/* The same from an already made Setup (taken over: cli_run_free frees it, even on failure). */
int cli_prepare_setup(Setup *setup, unsigned simflags, CliRun *r, char *err, size_t errlen);
void cli_run_free(CliRun *r);

/* compare --by tcd (compare_tcd.c): every algorithm ranked by TCD; the exit status. */
int compare_by_tcd(const CliOpts *o);
/* The sources' distribution as "R:20" (canonical name), or "list" for a list; into buf. */
const char *cli_dist_text(const Setup *s, char *buf, size_t len);

/* Print "meshcast: MSG" on stderr and return 2. */
int cli_usage_error(const char *msg);
/* Print "meshcast: MESSAGE" as one line on stderr (through text_quote: control characters
 * and broken UTF-8 shown as '?'). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
