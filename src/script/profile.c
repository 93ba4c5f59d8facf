/* profile.c — machine profiles (profile.h): find, parse, apply, list. */
#include "profile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>

#include "../engine/text.h"
#include "assets.h"

typedef struct {
    char *key, *value;
} Entry;

struct Profile {
    char *name, *about, *file;
    Entry e[PROFILE_KEYS_MAX];
    size_t n;
};

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

void profile_free(Profile *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++) {
        free(p->e[i].key);
        free(p->e[i].value);
    }
    free(p->name);
    free(p->about);
    free(p->file);
    free(p);
}

const char *profile_name(const Profile *p) { return p->name; }
const char *profile_about(const Profile *p) { return p->about ? p->about : ""; }
const char *profile_file(const Profile *p) { return p->file; }

bool profile_entry(const Profile *p, size_t i, const char **key, const char **value)
{
    if (i >= p->n)
        return false;
    *key = p->e[i].key;
    *value = p->e[i].value;
    return true;
}

static bool name_ok(const char *s)
{
    if (!s[0] || s[0] == '.' || strlen(s) > 64)
        return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-' || *c == '.'))
            return false;
    return true;
}

/* ---- keys ------------------------------------------------------------------------------- */

/* Is `param` a parameter of model m (cost_param_names, or gamma, which every model takes)? */
static bool model_param(CostModel m, const char *param)
{
    if (strcmp(param, "gamma") == 0)
        return true;
    const char *const *names = cost_param_names(m);
    for (size_t i = 0; names && names[i]; i++)
        if (strcmp(names[i], param) == 0)
            return true;
    return false;
}

/* Split "model.param": the model in *m, the parameter at *param; false if no known model. */
static bool split_key(const char *key, CostModel *m, const char **param)
{
    const char *dot = strchr(key, '.');
    if (!dot)
        return false;
    char model[32];
    size_t l = (size_t)(dot - key);
    if (l >= sizeof model)
        return false;
    memcpy(model, key, l);
    model[l] = '\0';
    *param = dot + 1;
    return cost_model_parse(model, m);
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The valid key nearest to `key` into buf. */
static void nearest_key(const char *key, char *buf, size_t len)
{
    size_t best = (size_t)-1;
    snprintf(buf, len, "name");
    static const char *const fixed[] = {"name", "about", "fit.error"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        size_t d = edit_distance(key, fixed[i]);
        if (d < best) {
            best = d;
            snprintf(buf, len, "%s", fixed[i]);
        }
    }
    for (int m = 0; m < COST_NMODELS; m++) {
        const char *const *names = cost_param_names((CostModel)m);
        for (size_t i = 0;; i++) {
            const char *param = names && names[i] ? names[i] : "gamma";
            char cand[48];
            snprintf(cand, sizeof cand, "%s.%s", cost_model_name((CostModel)m), param);
            size_t d = edit_distance(key, cand);
            if (d < best) {
                best = d;
                snprintf(buf, len, "%s", cand);
            }
            if (!names || !names[i])
                break;
        }
    }
}

/* ---- parsing ---------------------------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t l = strlen(s);
    while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r'))
        s[--l] = '\0';
    return s;
}

static bool set_string(char **slot, const char *v)
{
    free(*slot);
    *slot = strdup(v);
    return *slot != NULL;
}

/* One "key = value" line (already without its comment); false with err set (no prefix). */
static bool parse_line(Profile *p, char *line, char *err, size_t errlen)
{
    char q[80];
    char *eq = strchr(line, '=');
    if (!eq) {
        snprintf(err, errlen, "expected KEY = VALUE, got '%s'", text_quote(line, 60, q, sizeof q));
        return false;
    }
    *eq = '\0';
    char *key = trim(line), *value = trim(eq + 1);
    if (!key[0]) {
        snprintf(err, errlen, "missing key before '='");
        return false;
    }
    if (!value[0]) {
        snprintf(err, errlen, "missing value for '%s'", text_quote(key, 60, q, sizeof q));
        return false;
    }
    bool dup = (strcmp(key, "name") == 0 && p->name) || (strcmp(key, "about") == 0 && p->about);
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->e[i].key, key) == 0)
            dup = true;
    if (dup) {
        snprintf(err, errlen, "'%s' given twice", text_quote(key, 60, q, sizeof q));
        return false;
    }
    if (strcmp(key, "name") == 0) {
        if (!name_ok(value)) {
            snprintf(err, errlen, "bad name '%s': letters, digits, '_', '-', '.'",
                     text_quote(value, 60, q, sizeof q));
            return false;
        }
        return set_string(&p->name, value);
    }
    if (strcmp(key, "about") == 0)
        return set_string(&p->about, value);
    CostModel m;
    const char *param;
    bool fit = strncmp(key, "fit.", 4) == 0 && key[4] && strlen(key) < 64;
    if (!fit) {
        if (!split_key(key, &m, &param) || !model_param(m, param)) {
            char near[48];
            nearest_key(key, near, sizeof near);
            snprintf(err, errlen, "unknown key '%s' (nearest: %s; keys are name, about, fit.*, "
                     "MODEL.PARAM as in meshcast list models)", text_quote(key, 60, q, sizeof q),
                     near);
            return false;
        }
        CostParams scratch;
        cost_defaults(&scratch, m);
        char why[200];
        if (!cost_set(&scratch, param, value, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", key, why);
            return false;
        }
    }
    if (p->n >= PROFILE_KEYS_MAX) {
        snprintf(err, errlen, "more than %d keys", PROFILE_KEYS_MAX);
        return false;
    }
    p->e[p->n].key = strdup(key);
    p->e[p->n].value = strdup(value);
    if (!p->e[p->n].key || !p->e[p->n].value) {
        free(p->e[p->n].key);
        free(p->e[p->n].value);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    p->n++;
    return true;
}

/* The default name: file's basename without ".profile". */
static char *base_name(const char *file)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    size_t l = strlen(b);
    if (l > 8 && strcmp(b + l - 8, ".profile") == 0)
        l -= 8;
    return dupn(b, l);
}

