/* goal-algo.c — a GOAL file as a meshcast algorithm: ranks on nodes (row-major or a --map
 * file), the planned steps built into the schedule (goal.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "goal-internal.h"

typedef struct {
    AlgoDef def;         /* first: the def's address is the GoalDef's */
    GoalProg *prog;
    int32_t *node_of_rank; /* NULL: rank r on node r */
    char name[256];
    char summary[160];
} GoalDef;

bool goal_is_path(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n > 5 && strcmp(name + n - 5, ".goal") == 0;
}

bool goal_build(const GoalProg *g, Sched *s, const int32_t *node_of_rank)
{
    for (int32_t st = 0; st < g->nsteps; st++) {
        if (sched_step(s) < 0)
            return false;
        int64_t a = g->step_first[st], b = g->step_first[st + 1];
        if (!sched_reserve(s, b - a, 0))
            return false;
        for (int64_t i = a; i < b; i++) {
            const GoalXfer *x = &g->xf[i];
            int32_t src = node_of_rank ? node_of_rank[x->src] : x->src;
            int32_t dst = node_of_rank ? node_of_rank[x->dst] : x->dst;
            if (!sched_send_range(s, src, dst, x->lo, x->hi))
                return false;
        }
    }
    return true;
}

static const GoalDef *gd(const AlgoDef *d) { return (const GoalDef *)d; }

static bool goal_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                      size_t errlen)
{
    const GoalDef *g = gd(d);
    int32_t src = goal_algo_source(d);
    if (net_size(net) != g->prog->nranks) {
        snprintf(err, errlen, "%s has %ld ranks but %s has %ld nodes (one rank per node)",
                 d->name, (long)g->prog->nranks, net_spec(net), (long)net_size(net));
        return false;
    }
    if (a->source != src) {
        char b[48];
        snprintf(err, errlen, "%s broadcasts from rank %ld, node %s: --source does not apply",
                 d->name, (long)g->prog->source, net_node_name(net, src, b, sizeof b));
        return false;
    }
    return true;
}

static uint32_t goal_chunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)net, (void)a;
    return gd(d)->prog->nchunks;
}

static bool goal_def_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)a;
    return goal_build(gd(d)->prog, s, gd(d)->node_of_rank);
}

static void goal_release(AlgoDef *d)
{
    GoalDef *g = (GoalDef *)d;
    goal_free(g->prog);
    free(g->node_of_rank);
    free(g);
}

bool goal_is_algo(const AlgoDef *d) { return d && d->release == goal_release; }
uint64_t goal_algo_bytes(const AlgoDef *d) { return gd(d)->prog->bytes; }

int32_t goal_algo_source(const AlgoDef *d)
{
    const GoalDef *g = gd(d);
    return g->node_of_rank ? g->node_of_rank[g->prog->source] : g->prog->source;
}

/* One token of a map file as a node of net, or -1 with the message. */
static int32_t map_node(const Net *net, const char *tok, const char *path, unsigned long line,
                        char *err, size_t errlen)
{
    int32_t v = net_parse_node(net, tok);
    if (v < 0)
        snprintf(err, errlen, "%s:%lu: '%.40s' is not a node of %s", path, line, tok,
                 net_spec(net));
    return v;
}

int32_t *goal_read_map(const char *path, const Net *net, int32_t nranks, char *err,
                       size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open map %s: %s", path, strerror(errno));
        return NULL;
    }
    int32_t *map = malloc((size_t)nranks * sizeof *map);
    uint8_t *used = calloc((size_t)net_size(net), 1);
    int32_t n = 0;
    unsigned long line = 0;
    char buf[256];
    bool ok = map && used;
    if (!ok)
        snprintf(err, errlen, "out of memory");
    while (ok && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            ok = false;
            snprintf(err, errlen, "%s:%lu: line too long", path, line);
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        for (char *tok = strtok(buf, " \t\r\n"); ok && tok; tok = strtok(NULL, " \t\r\n")) {
            int32_t v = map_node(net, tok, path, line, err, errlen);
            if (v < 0) {
                ok = false;
            } else if (n == nranks) {
                ok = false;
                snprintf(err, errlen, "%s:%lu: more nodes than the %ld ranks", path, line,
                         (long)nranks);
            } else if (used[v]) {
                ok = false;
                snprintf(err, errlen, "%s:%lu: node %s given twice", path, line, tok);
            } else {
                used[v] = 1;
                map[n++] = v;
            }
        }
    }
    if (ok && n != nranks) {
        ok = false;
        snprintf(err, errlen, "%s: %ld nodes for %ld ranks", path, (long)n, (long)nranks);
    }
    fclose(f);
    free(used);
    if (!ok) {
        free(map);
        return NULL;
    }
    return map;
}

AlgoDef *goal_algo(const char *path, const Net *net, const char *map_path, char *err,
                   size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    GoalProg *prog = goal_read(f, path, err, errlen);
    fclose(f);
    if (!prog)
        return NULL;
    GoalDef *g = calloc(1, sizeof *g);
    if (!g) {
        goal_free(prog);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->prog = prog;
    if (map_path) {
        if (net_size(net) != prog->nranks) {
            snprintf(err, errlen, "%s has %ld ranks but %s has %ld nodes (one rank per node)",
                     path, (long)prog->nranks, net_spec(net), (long)net_size(net));
            goal_release(&g->def);
            return NULL;
        }
        g->node_of_rank = goal_read_map(map_path, net, prog->nranks, err, errlen);
        if (!g->node_of_rank) {
            goal_release(&g->def);
            return NULL;
        }
    }
    const char *base = strrchr(path, '/');
    snprintf(g->name, sizeof g->name, "%s", base ? base + 1 : path);
    snprintf(g->summary, sizeof g->summary, "GOAL schedule: %ld ranks, %lld sends in %ld steps",
             (long)prog->nranks, (long long)prog->nxf, (long)prog->nsteps);
    g->def = (AlgoDef){
        .name = g->name, .summary = g->summary, .ref = "LogGOPSim's GOAL (docs/goal.md)",
        .nets = ~0u, .fits = goal_fits, .nchunks = goal_chunks, .build = goal_def_build,
        .ud = g, .release = goal_release,
    };
    return &g->def;
}
