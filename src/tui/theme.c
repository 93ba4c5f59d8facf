/* theme.c — colours, attributes and glyphs (see theme.h). */
#include "theme.h"

#include <curses.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/num.h"
#include "../engine/text.h"
#include "assets.h"

typedef struct {
    const char *name;
    short fg, bg;         /* 256 colours; -1 default */
    short fg8, bg8;       /* 8-colour fallback */
    int attr;             /* with colour */
    int mono;             /* without colour */
} RoleDef;

#define B A_BOLD
#define D A_DIM
#define V A_REVERSE
#define U A_UNDERLINE
static const RoleDef builtin[R_NROLES] = {
    [R_NORMAL]   = {"normal", -1, -1, -1, -1, 0, 0},
    [R_DIM]      = {"dim", 244, -1, COLOR_WHITE, -1, 0, D},
    [R_TITLE]    = {"title", 231, 24, COLOR_WHITE, COLOR_BLUE, B, V | B},
    [R_FULL]     = {"full", 16, 114, COLOR_BLACK, COLOR_GREEN, 0, B},
    [R_PARTIAL]  = {"partial", 16, 221, COLOR_BLACK, COLOR_YELLOW, 0, 0},
    [R_EMPTY]    = {"empty", 248, 237, COLOR_WHITE, -1, 0, D},
    [R_RECV]     = {"recv", 231, 161, COLOR_WHITE, COLOR_MAGENTA, B | U, U | B},
    [R_SOURCE]   = {"source", 16, 75, COLOR_BLACK, COLOR_CYAN, B, B | U},
    [R_LINK]     = {"link", 240, -1, COLOR_WHITE, -1, 0, D},
    [R_CIRCUIT]  = {"circuit", 45, -1, COLOR_CYAN, -1, B, B},
    [R_OVERLOAD] = {"overload", 231, 196, COLOR_WHITE, COLOR_RED, B, V | B},
    [R_CONFLICT] = {"conflict", 231, 196, COLOR_WHITE, COLOR_RED, B, V | B},
    [R_CURSOR]   = {"cursor", 16, 231, COLOR_BLACK, COLOR_WHITE, B, V},
    [R_HILITE]   = {"hilite", 16, 213, COLOR_BLACK, COLOR_MAGENTA, B, U | B},
    [R_HEAD]     = {"head", 81, -1, COLOR_CYAN, -1, B, B | U},
    [R_GOOD]       = {"ok", 114, -1, COLOR_GREEN, -1, B, B},
    [R_BAD]      = {"bad", 203, -1, COLOR_RED, -1, B, B | U},
    [R_KEY]      = {"key", 221, -1, COLOR_YELLOW, -1, B, B},
    [R_STATUS]   = {"status", 252, 236, COLOR_WHITE, COLOR_BLUE, 0, V},
    [R_C1]       = {"c1", 45, -1, COLOR_CYAN, -1, B, B},
    [R_C2]       = {"c2", 214, -1, COLOR_YELLOW, -1, B, 0},
    [R_C3]       = {"c3", 114, -1, COLOR_GREEN, -1, B, B},
    [R_C4]       = {"c4", 205, -1, COLOR_MAGENTA, -1, B, 0},
    [R_C5]       = {"c5", 141, -1, COLOR_BLUE, -1, B, B},
    [R_C6]       = {"c6", 203, -1, COLOR_RED, -1, B, 0},
    /* s-to-p grades, empty -> full: pale, amber, yellow-green (mono: dim, plain, bold) */
    [R_G1]       = {"g1", 16, 224, COLOR_BLACK, COLOR_WHITE, 0, D},
    [R_G2]       = {"g2", 16, 221, COLOR_BLACK, COLOR_YELLOW, 0, 0},
    [R_G3]       = {"g3", 16, 150, COLOR_BLACK, COLOR_GREEN, 0, B},
    /* the overview's overload grades, peak load 2-3, 4-7, 8+: amber, red, purple (mono:
     * bold, reverse, reverse bold underlined; the digit says the load as well) */
    [R_OV1]      = {"over1", 16, 214, COLOR_BLACK, COLOR_YELLOW, B, B},
    [R_OV2]      = {"over2", 231, 196, COLOR_WHITE, COLOR_RED, B, V},
    [R_OV3]      = {"over3", 231, 90, COLOR_WHITE, COLOR_MAGENTA, B, V | B | U},
};
#undef B
#undef D
#undef V
#undef U