Profile *profile_parse(const char *text, size_t len, const char *file, char *err,
                       size_t errlen)
{
    char fq[160];
    text_quote(file, 150, fq, sizeof fq);
    if (len > PROFILE_FILE_MAX) {
        snprintf(err, errlen, "%s: larger than %d bytes", fq, PROFILE_FILE_MAX);
        return NULL;
    }
    Profile *p = calloc(1, sizeof *p);
    if (!p || !(p->file = strdup(file))) {
        free(p);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    size_t pos = 0;
    for (int lineno = 1; pos < len; lineno++) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - (text + pos)) : len - pos;
        char why[400] = "";
        char line[PROFILE_LINE_MAX + 1];
        if (l > PROFILE_LINE_MAX) {
            snprintf(why, sizeof why, "line longer than %d bytes", PROFILE_LINE_MAX);
        } else {
            memcpy(line, text + pos, l);
            line[l] = '\0';
            if (strlen(line) != l)
                snprintf(why, sizeof why, "a NUL byte");
            else if (l && line[l - 1] == '\r')
                line[l - 1] = '\0';
            if (!why[0] && !text_is_clean(line))
                snprintf(why, sizeof why, "not UTF-8 text (a control character or a broken "
                         "sequence)");
            if (!why[0]) {
                char *hash = strchr(line, '#');
                if (hash)
                    *hash = '\0';
                char *t = trim(line);
                if (t[0])
                    parse_line(p, t, why, sizeof why);
            }
        }
        if (why[0]) {
            snprintf(err, errlen, "%s:%d: %s", fq, lineno, why);
            profile_free(p);
            return NULL;
        }
        pos += l + (nl ? 1 : 0);
    }
    if (!p->name && !(p->name = base_name(file))) {
        profile_free(p);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return p;
}

