/* cli-out.c — write errors on standard output (see cli-out.h). */
#include "cli-out.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli-opts.h"

static int saved_errno = -1;   /* -1: no failure seen yet */

bool cli_out_failed(void)
{
    if (saved_errno >= 0)
        return true;
    if (!ferror(stdout))
        return false;
    /* the failing write was the last thing stdio did: its errno is still there */
    saved_errno = errno;
    return true;
}

int cli_out_finish(int rc)
{
    if (!cli_out_failed() && fflush(stdout) != 0)
        saved_errno = errno;
    if (saved_errno < 0 && ferror(stdout))
        saved_errno = 0;
    if (saved_errno < 0)
        return rc;
    static bool reported;   /* once, however many callers finish */
    if (reported)
        return 2;
    reported = true;
    cli_error("cannot write the output: %s", saved_errno ? strerror(saved_errno) : "write error");
    return 2;
}

void cli_print_params(const CostParams *p)
{
    const char *const *names = cost_param_names(p->model);
    char buf[64];
    for (size_t i = 0; names && names[i]; i++)
        printf("%s%s=%s", i ? " " : "", names[i],
               export_format_double(cost_param_get(p, names[i]), buf, sizeof buf));
}

void cli_json_params(JsonOut *j, const CostParams *p)
{
    json_key(j, "params");
    json_begin_object(j);
    json_cost_params(j, p);
    json_end_object(j);
}

void cli_json_head(JsonOut *j, const Net *net, long source, const CostParams *p)
{
    json_key(j, "net");
    json_str(j, net_spec(net));
    json_key(j, "source");
    json_int(j, source);
    json_key(j, "model");
    json_str(j, cost_model_name(p->model));
    cli_json_params(j, p);
}
