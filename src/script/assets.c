/* assets.c — the asset search path (see assets.h). */
#include "assets.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MESHCAST_SHAREDIR
#define MESHCAST_SHAREDIR "/usr/local/share/meshcast"
#endif

/* The i-th candidate directory into buf; false past the last. */
static bool asset_dir(int i, char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n;
    switch (i) {
    case 0: {
        const char *e = getenv("MESHCAST_ASSETS");
        if (!e || !*e) { buf[0] = '\0'; return true; }
        snprintf(buf, len, "%s", e);
        return true;
    }
    case 1:
    case 2:
        n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) { buf[0] = '\0'; return true; }
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        if (strlen(exe) + 12 > len) { buf[0] = '\0'; return true; }
        memcpy(buf, exe, strlen(exe) + 1);
        strcat(buf, i == 1 ? "/assets" : "/../assets");
        return true;
    case 3:
        snprintf(buf, len, "%s/assets", MESHCAST_SHAREDIR);
        return true;
    default:
        return false;
    }
}

/* The i-th candidate directory with "/sub" appended (sub NULL: none); false past the last. */
static bool sub_dir(int i, const char *sub, char *buf, size_t len)
{
    if (!asset_dir(i, buf, len))
        return false;
    if (buf[0] && sub) {
        size_t l = strlen(buf);
        int w = snprintf(buf + l, len - l, "/%s", sub);
        if (w < 0 || (size_t)w >= len - l)
            buf[0] = '\0';
    }
    return true;
}

bool assets_find_in(const char *sub, const char *name, const char *ext, char *path,
                    size_t len)
{
    struct stat st;
    if (strchr(name, '/')) {
        snprintf(path, len, "%s", name);
        return stat(path, &st) == 0;
    }
    char dir[PATH_MAX];
    for (int i = 0; sub_dir(i, sub, dir, sizeof dir); i++) {
        if (!dir[0]) continue;
        int w = snprintf(path, len, "%s/%s%s", dir, name, ext);
        if (w > 0 && (size_t)w < len && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return true;
    }
    return false;
}

bool assets_find(const char *name, const char *ext, char *path, size_t len)
{
    return assets_find_in(NULL, name, ext, path, len);
}

size_t assets_list_in(const char *sub, const char *ext, char **out, size_t max)
{
    size_t n = 0, el = strlen(ext);
    char dir[PATH_MAX];
    for (int i = 0; sub_dir(i, sub, dir, sizeof dir); i++) {
        if (!dir[0]) continue;
        DIR *d = opendir(dir);
        if (!d) continue;
        for (struct dirent *e; (e = readdir(d)) && n < max;) {
            size_t l = strlen(e->d_name);
            if (l <= el || strcmp(e->d_name + l - el, ext) != 0) continue;
            char *name = strndup(e->d_name, l - el);
            if (!name) continue;
            bool dup = false;
            for (size_t k = 0; k < n; k++)
                if (strcmp(out[k], name) == 0) dup = true;
            if (dup) { free(name); continue; }
            out[n++] = name;
        }
        closedir(d);
    }
    return n;
}

size_t assets_list(const char *ext, char **out, size_t max)
{
    return assets_list_in(NULL, ext, out, max);
}
