/* commands.h — the subcommands of `meshcast`; main.c dispatches to them.
 *
 * Each gets the arguments after the subcommand's name (cmd_tui: every argument after the
 * program name) and returns the exit status: 0 verified and valid, 1 a schedule that is wrong
 * or violates the model, 2 a usage error (one line on stderr).
 */
#ifndef MESHCAST_COMMANDS_H
#define MESHCAST_COMMANDS_H

int cmd_run(int argc, char **argv);       /* run.c */
int cmd_schedule(int argc, char **argv);  /* schedule.c */
int cmd_compare(int argc, char **argv);   /* compare.c */
int cmd_tradeoff(int argc, char **argv);  /* tradeoff.c: Sanders & Sibeyn's Fig. 3 */
int cmd_compare_stop(int argc, char **argv); /* compare_stop.c: compare --sources (s-to-p) */
int cmd_compare_sweep(int argc, char **argv); /* compare_sweep.c: compare --sweep P=LO:HI */
int cmd_list(int argc, char **argv);      /* list.c */
int cmd_check(int argc, char **argv);     /* cmd_check.c (the Lua layer's command) */
int cmd_tui(int argc, char **argv);       /* cmd_tui.c: `meshcast [--net ...]` */
int cmd_lesson(int argc, char **argv);    /* cmd_tui.c: `meshcast lesson NAME|FILE` */
int cmd_record(int argc, char **argv);    /* cmd_tui.c: `meshcast record FILE [options]` */
int cmd_replay(int argc, char **argv);    /* cmd_tui.c: `meshcast replay FILE [--step N]` */
int cmd_tcd_table(int argc, char **argv); /* tcd_table.c: Cang & Wu's per-source TCD grid */
int cmd_diff(int argc, char **argv);     /* diff.c: two schedules, step by step */
int cmd_exec(int argc, char **argv);      /* exec.c: run a schedule on MPI ranks (meshcast-mpi) */
int cmd_calibrate(int argc, char **argv); /* calibrate.c: fit the models to this machine */
int cmd_advise(int argc, char **argv);    /* advise.c: the fastest algorithm by simulation */
int cmd_course(int argc, char **argv);    /* course.c: the lessons in the course's order */
int cmd_progress(int argc, char **argv);  /* course.c: the student's progress, --reset */
int cmd_complete(int argc, char **argv);  /* complete.c: the shell completion scripts' candidates */
void course_list_lessons(void);           /* course.c: `list lessons` */

#endif
