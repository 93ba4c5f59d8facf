/* test_units.c — costs are said in the model's unit (issue 9 defect 13): us under seidel,
 * units under postal, circuit and saf, in the narration too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/cli/cli-opts.h"
#include "../../src/tui/narrate.h"

static void narration(CostModel m, const char *unit)
{
    const char *model = cost_model_name(m);
    SetupSpec spec = {.net = "mesh:4x4", .algo = "st", .model = model};
    Setup s;
    char err[256];
    assert_true(setup_make(&spec, &s, err, sizeof err));
    CliRun r;
    assert_int_equal(cli_prepare_setup(&s, 0, &r, err, sizeof err), 0);
    char line[1024], want[32];
    narrate_step(r.sim, 1, true, line, sizeof line);
    snprintf(want, sizeof want, " %s", unit);
    const char *costs = strstr(line, "costs ");
    assert_non_null(costs);
    assert_non_null(strstr(costs, want));
    if (strcmp(unit, "us") != 0)
        assert_null(strstr(line, " us"));
    cli_run_free(&r);
}

static void test_units(void **state)
{
    (void)state;
    assert_string_equal(cost_unit(COST_SEIDEL), "us");
    assert_string_equal(cost_unit(COST_POSTAL), "units");
    assert_string_equal(cost_unit(COST_CIRCUIT), "units");
    assert_string_equal(cost_unit(COST_SAF), "units");
    narration(COST_SEIDEL, "us");
    narration(COST_POSTAL, "units");
    narration(COST_CIRCUIT, "units");
    narration(COST_SAF, "units");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_units)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
