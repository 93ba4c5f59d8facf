/* test_cost.c — model names, defaults (Table II for seidel), cost_set validation. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/cost.h"

static void test_names(void **state)
{
    (void)state;
    const char *names[] = { "seidel", "postal", "circuit", "saf" };
    for (int m = 0; m < COST_NMODELS; m++) {
        CostModel out;
        assert_string_equal(cost_model_name((CostModel)m), names[m]);
        assert_true(cost_model_parse(names[m], &out));
        assert_int_equal(out, m);
        assert_true(strlen(cost_model_summary((CostModel)m)) > 10);
        assert_null(strchr(cost_model_summary((CostModel)m), '\n'));
        for (const char *const *p = cost_param_names((CostModel)m); *p; p++)
            assert_true(cost_is_param(*p));
    }
    CostModel out;
    assert_false(cost_model_parse("Seidel", &out));
    assert_false(cost_model_parse(NULL, &out));
    assert_string_equal(cost_model_name(COST_NMODELS), "?");
    assert_null(cost_param_names(COST_NMODELS)[0]);
    assert_false(cost_is_param("zeta"));
    assert_true(cost_is_param("gamma"));   /* combining in a reduction, every model */
    assert_false(cost_is_param(NULL));
}

static void test_defaults(void **state)
{
    (void)state;
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    assert_int_equal(p.model, COST_SEIDEL);
    assert_true(p.a == 0.08 && p.b == 75 && p.rho == 0.01 && p.nu == 0);
    cost_defaults(&p, COST_POSTAL);
    assert_int_equal(p.model, COST_POSTAL);
    assert_true(p.t == 1 && p.beta == 1 && p.duplex == 1);
    cost_defaults(&p, COST_CIRCUIT);
    assert_true(p.alpha == 1 && p.delta == 0 && p.tau == 1);
    cost_defaults(&p, COST_SAF);
    assert_true(p.beta == 1 && p.tau == 1);
    assert_true(cost_param_get(&p, "a") == 0.08);
    assert_true(cost_param_get(&p, "nu") == 0);
    assert_true(cost_param_get(&p, "duplex") == 1);
    assert_true(isnan(cost_param_get(&p, "zeta")));
    assert_true(isnan(cost_param_get(NULL, "a")));
    cost_defaults(NULL, COST_SEIDEL);
}

/* One transfer's price under each model, against the formulas worked out by hand (binary
 * fractions: exact in doubles): seidel m*a*B + b, postal t + beta*B, circuit
 * alpha + d*delta + B*tau, saf d*(beta + B*tau); and the lockstep's split into terms. */
static void test_price(void **state)
{
    (void)state;
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    p.a = 0.5, p.b = 3;
    /* B = 10 over a link shared 3-fold beyond capacity: 3 * 0.5 * 10 + 3 */
    assert_true(cost_transfer(&p, 7, 10, 3) == 18);
    assert_true(cost_transfer(&p, 7, 10, 1) == 8);     /* d plays no part */
    CostTerms t = cost_terms(&p, 7, 10, 3);
    assert_true(t.startup == 3 && t.trans == 5 && t.cont == 10);
    cost_defaults(&p, COST_POSTAL);
    p.t = 2, p.beta = 0.25;
    assert_true(cost_transfer(&p, 9, 8, 4) == 4);      /* 2 + 0.25 * 8, m and d ignored */
    t = cost_terms(&p, 9, 8, 4);
    assert_true(t.startup == 2 && t.trans == 2 && t.cont == 0);
    cost_defaults(&p, COST_CIRCUIT);
    p.alpha = 1.5, p.delta = 0.5, p.tau = 0.125;
    assert_true(cost_transfer(&p, 4, 16, 1) == 5.5);   /* 1.5 + 4 * 0.5 + 16 * 0.125 */
    t = cost_terms(&p, 4, 16, 1);
    assert_true(t.startup == 3.5 && t.trans == 2 && t.cont == 0);
    cost_defaults(&p, COST_SAF);
    p.beta = 0.5, p.tau = 0.25;
    assert_true(cost_transfer(&p, 3, 4, 1) == 4.5);    /* 3 * (0.5 + 4 * 0.25) */
    t = cost_terms(&p, 3, 4, 1);
    assert_true(t.startup == 1.5 && t.trans == 3 && t.cont == 0);
    /* the terms add up to the price, whatever the model */
    for (int m = 0; m < COST_NMODELS; m++) {
        cost_defaults(&p, (CostModel)m);
        t = cost_terms(&p, 5, 1000, 2);
        double sum = t.startup + t.trans + t.cont, c = cost_transfer(&p, 5, 1000, 2);
        assert_true(fabs(sum - c) <= 1e-12 * c);
    }
}

static void test_set(void **state)
{
    (void)state;
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    char err[160];
    assert_true(cost_set(&p, "a", "0.5", err, sizeof err));
    assert_true(p.a == 0.5);
    assert_true(cost_set(&p, "nu", "3", err, sizeof err));
    assert_int_equal(p.nu, 3);
    assert_true(cost_set(&p, "duplex", "0", err, sizeof err));
    assert_int_equal(p.duplex, 0);
    assert_true(cost_set(&p, "tau", "1e-3", err, sizeof err));
    assert_true(p.tau == 1e-3);
    assert_true(cost_set(&p, "b", "0", err, sizeof err));
    assert_true(p.b == 0);
    assert_int_equal(p.model, COST_SEIDEL);   /* any parameter whatever the model */

    struct {
        const char *name, *value, *msg;
    } bad[] = {
        { "zeta", "1", "unknown parameter 'zeta' (a, b, rho, nu, t, beta, duplex, alpha, delta, tau, gamma)" },
        { "a", "x", "bad value 'x' for a: not a number" },
        { "a", "", "bad value '' for a: not a number" },
        { "a", "1x", "bad value '1x' for a: not a number" },
        { "a", "nan", "bad value 'nan' for a: not a number" },
        { "a", "inf", "bad value 'inf' for a: not a number" },
        { "b", "-1", "bad value '-1' for b: must not be negative" },
        { "nu", "17", "bad value '17' for nu: must be an integer 0..16" },
        { "nu", "1.5", "bad value '1.5' for nu: must be an integer 0..16" },
        { "nu", "-1", "bad value '-1' for nu: must not be negative" },
        { "duplex", "2", "bad value '2' for duplex: must be 0 (simplex) or 1 (duplex)" },
    };
    CostParams before = p;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(cost_set(&p, bad[i].name, bad[i].value, err, sizeof err));
        assert_string_equal(err, bad[i].msg);
        assert_memory_equal(&p, &before, sizeof p);
    }
    assert_false(cost_set(&p, "a", NULL, err, sizeof err));
    assert_false(cost_set(NULL, "a", "1", err, sizeof err));
    assert_false(cost_set(&p, "a", "x", NULL, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_price),
        cmocka_unit_test(test_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
