/* calibrate.c — `meshcast calibrate`: measure this machine (meshcast-mpi --calibrate:
 * ping-pong over sizes and distances, contention, a local copy) and fit every model's
 * constants by least squares; print them with the fit's error; --save NAME writes a profile
 * (docs/exec.md, "Calibration"; the format of profile.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../engine/export.h"
#include "cli-opts.h"
#include "cli-table.h"
#include "cli-out.h"
#include "commands.h"
#include "calib-steps.h"
#include "exec-launch.h"

#define CAL_MAXPTS 512

typedef struct {
    int d, k;
    double m, t;   /* bytes, us */
} Pt;

typedef struct {
    Pt pp[CAL_MAXPTS], ct[CAL_MAXPTS];
    int npp, nct;
    CalStep st[CAL_MAXPTS];   /* step runs (calib-steps.h); none with --fit pingpong */
    int nst;
    double copy_m, copy_t;
} Data;

typedef struct {
    double a, b, rho, nu, err_seidel, err_nu;
    double pp_a, pp_b, err_pp;   /* the ping-pong fit (seidel's a, b with --fit pingpong) */
    bool from_steps;             /* seidel's a, b come from the step runs */
    double alpha, delta, tau, err_circuit;
} Fit;

static void calibrate_help(void)
{
    puts("usage: meshcast calibrate [--np N] [--bytes MAX] [--reps R] [--mpirun 'CMD']\n"
         "                          [--hostfile F] [--timeout SEC] [--save NAME] [--json]\n"
         "                          [--fit steps|pingpong]\n"
         "Measures this machine on N MPI ranks (default 8): ping-pong between rank 0 and ranks\n"
         "at distances 1, 2, 4, ... for 1..MAX bytes (default 1M), K pairs sending at once\n"
         "through one cut, a local copy; fits seidel a, b, rho, nu; postal t, beta; circuit\n"
         "alpha, delta, tau; prints them with the fit's error.  --save NAME writes the profile\n"
         "NAME ($XDG_CONFIG_HOME/meshcast/profiles/NAME.profile) for --profile NAME.\n"
         "--fit steps (the default): seidel a and b from step runs, K = 1, 2, 4, .. N/2\n"
         "neighbour transfers at once through exec's own path, 1K..MAX bytes (what a\n"
         "broadcast's steps cost here); --fit pingpong: from the distance-1 ping-pongs.");
}

static bool parse_data(const char *text, Data *d)
{
    memset(d, 0, sizeof *d);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        int a, b;
        double t;
        if (sscanf(l, "pp %d %d %lf", &a, &b, &t) == 3 && d->npp < CAL_MAXPTS)
            d->pp[d->npp++] = (Pt){a, 0, b, t * 1e6};
        else if (sscanf(l, "ct %d %d %lf", &a, &b, &t) == 3 && d->nct < CAL_MAXPTS)
            d->ct[d->nct++] = (Pt){0, a, b, t * 1e6};
        else if (sscanf(l, "cp %d %lf", &a, &t) == 2) {
            d->copy_m = a;
            d->copy_t = t * 1e6;
        }
    }
    return d->npp >= 2 && d->nct >= 1 && d->copy_m > 0;
}

/* Least squares y = x . c over n rows of k <= 3 columns (normal equations, Gauss-Jordan);
 * false when singular. */
static bool lsq(int n, int k, const double (*x)[3], const double *y, double *c)
{
    double A[3][4] = {{0}};
    for (int i = 0; i < n; i++)
        for (int r = 0; r < k; r++) {
            for (int s = 0; s < k; s++)
                A[r][s] += x[i][r] * x[i][s];
            A[r][k] += x[i][r] * y[i];
        }
    for (int col = 0; col < k; col++) {
        int piv = col;
        for (int r = col + 1; r < k; r++)
            if (fabs(A[r][col]) > fabs(A[piv][col]))
                piv = r;
        if (fabs(A[piv][col]) < 1e-300)
            return false;
        for (int s = 0; s <= k; s++) {
            double t = A[col][s];
            A[col][s] = A[piv][s];
            A[piv][s] = t;
        }
        for (int r = 0; r < k; r++) {
            if (r == col)
                continue;
            double f = A[r][col] / A[col][col];
            for (int s = 0; s <= k; s++)
                A[r][s] -= f * A[col][s];
        }
    }
    for (int r = 0; r < k; r++)
        c[r] = A[r][k] / A[r][r];
    return true;
}