static RoleDef roles[R_NROLES];
static int attrs[R_NROLES];
static bool use_color;
static const Glyphs *glyphs;

static const Glyphs utf8_glyphs = {
    .full = "\u2588", .partial = "\u2592", .empty = "\u00b7",
    .pk_have = "\u25a0", .pk_miss = "\u00b7",
    .h_idle = "\u2500", .v_idle = "\u2502", .h_line = "\u2501", .v_line = "\u2503",
    .btl = "\u250f", .btr = "\u2513", .bbl = "\u2517", .bbr = "\u251b", .bh = "\u2501",
    .right = "\u25b6", .left = "\u25c0", .both_h = "\u2194",
    .down = "\u25bc", .up = "\u25b2", .both_v = "\u2195",
    .recv_mark = "\u2022", .vbar = "\u2502", .hbar = "\u2500",
    .tl = "\u250c", .tr = "\u2510", .bl = "\u2514", .br = "\u2518",
    .play = "\u25b6", .pause = "\u2016", .cross = "\u00d7",
    .more_l = "\u21e0", .more_r = "\u21e2", .more_u = "\u21e1", .more_d = "\u21e3",
    .cut = "\u2026",
    .grade = {"\u2591", "\u2592", "\u2593"},
};
static const Glyphs ascii_glyphs = {
    .full = "#", .partial = "+", .empty = ".",
    .pk_have = "#", .pk_miss = ".",
    .h_idle = "-", .v_idle = "|", .h_line = "=", .v_line = "H",
    .btl = "+", .btr = "+", .bbl = "+", .bbr = "+", .bh = "=",
    .right = ">", .left = "<", .both_h = "X",
    .down = "v", .up = "^", .both_v = "X",
    .recv_mark = "*", .vbar = "|", .hbar = "-",
    .tl = "+", .tr = "+", .bl = "+", .br = "+",
    .play = ">", .pause = "=", .cross = "x",
    .more_l = "{", .more_r = "}", .more_u = "~", .more_d = "_",
    .cut = "~",
    .grade = {"1", "2", "3"},
};

static int parse_attr_word(const char *w)
{
    if (strcmp(w, "bold") == 0) return A_BOLD;
    if (strcmp(w, "dim") == 0) return A_DIM;
    if (strcmp(w, "reverse") == 0) return A_REVERSE;
    if (strcmp(w, "underline") == 0) return A_UNDERLINE;
    return -1;
}

/* Load "ROLE FG BG [ATTR]..." lines into roles[]. */
static bool load_theme(const char *path, char *err, size_t errlen)
{
    /* a regular file of at most THEME_MAX bytes (never wait on a FIFO), read a whole line at
     * a time (a long comment is one line, its tail never read as another) */
    enum { THEME_MAX = 1 << 20 };
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "cannot open theme %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return false;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > THEME_MAX) {
        snprintf(err, errlen, "theme %s: %s", path,
                 S_ISREG(st.st_mode) ? "over 1 MiB, not a theme" : "not a regular file");
        close(fd);
        return false;
    }
    FILE *f = fdopen(fd, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open theme %s: %s", path, strerror(errno));
        close(fd);
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    bool ok = true;
    while (getline(&line, &cap, f) >= 0) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        char *save = NULL;
        char *name = strtok_r(p, " \t\n", &save);
        char *fg = strtok_r(NULL, " \t\n", &save);
        char *bg = strtok_r(NULL, " \t\n", &save);
        int r;
        for (r = 0; r < R_NROLES; r++)
            if (name && strcmp(roles[r].name, name) == 0)
                break;
        int64_t vf = -2, vb = -2;   /* num.h's one rule: -1 or 0..255, decimal */
        if (fg && num_i64(fg, &vf) != NUM_OK)
            vf = -2;
        if (bg && num_i64(bg, &vb) != NUM_OK)
            vb = -2;
        if (r == R_NROLES || !fg || !bg || vf < -1 || vf > 255 || vb < -1 || vb > 255) {
            snprintf(err, errlen, "%s:%d: expected ROLE FG BG [bold|dim|reverse|underline]",
                     path, lineno);
            ok = false;
            break;
        }
        roles[r].fg = (short)vf;
        roles[r].bg = (short)vb;
        roles[r].attr = 0;
        for (char *w; (w = strtok_r(NULL, " \t\n", &save));) {
            int a = parse_attr_word(w);
            if (a < 0) {
                snprintf(err, errlen, "%s:%d: unknown attribute '%s'", path, lineno, w);
                ok = false;
                break;
            }
            roles[r].attr |= a;
        }
        if (!ok) break;
    }
    free(line);
    fclose(f);
    return ok;
}

