/* app-cmdline.c — the App's command line: its keys (editing, history, Tab completion) and
 * running a line through the table of commands (cmdtab.h).  See app.h (app_command)
 * and app-core.h (app_cmdline_key). */
#include "app-core.h"

#include <stdio.h>
#include <string.h>

#include "cmdtab.h"

/* ---- commands (cmdtab.h: the table) ----------------------------------------------------- */

bool app_command(App *a, const char *line) { return cmdtab_run(a, line); }

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
        cmdtab_complete(a, key[1] == 'T' ? 1 : -1);
        return;
    }
    cmdtab_complete_clear(a);   /* any other key: the listed candidates go */
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