/* Relative RMS error (%) of predictions p against measurements y. */
static double rel_rms(int n, const double *p, const double *y)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += ((p[i] - y[i]) / y[i]) * ((p[i] - y[i]) / y[i]);
    return n ? 100 * sqrt(s / n) : 0;
}

/* seidel a, b from the step runs: T = b + a*M over every (K, M) row, weighted relative (the
 * model prices disjoint transfers alike whatever K; the error says how far K matters here). */
static bool fit_steps(const Data *d, Fit *f, double (*x)[3], double *y, double *p, double *yy)
{
    int n = 0;
    for (int i = 0; i < d->nst; i++) {
        double t = d->st[i].t > 0 ? d->st[i].t : 1e-3;
        x[n][0] = 1 / t;
        x[n][1] = d->st[i].m / t;
        y[n] = 1;
        yy[n++] = t;
    }
    double c[3];
    if (!lsq(n, 2, (const double (*)[3])x, y, c))
        return false;
    f->b = c[0] > 0 ? c[0] : 0;
    f->a = c[1] > 0 ? c[1] : 0;
    for (int i = 0; i < n; i++)
        p[i] = f->b + f->a * d->st[i].m;
    f->err_seidel = rel_rms(n, p, yy);
    f->from_steps = true;
    return true;
}

/* Fits are weighted relative (each row divided by its time), so that 1-byte and 1-MiB
 * points count alike. */
static bool fit_all(const Data *d, Fit *f)
{
    double (*x)[3] = calloc(CAL_MAXPTS, sizeof *x);
    double *y = calloc(CAL_MAXPTS, sizeof *y), *p = calloc(CAL_MAXPTS, sizeof *p);
    double *yy = calloc(CAL_MAXPTS, sizeof *yy);
    bool ok = x && y && p && yy;
    int n = 0;
    /* seidel (and postal): T = b + a*m at distance 1 */
    for (int i = 0; ok && i < d->npp; i++)
        if (d->pp[i].d == 1) {
            x[n][0] = 1 / d->pp[i].t;
            x[n][1] = d->pp[i].m / d->pp[i].t;
            y[n] = 1;
            yy[n++] = d->pp[i].t;
        }
    double c[3] = {0, 0, 0};
    ok = ok && n >= 2 && lsq(n, 2, (const double (*)[3])x, y, c);
    if (ok) {
        f->b = c[0] > 0 ? c[0] : 0;
        f->a = c[1] > 0 ? c[1] : 0;
        int j = 0;
        for (int i = 0; i < d->npp; i++)
            if (d->pp[i].d == 1)
                p[j++] = f->b + f->a * d->pp[i].m;
        f->err_seidel = rel_rms(n, p, yy);
        f->pp_a = f->a;
        f->pp_b = f->b;
        f->err_pp = f->err_seidel;
        if (d->nst >= 2)
            ok = fit_steps(d, f, x, y, p, yy);
        f->rho = d->copy_t / d->copy_m;
        /* nu: the capacity 2^nu that best explains K transfers through one cut:
         * ceil(K / 2^nu) * a * M + b, searched over nu = 0..6 */
        double best = INFINITY;
        for (int nu = 0; nu <= 6; nu++) {
            for (int i = 0; i < d->nct; i++) {
                yy[i] = d->ct[i].t;
                p[i] = ceil(d->ct[i].k / ldexp(1, nu)) * f->a * d->ct[i].m + f->b;
            }
            double e = rel_rms(d->nct, p, yy);
            if (e < best) {
                best = e;
                f->nu = nu;
            }
        }
        f->err_nu = best;
    }
    /* circuit: T = alpha + d*delta + m*tau over every distance */
    n = 0;
    for (int i = 0; ok && i < d->npp; i++) {
        x[n][0] = 1 / d->pp[i].t;
        x[n][1] = d->pp[i].d / d->pp[i].t;
        x[n][2] = d->pp[i].m / d->pp[i].t;
        y[n] = 1;
        yy[n++] = d->pp[i].t;
    }
    ok = ok && lsq(n, 3, (const double (*)[3])x, y, c);
    if (ok && c[1] < 0) {   /* distance does not cost here: fit without it */
        for (int i = 0; i < n; i++)
            x[i][1] = x[i][2];
        double c2[3];
        ok = lsq(n, 2, (const double (*)[3])x, y, c2);
        c[0] = c2[0];
        c[1] = 0;
        c[2] = c2[1];
    }
    if (ok) {
        f->alpha = c[0] > 0 ? c[0] : 0;
        f->delta = c[1];
        f->tau = c[2] > 0 ? c[2] : 0;
        for (int i = 0; i < n; i++)
            p[i] = f->alpha + d->pp[i].d * f->delta + d->pp[i].m * f->tau;
        f->err_circuit = rel_rms(n, p, yy);
    }
    free(x);
    free(y);
    free(p);
    free(yy);
    return ok;
}