bool theme_name_ok(const char *name)
{
    size_t n = 0;
    for (; name[n]; n++) {
        char c = name[n];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return false;
    }
    return n > 0 && n <= 48;
}

/* Load the roles of theme `name` (the built-in ones first). */
static bool load_named(const char *name, char *err, size_t errlen)
{
    if (errlen) err[0] = '\0';
    memcpy(roles, builtin, sizeof roles);
    if (!name || !*name || strcmp(name, "default") == 0)
        return true;
    if (!theme_name_ok(name)) {
        snprintf(err, errlen, "a theme is a name (letters, digits, - and _), not '%.60s'", name);
        return false;
    }
    char path[PATH_MAX];
    if (!assets_find(name, ".theme", path, sizeof path)) {
        char *names[16];
        size_t n = theme_list(names, 16);
        char list[200] = "default";
        for (size_t i = 0; i < n; i++) {
            size_t l = strlen(list);
            if (strcmp(names[i], "default") != 0)
                snprintf(list + l, sizeof list - l, ", %s", names[i]);
            free(names[i]);
        }
        char *all[18], hint[96];
        size_t na = theme_list(all, 16);
        all[na] = (char *)"default";
        all[na + 1] = NULL;
        text_did_you_mean(name, (const char *const *)all, hint, sizeof hint);
        for (size_t i = 0; i < na; i++)
            free(all[i]);
        snprintf(err, errlen, "no theme '%s'%s (themes: %s)", name, hint, list);
        return false;
    }
    return load_theme(path, err, errlen);
}

bool theme_check(const char *name, char *err, size_t errlen)
{
    return load_named(name, err, errlen);
}

bool theme_init(bool color, bool ascii, const char *name, char *err, size_t errlen)
{
    glyphs = ascii ? &ascii_glyphs : &utf8_glyphs;
    bool ok = load_named(name, err, errlen);
    if (!ok) memcpy(roles, builtin, sizeof roles);
    use_color = color && has_colors();
    if (use_color && start_color() == ERR)
        use_color = false;
    if (use_color) {
        use_default_colors();
        bool c256 = COLORS >= 256;
        for (int r = 0; r < R_NROLES; r++) {
            short fg = c256 ? roles[r].fg : roles[r].fg8;
            short bg = c256 ? roles[r].bg : roles[r].bg8;
            if (r + 1 < COLOR_PAIRS)
                init_pair((short)(r + 1), fg, bg);
            attrs[r] = (int)COLOR_PAIR(r + 1) | roles[r].attr;
        }
    } else {
        for (int r = 0; r < R_NROLES; r++)
            attrs[r] = roles[r].mono;
    }
    return ok;
}

void theme_role(Role r, int *fg, int *bg, int *attr, int *mono)
{
    if (r >= R_NROLES) r = R_NORMAL;
    *fg = roles[r].fg;
    *bg = roles[r].bg;
    *attr = roles[r].attr;
    *mono = roles[r].mono;
}

int theme_attr(Role r) { return r < R_NROLES ? attrs[r] : 0; }
const Glyphs *theme_glyphs(void) { return glyphs ? glyphs : &utf8_glyphs; }
bool theme_color(void) { return use_color; }

size_t theme_list(char **out, size_t max)
{
    return assets_list(".theme", out, max);
}
