/* compare.c — `meshcast compare` (being written). */
#include <stdio.h>

#include "commands.h"

int cmd_compare(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "meshcast: compare is not implemented yet\n");
    return 2;
}
