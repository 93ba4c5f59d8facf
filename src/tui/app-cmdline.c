/* app-cmdline.c — the App's command line: its keys (editing, history, Tab completion) and
 * running a line through the table of commands (cmdtab.h).  See app.h (app_command)
 * and app-core.h (app_cmdline_key). */
#include "app-core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdtab.h"

/* ---- commands (cmdtab.h: the table) ----------------------------------------------------- */

bool app_command(App *a, const char *line) { return cmdtab_run(a, line); }

/* ---- Tab completion (the candidates from cmdtab_candidates) ------------------------------ */

void app_cmdline_complete_clear(App *a)
{
    cmdtab_candidates_free(a->comp);
    a->comp = NULL;
    a->ncomp = 0;
    a->comp_at = -1;
}

/* Put candidate i of the listed ones on the line, in place of the word being completed. */
static void comp_put(App *a, const char *s)
{
    snprintf(a->cmd + a->comp_start, sizeof a->cmd - a->comp_start, "%s", s);
    a->cmdlen = strlen(a->cmd);
}

void app_cmdline_complete(App *a, int dir)
{
    a->cmd[a->cmdlen] = '\0';
    if (a->comp && a->ncomp > 1) {   /* a further Tab: the next candidate, around */
        int k = (int)a->ncomp;
        a->comp_at = a->comp_at < 0 ? (dir > 0 ? 0 : k - 1) : ((a->comp_at + dir) % k + k) % k;
        comp_put(a, a->comp[a->comp_at]);
        a->msg[0] = '\0';
        return;
    }
    app_cmdline_complete_clear(a);
    /* split off the last word */
    size_t start = a->cmdlen;
    while (start > 0 && a->cmd[start - 1] != ' ') start--;
    int wi = 0;
    char first[64] = "";
    for (size_t i = 0; i < start; i++)
        if (a->cmd[i] != ' ' && (i == 0 || a->cmd[i - 1] == ' ')) wi++;
    sscanf(a->cmd, "%63s", first);
    const char *word = a->cmd + start;
    size_t wl = strlen(word);
    size_t nc = 0;
    char **cand = cmdtab_candidates(a, first, wi, &nc);
    size_t nm = 0;
    for (size_t i = 0; i < nc; i++) {
        bool dup = false;   /* a name listed twice (a script next to a built-in) once */
        for (size_t j = 0; j < nm && !dup; j++) dup = strcmp(cand[j], cand[i]) == 0;
        if (strncmp(cand[i], word, wl) == 0 && !dup) {
            char *t = cand[nm];
            cand[nm++] = cand[i];
            cand[i] = t;
        }
    }
    if (nm == 0) {
        app_msg(a, true, "no completion for '%s'", word);
        cmdtab_candidates_free(cand);
        return;
    }
    /* the longest common prefix */
    size_t lcp = strlen(cand[0]);
    for (size_t i = 1; i < nm; i++) {
        size_t k = 0;
        while (k < lcp && cand[i][k] == cand[0][k]) k++;
        lcp = k;
    }
    char done[256];
    snprintf(done, sizeof done, "%.*s%.*s", (int)start, a->cmd, (int)lcp, cand[0]);
    size_t dl = strlen(done);
    if (nm == 1 && dl > 0 && done[dl - 1] != '=' && done[dl - 1] != ':' && dl + 1 < sizeof done)
        strcat(done, " ");
    snprintf(a->cmd, sizeof a->cmd, "%s", done);
    a->cmdlen = strlen(a->cmd);
    a->msg[0] = '\0';
    if (nm > 1) {   /* keep the matches: listed above the command line, Tab cycles them */
        for (size_t i = nm; i < nc; i++) { free(cand[i]); cand[i] = NULL; }
        a->comp = cand;
        a->ncomp = nm;
        a->comp_at = -1;
        a->comp_start = start;
    } else {
        cmdtab_candidates_free(cand);
    }
}

/* The text a printable key stands for ("a", "<Space>" -> " "); NULL if not printable. */
static const char *key_text(const char *key)
{
    if (strcmp(key, "<Space>") == 0) return " ";
    if (key[0] == '<' && key[1] != '\0') return NULL;
    if ((unsigned char)key[0] < 0x20) return NULL;
    return key;
}

void app_cmdline_key(App *a, const char *key)
{
    if (strcmp(key, "<Tab>") == 0 || strcmp(key, "<S-Tab>") == 0) {
        app_cmdline_complete(a, key[1] == 'T' ? 1 : -1);
        return;
    }
    app_cmdline_complete_clear(a);   /* any other key: the listed candidates go */
    if (strcmp(key, "<Escape>") == 0 || strcmp(key, "<C-c>") == 0 || strcmp(key, "<C-g>") == 0) {
        a->mode = MODE_MAP;
        return;
    }
    if (strcmp(key, "<Enter>") == 0) {
        a->cmd[a->cmdlen] = '\0';
        a->mode = MODE_MAP;
        if (a->cmdlen > 0) {
            if (a->nhist == 16) {
                memmove(a->hist[0], a->hist[1], sizeof a->hist[0] * 15);
                a->nhist--;
            }
            snprintf(a->hist[a->nhist++], sizeof a->hist[0], "%s", a->cmd);
            char line[256];
            snprintf(line, sizeof line, "%s", a->cmd);
            app_command(a, line);
        }
        return;
    }
    if (strcmp(key, "<Backspace>") == 0 || strcmp(key, "<C-h>") == 0 ||
        strcmp(key, "<DEL>") == 0) {
        if (a->cmdlen == 0) { a->mode = MODE_MAP; return; }
        /* drop one UTF-8 character */
        do a->cmdlen--; while (a->cmdlen > 0 && ((unsigned char)a->cmd[a->cmdlen] & 0xC0) == 0x80);
        a->cmd[a->cmdlen] = '\0';
        return;
    }
    if (strcmp(key, "<C-u>") == 0) { a->cmdlen = 0; a->cmd[0] = '\0'; return; }
    if (strcmp(key, "<C-w>") == 0) {
        while (a->cmdlen > 0 && a->cmd[a->cmdlen - 1] == ' ') a->cmdlen--;
        while (a->cmdlen > 0 && a->cmd[a->cmdlen - 1] != ' ') a->cmdlen--;
        a->cmd[a->cmdlen] = '\0';
        return;
    }
    if (strcmp(key, "<Up>") == 0 || strcmp(key, "<Down>") == 0) {
        int d = key[1] == 'U' ? -1 : 1;
        int at = a->hist_at + d;
        if (at < 0 || at > a->nhist) return;
        a->hist_at = at;
        snprintf(a->cmd, sizeof a->cmd, "%s", at < a->nhist ? a->hist[at] : "");
        a->cmdlen = strlen(a->cmd);
        return;
    }
    const char *t = key_text(key);
    if (t) {
        size_t l = strlen(t);
        if (a->cmdlen + l < sizeof a->cmd - 1) {
            memcpy(a->cmd + a->cmdlen, t, l);
            a->cmdlen += l;
            a->cmd[a->cmdlen] = '\0';
        }
    }
}
