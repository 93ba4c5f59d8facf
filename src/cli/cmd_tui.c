/* PLACEHOLDER until the terminal UI lands. */
#include <stdio.h>

#include "commands.h"

int cmd_tui(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "meshcast: the terminal UI is not implemented yet\n");
    return 2;
}

int cmd_lesson(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "meshcast: lessons are not implemented yet\n");
    return 2;
}