/* ---- finding ---------------------------------------------------------------------------- */

static bool user_dir(char *buf, size_t len)
{
    const char *x = getenv("XDG_CONFIG_HOME");
    const char *h = getenv("HOME");
    int w;
    if (x && x[0] == '/')
        w = snprintf(buf, len, "%s/meshcast/profiles", x);
    else if (h && h[0])
        w = snprintf(buf, len, "%s/.config/meshcast/profiles", h);
    else
        return false;
    return w > 0 && (size_t)w < len;
}

bool profile_find(const char *name, char *path, size_t len)
{
    struct stat st;
    if (strchr(name, '/')) {
        snprintf(path, len, "%s", name);
        return stat(path, &st) == 0 && S_ISREG(st.st_mode);
    }
    if (!name_ok(name))
        return false;
    char dir[PATH_MAX];
    if (user_dir(dir, sizeof dir)) {
        int w = snprintf(path, len, "%s/%s.profile", dir, name);
        if (w > 0 && (size_t)w < len && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return true;
    }
    return assets_find_in("profiles", name, ".profile", path, len);
}

Profile *profile_load(const char *name, char *err, size_t errlen)
{
    char path[PATH_MAX], q[80];
    if (!strchr(name, '/') && !name_ok(name)) {
        snprintf(err, errlen, "bad profile name '%s' (letters, digits, '_', '-', '.'; "
                 "meshcast list profiles)", text_quote(name, 60, q, sizeof q));
        return NULL;
    }
    if (!profile_find(name, path, sizeof path)) {
        char *names[257], hint[96];
        size_t n = profile_list(names, 256);
        names[n] = NULL;
        snprintf(err, errlen, "no profile '%s'%s (meshcast list profiles)",
                 text_quote(name, 60, q, sizeof q),
                 text_did_you_mean(name, (const char *const *)names, hint, sizeof hint));
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", text_quote(path, 60, q, sizeof q), strerror(errno));
        return NULL;
    }
    char *buf = malloc(PROFILE_FILE_MAX + 1);
    size_t n = buf ? fread(buf, 1, PROFILE_FILE_MAX + 1, f) : 0;
    bool rerr = ferror(f);
    fclose(f);
    if (!buf || rerr) {
        free(buf);
        snprintf(err, errlen, "%s: cannot read", text_quote(path, 60, q, sizeof q));
        return NULL;
    }
    Profile *p = profile_parse(buf, n, path, err, errlen);
    free(buf);
    return p;
}

int profile_apply(const Profile *p, CostParams *c)
{
    int applied = 0;
    for (size_t i = 0; i < p->n; i++) {
        CostModel m;
        const char *param;
        char why[160];
        if (split_key(p->e[i].key, &m, &param) && m == c->model &&
            cost_set(c, param, p->e[i].value, why, sizeof why))
            applied++;
    }
    return applied;
}

/* ---- listing ---------------------------------------------------------------------------- */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t profile_list(char **out, size_t max)
{
    size_t n = 0;
    char dir[PATH_MAX];
    if (user_dir(dir, sizeof dir)) {
        DIR *d = opendir(dir);
        for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
            size_t l = strlen(e->d_name);
            if (l <= 8 || strcmp(e->d_name + l - 8, ".profile") != 0)
                continue;
            char *name = dupn(e->d_name, l - 8);
            if (name && name_ok(name))
                out[n++] = name;
            else
                free(name);
        }
        if (d)
            closedir(d);
    }
    char *shipped[256];
    size_t k = assets_list_in("profiles", ".profile", shipped, 256);
    for (size_t i = 0; i < k; i++) {
        bool dup = !name_ok(shipped[i]);
        for (size_t j = 0; j < n && !dup; j++)
            dup = strcmp(out[j], shipped[i]) == 0;
        if (dup || n >= max)
            free(shipped[i]);
        else
            out[n++] = shipped[i];
    }
    qsort(out, n, sizeof *out, cmp_names);
    return n;
}
