/* export.h — JSON and CSV of a schedule and of a simulated run (libc only).
 *
 * A small streaming JSON writer (JsonOut) and four exporters built on it:
 *   export_run_json       one object: the run's summary (the `meshcast run --json` contract)
 *   export_run_csv        one row per step: its cost breakdown and contention, then a total
 *   export_schedule_json  the whole schedule, step by step, transfer by transfer
 *   export_schedule_csv   one row per transfer or local operation
 *
 * Numbers: integers are printed exactly; doubles with at most 12 significant digits and no
 * trailing zeros (627.68, not 627.6800000000001 — floating-point noise far below the model's
 * precision must not leak into golden files); NaN and infinities become null.  Strings are
 * escaped per RFC 8259 (quote, backslash, control characters; other valid UTF-8 passes through).
 *
 * Ownership: nothing is allocated that outlives a call; the FILE is the caller's.  Write errors
 * are sticky in the FILE (check ferror); an exporter stops at the first one (within 256
 * transfers) instead of formatting the rest.  Strings also escape C1 controls (JSON), and a
 * CSV field shows control characters as '?' (CSV has no escape for them).
 */
#ifndef MESHCAST_EXPORT_H
#define MESHCAST_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sched.h"
#include "reduce.h"
#include "sim.h"

#define JSON_MAXDEPTH 32

typedef struct {
    FILE *f;
    int depth;
    bool pretty;                     /* newlines and two-space indentation */
    bool first[JSON_MAXDEPTH + 1];   /* nothing written yet at this depth */
    bool after_key;
} JsonOut;

void json_init(JsonOut *j, FILE *f, bool pretty);
void json_begin_object(JsonOut *j);
void json_end_object(JsonOut *j);
void json_begin_array(JsonOut *j);
void json_end_array(JsonOut *j);
void json_key(JsonOut *j, const char *key);          /* inside an object, before a value */
void json_str(JsonOut *j, const char *s);            /* NULL: null */
void json_num(JsonOut *j, double v);                 /* 12 significant digits */
void json_int(JsonOut *j, int64_t v);
void json_uint(JsonOut *j, uint64_t v);
void json_bool(JsonOut *j, bool v);
void json_null(JsonOut *j);
/* The cost model's parameters as keys of the object being written ("a": 0.08, "b": 75, ...),
 * in cost_param_names' order: run --json, compare and exec write them the same way. */
void json_cost_params(JsonOut *j, const CostParams *p);
/* Write s as a JSON string literal (with quotes) to f. */
void json_write_string(FILE *f, const char *s);
/* Format v as export does (12 significant digits, "null" if not finite) into buf. */
char *export_format_double(double v, char *buf, size_t len);

/* simulated - predicted, or exactly 0 when they agree to a relative 1e-9 (float noise). */
double export_difference(double simulated, double predicted);

/* Write s as one CSV field (quoted if it holds a comma, quote, or line break). */
void csv_field(FILE *f, const char *s);

/* What a run's report needs beyond the Sim. */
typedef struct {
    const char *algo;          /* name */
    const char *algo_ref;      /* where it comes from, may be NULL */
    const char *fit;           /* "none", "companions", "virtual" */
    bool has_predicted;
    double predicted;
    const char *predicted_none;  /* no prediction: why, for these settings (NULL: nothing said) */
    const char *predicted_note;  /* a prediction the run is known to differ from: why (NULL) */
    bool has_predicted_tcd;    /* the closed form of the TCD (algo_predict_tcd) */
    double predicted_tcd;
    /* Algorithm parameters (name, value), and the cost parameters come from the Sim. */
    const char *const *param_names;
    const double *param_values;
    int nparams;
    size_t max_violations;     /* how many violation objects to list (0: all kept) */
    const Reduce *reduce;      /* --op reduce: "op" and "reduction" are written; else NULL */
    bool has_async;            /* timed asynchronously too: "timing": "async", "async_total" */
    double async_total;
    int64_t async_channel_waits;  /* hxbar, async: "channel_waits", "channel_wait" (summed) */
    double async_channel_wait;
    const char *dist;          /* s-to-p: the sources' distribution ("R:20", "list"), or NULL */
} ExportRun;

/* A route as "x+8 y-4" (x: the fastest dimension, then y, z); "" for an empty route. */
char *export_route_text(const Net *net, const NetSeg *seg, int nseg, char *buf, size_t len);

void export_run_json(FILE *f, Sim *sim, const ExportRun *info, bool pretty);
void export_run_csv(FILE *f, Sim *sim);
/* sim may be NULL (no per-step cost or loads); otherwise it must simulate s. */
void export_schedule_json(FILE *f, const Sched *s, Sim *sim, bool pretty);
void export_schedule_csv(FILE *f, const Sched *s, Sim *sim);

#endif
