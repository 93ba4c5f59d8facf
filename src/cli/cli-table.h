/* cli-table.h — meshcast's subcommands and the options each takes: one table that main.c
 * dispatches from, `meshcast complete` completes from (the bash and zsh scripts call it) and
 * "did you mean" suggests from.  tests/cli/t_complete.sh checks every option listed here
 * against what the command accepts and its --help, so the table cannot drift.
 *
 * Ownership: everything returned is static. */
#ifndef MESHCAST_CLI_TABLE_H
#define MESHCAST_CLI_TABLE_H

#include <stddef.h>

/* What a command's bare (positional) words are, for completion. */
typedef enum {
    CLI_ARGS_NONE,
    CLI_ARGS_LESSON,   /* lesson NAME */
    CLI_ARGS_LIST,     /* list algorithms|lessons|... */
    CLI_ARGS_ALGO,     /* check NAME|FILE, diff A B */
    CLI_ARGS_FILE,     /* record FILE, replay FILE: the shell's own file completion */
} CliArgs;

typedef struct {
    const char *name;             /* "run"; "" is the screen (meshcast [options]) */
    int (*fn)(int argc, char **argv);
    /* the options, space separated, each "--name" or "--name=" (takes a value) */
    const char *opts;
    CliArgs args;
    int hidden;                   /* not offered by completion nor "did you mean" (complete) */
} CliCommand;

size_t cli_command_count(void);
const CliCommand *cli_command_at(size_t i);
/* The command named name (the screen's for ""), or NULL. */
const CliCommand *cli_command_find(const char *name);

/* The display options that may come before a subcommand (meshcast --theme light lesson X):
 * "--big --ascii --no-color --theme=". */
extern const char cli_display_opts[];

/* Does the option list opts hold "--name" (a flag, *takes = 0) or "--name=" (*takes = 1)?
 * name is "--x", without any "=value". */
int cli_opts_has(const char *opts, const char *name, size_t namelen, int *takes);

/* " (did you mean '--bytes'?)" for an unknown option name (the "--x" part of arg) among the
 * option list opts, or "" (into buf). */
const char *cli_opt_hint(const char *opts, const char *arg, char *buf, size_t len);
/* The same for an unknown subcommand among the table's. */
const char *cli_command_hint(const char *word, char *buf, size_t len);

#endif