static bool name_ok(const char *s)
{
    if (!*s || strlen(s) > 64)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_'))
            return false;
    return true;
}

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0755) != 0 && errno != EEXIST) {
                *p = '/';
                return -1;
            }
            *p = '/';
        }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int save(const char *name, const Fit *f, int np, const char *launched, char *out,
                size_t outlen)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    char dir[1024], tmp[1200];
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%.900s/meshcast/profiles", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%.900s/.config/meshcast/profiles", home);
    else
        return -1;
    if (mkdirs(dir) != 0)
        return -1;
    snprintf(out, outlen, "%s/%s.profile", dir, name);
    snprintf(tmp, sizeof tmp, "%s/.%s.profile.tmp", dir, name);
    FILE *o = fopen(tmp, "w");
    if (!o)
        return -1;
    char b[64];
    fprintf(o, "# written by meshcast calibrate: %d MPI ranks (%s)\nname = %s\n", np, launched,
            name);
    fprintf(o, "about = this machine, measured on %d ranks by meshcast calibrate\n", np);
    fprintf(o, "seidel.a = %s\n", export_format_double(f->a, b, sizeof b));
    fprintf(o, "seidel.b = %s\n", export_format_double(f->b, b, sizeof b));
    fprintf(o, "seidel.rho = %s\n", export_format_double(f->rho, b, sizeof b));
    fprintf(o, "seidel.nu = %s\n", export_format_double(f->nu, b, sizeof b));
    fprintf(o, "postal.t = %s\n", export_format_double(f->b, b, sizeof b));
    fprintf(o, "postal.beta = %s\n", export_format_double(f->a, b, sizeof b));
    fprintf(o, "postal.rho = %s\n", export_format_double(f->rho, b, sizeof b));
    fprintf(o, "circuit.alpha = %s\n", export_format_double(f->alpha, b, sizeof b));
    fprintf(o, "circuit.delta = %s\n", export_format_double(f->delta, b, sizeof b));
    fprintf(o, "circuit.tau = %s\n", export_format_double(f->tau, b, sizeof b));
    fprintf(o, "circuit.rho = %s\n", export_format_double(f->rho, b, sizeof b));
    fprintf(o, "fit.seidel = %s%%\n", export_format_double(f->err_seidel, b, sizeof b));
    fprintf(o, "fit.seidel_from = %s\n", f->from_steps ? "step runs" : "ping-pong");
    fprintf(o, "fit.nu = %s%%\n", export_format_double(f->err_nu, b, sizeof b));
    fprintf(o, "fit.circuit = %s%%\n", export_format_double(f->err_circuit, b, sizeof b));
    bool bad = ferror(o) != 0;
    if (fclose(o) != 0 || bad || rename(tmp, out) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

static void print_fit(const Fit *f, const Data *d, int np, const char *launched, bool json)
{
    char b1[64], b2[64], b3[64], b4[64];
    if (json) {
        JsonOut j;
        json_init(&j, stdout, false);
        json_begin_object(&j);
        json_key(&j, "ranks");
        json_int(&j, np);
        json_key(&j, "launcher");
        json_str(&j, launched);
        json_key(&j, "points");
        json_int(&j, d->npp + d->nct);
        json_key(&j, "step_runs");   /* [K, bytes, median us] */
        json_begin_array(&j);
        for (int i = 0; i < d->nst; i++) {
            json_begin_array(&j);
            json_int(&j, d->st[i].k);
            json_num(&j, d->st[i].m);
            json_num(&j, d->st[i].t);
            json_end_array(&j);
        }
        json_end_array(&j);
        const char *k[] = {"seidel.a", "seidel.b", "seidel.rho", "seidel.nu", "postal.t",
                           "postal.beta", "circuit.alpha", "circuit.delta", "circuit.tau",
                           "fit.seidel", "fit.nu", "fit.circuit", "pingpong.a", "pingpong.b",
                           "fit.pingpong"};
        double v[] = {f->a, f->b, f->rho, f->nu, f->b, f->a, f->alpha, f->delta, f->tau,
                      f->err_seidel, f->err_nu, f->err_circuit, f->pp_a, f->pp_b, f->err_pp};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            json_key(&j, k[i]);
            json_num(&j, v[i]);
        }
        json_end_object(&j);
        fputc('\n', stdout);
        return;
    }
    printf("measured on %d ranks (%s): %d ping-pongs, %d contention runs, a local copy\n", np,
           launched, d->npp, d->nct);
    printf("seidel:   a = %s us/B  b = %s us  rho = %s us/B   (fit error %s%%",
           export_format_double(f->a, b1, sizeof b1), export_format_double(f->b, b2, sizeof b2),
           export_format_double(f->rho, b3, sizeof b3),
           export_format_double(f->err_seidel, b4, sizeof b4));
    if (d->nst)
        printf(" over %d step runs: K = 1..%d transfers at once, 1K..%s bytes)\n", d->nst,
               np / 2, export_format_double(d->st[d->nst - 1].m, b1, sizeof b1));
    else
        printf(" over the distance-1 ping-pongs)\n");
    if (d->nst)
        printf("          ping-pong alone: a = %s us/B  b = %s us   (fit error %s%%; not used)\n",
               export_format_double(f->pp_a, b1, sizeof b1),
               export_format_double(f->pp_b, b2, sizeof b2),
               export_format_double(f->err_pp, b3, sizeof b3));
    printf("          nu = %s   (K transfers through one cut; fit error %s%%)\n",
           export_format_double(f->nu, b1, sizeof b1),
           export_format_double(f->err_nu, b2, sizeof b2));
    printf("postal:   t = %s us  beta = %s us/B   (the seidel fit: t + beta*B)\n",
           export_format_double(f->b, b1, sizeof b1), export_format_double(f->a, b2, sizeof b2));
    printf("circuit:  alpha = %s us  delta = %s us/hop  tau = %s us/B   (fit error %s%%)\n",
           export_format_double(f->alpha, b1, sizeof b1),
           export_format_double(f->delta, b2, sizeof b2),
           export_format_double(f->tau, b3, sizeof b3),
           export_format_double(f->err_circuit, b4, sizeof b4));
}

int cmd_calibrate(int argc, char **argv)
{
    ExecLaunch l;
    memset(&l, 0, sizeof l);
    l.np = 8;
    l.reps = 10;
    l.timeout = 300;
    long maxb = 1 << 20;
    const char *name = NULL;
    bool json = false, steps = true;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            calibrate_help();
            return 0;
        }
        if (!strcmp(a, "--json")) {
            json = true;
            continue;
        }
        if (!v)
            return cli_usage_error("calibrate: an option without its value (meshcast calibrate --help)");
        i++;
        if (!strcmp(a, "--np")) {
            l.np = (int)strtol(v, &end, 10);
            if (*end || l.np < 2 || l.np > 4096)
                return cli_usage_error("--np takes 2..4096");
        } else if (!strcmp(a, "--reps")) {
            l.reps = (int)strtol(v, &end, 10);
            if (*end || l.reps < 1 || l.reps > 10000)
                return cli_usage_error("--reps takes 1..10000");
        } else if (!strcmp(a, "--bytes")) {
            maxb = strtol(v, &end, 10);
            if (*end == 'K' || *end == 'M')
                maxb <<= *end++ == 'K' ? 10 : 20;
            if (*end || maxb < 1024 || maxb > (1L << 28))
                return cli_usage_error("--bytes takes 1K..256M (the largest message)");
        } else if (!strcmp(a, "--timeout")) {
            l.timeout = strtod(v, &end);
            if (*end || !(l.timeout > 0 && l.timeout <= 86400))
                return cli_usage_error("--timeout takes seconds, 0 < SEC <= 86400");
        } else if (!strcmp(a, "--mpirun")) {
            l.mpirun = v;
        } else if (!strcmp(a, "--hostfile")) {
            l.hostfile = v;
        } else if (!strcmp(a, "--fit")) {
            if (strcmp(v, "steps") && strcmp(v, "pingpong"))
                return cli_usage_error("--fit takes steps or pingpong");
            steps = strcmp(v, "steps") == 0;
        } else if (!strcmp(a, "--save")) {
            if (!name_ok(v))
                return cli_usage_error("--save takes a name of letters, digits, '-' and '_'");
            name = v;
        } else {
            char hint[96];
            cli_error("calibrate: unknown option '%s'%s (meshcast calibrate --help)", a,
                      cli_opt_hint(cli_command_find("calibrate")->opts, a, hint, sizeof hint));
            return 2;
        }
    }
    char args[128], launched[512], err[512];
    snprintf(args, sizeof args, "--calibrate %ld --reps %d --timeout %g", maxb, l.reps,
             l.timeout);
    char *out = NULL;
    int rc = exec_run_raw(&l, args, &out, launched, sizeof launched, err, sizeof err);
    if (rc) {
        cli_error("calibrate: %s", err);
        return rc;
    }
    Data *d = malloc(sizeof *d);
    Fit f;
    memset(&f, 0, sizeof f);
    if (!d || !parse_data(out, d)) {
        cli_error("calibrate: the measurements could not be fitted (too few or degenerate)");
        free(d);
        free(out);
        return 1;
    }
    free(out);
    if (steps && (rc = calib_steps(&l, maxb, d->st, CAL_MAXPTS, &d->nst, err, sizeof err)) != 0) {
        cli_error("calibrate: the step runs: %s", err);
        free(d);
        return rc;
    }
    if (!fit_all(d, &f)) {
        cli_error("calibrate: the measurements could not be fitted (too few or degenerate)");
        free(d);
        return 1;
    }
    print_fit(&f, d, l.np, launched, json);
    if (name) {
        char path[1400];
        if (save(name, &f, l.np, launched, path, sizeof path) != 0) {
            cli_error("calibrate: cannot write the profile '%s'", name);
            rc = 1;
        } else if (!json) {
            printf("saved:    %s (use --profile %s)\n", path, name);
        }
    }
    free(d);
    return cli_out_finish(rc);
}
