/* test_goal.c — GOAL files into steps (src/algos/goal/goal.h): the list schedule's rules
 * (one send per rank per step in file order, a send after what it requires, calc in no step,
 * irequires in the step the other starts), the chunks cut at the streams' boundaries, and
 * the writer's output read back into the same schedule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/goal/goal.h"

static GoalProg *read_text(const char *text, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(f);
    GoalProg *g = goal_read(f, "t", err, errlen);
    fclose(f);
    return g;
}

/* The schedule of text on array:N. */
static Sched *build(const char *text, Net **net)
{
    char err[300] = "";
    GoalProg *g = read_text(text, err, sizeof err);
    if (!g)
        fail_msg("%s", err);
    char spec[32];
    snprintf(spec, sizeof spec, "array:%ld", (long)goal_nranks(g));
    *net = net_parse(spec, err, sizeof err);
    Sched *s = sched_new(*net, goal_nchunks(g), goal_bytes(g));
    assert_true(sched_give(s, goal_source(g), 0, goal_nchunks(g)));
    assert_true(goal_build(g, s, NULL));
    goal_free(g);
    return s;
}

/* Transfer i of step st is src -> dst with chunks [lo, hi). */
static void want(const Sched *s, int32_t st, int64_t i, int32_t src, int32_t dst, uint32_t lo,
                 uint32_t hi)
{
    SchedTransfer t;
    assert_true(i < sched_ntransfers(s, st));
    sched_transfer(s, st, i, &t);
    assert_int_equal(t.src, src);
    assert_int_equal(t.dst, dst);
    assert_int_equal(t.nranges, 1);
    assert_int_equal(t.ranges[0].lo, lo);
    assert_int_equal(t.ranges[0].hi, hi);
}

static void test_one_send_per_step_in_file_order(void **state)
{
    (void)state;
    Net *net;
    Sched *s = build("num_ranks 3\nrank 0 {\nsend 8b to 2\nsend 8b to 1\n}\n"
                     "rank 1 {\nrecv 8b from 0\n}\nrank 2 {\nrecv 8b from 0\n}\n", &net);
    assert_int_equal(sched_nsteps(s), 2);
    want(s, 0, 0, 0, 2, 0, 1);
    want(s, 1, 0, 0, 1, 0, 1);
    sched_free(s);
    net_free(net);
}

static void test_calc_takes_no_step(void **state)
{
    (void)state;
    Net *net;
    /* rank 1: recv, then calc, then send: the send is in the step right after the recv */
    Sched *s = build("num_ranks 3\nrank 0 {\nl1: send 8b to 1\n}\n"
                     "rank 1 {\nl1: recv 8b from 0\nl2: calc 500\nl3: send 8b to 2\n"
                     "l2 requires l1\nl3 requires l2\n}\nrank 2 {\nrecv 8b from 1\n}\n", &net);
    assert_int_equal(sched_nsteps(s), 2);
    want(s, 0, 0, 0, 1, 0, 1);
    want(s, 1, 0, 1, 2, 0, 1);
    sched_free(s);
    net_free(net);
}

static void test_requires_waits_irequires_does_not(void **state)
{
    (void)state;
    Net *net;
    /* rank 1's second recv b is posted after the first (b requires a: step 1) and its
     * message comes in step 1.  d irequires b: d may go in step 1, as b starts; c requires
     * b: step 2, after b is done. */
    Sched *s = build("num_ranks 4\nrank 0 {\nsend 4b to 1\nsend 4b to 1\n}\n"
                     "rank 1 {\na: recv 4b from 0\nb: recv 4b from 0\nb requires a\n"
                     "c: send 8b to 2\nd: send 4b to 3\nc requires b\nd irequires b\n}\n"
                     "rank 2 {\nrecv 8b from 1\n}\nrank 3 {\nrecv 4b from 1\n}\n", &net);
    /* chunks: the streams 0->1 (0,4,8), 1->2 (0,8), 1->3 (0,4): 2 chunks of 4 bytes */
    assert_int_equal(sched_nchunks(s), 2);
    assert_int_equal(sched_nsteps(s), 3);
    assert_int_equal(sched_ntransfers(s, 0), 1);
    want(s, 0, 0, 0, 1, 0, 1);
    assert_int_equal(sched_ntransfers(s, 1), 2);
    want(s, 1, 0, 0, 1, 1, 2);
    want(s, 1, 1, 1, 3, 0, 1);
    want(s, 2, 0, 1, 2, 0, 2);
    sched_free(s);
    net_free(net);
}

static void test_chunks_at_stream_boundaries(void **state)
{
    (void)state;
    Net *net;
    /* 6 + 2 bytes: boundaries 0, 6, 8: chunks of gcd 2, four of them */
    Sched *s = build("num_ranks 2\nrank 0 {\nsend 6b to 1\nsend 2b to 1\n}\n"
                     "rank 1 {\nrecv 6b from 0\nrecv 2b from 0\n}\n", &net);
    assert_int_equal(sched_nchunks(s), 4);
    assert_int_equal(sched_bytes(s), 8);
    want(s, 0, 0, 0, 1, 0, 3);
    want(s, 1, 0, 0, 1, 3, 4);
    sched_free(s);
    net_free(net);
}

static void test_tags_match_in_order(void **state)
{
    (void)state;
    Net *net;
    /* sends tag 1 then tag 0; the recvs are posted tag 0 then tag 1: matched by tag */
    Sched *s = build("num_ranks 2\nrank 0 {\nsend 4b to 1 tag 1\nsend 8b to 1 tag 0\n}\n"
                     "rank 1 {\nrecv 8b from 0 tag 0\nrecv 4b from 0 tag 1\n}\n", &net);
    assert_int_equal(sched_nsteps(s), 2);
    sched_free(s);
    net_free(net);
}

static void test_written_reads_back_equal(void **state)
{
    (void)state;
    Net *net;
    const char *bin8 = "num_ranks 8\nrank 0 {\nl1: send 64b to 1 tag 0\nl2: send 64b to 2 tag 0\n"
                       "l3: send 64b to 4 tag 0\n}\n"
                       "rank 1 {\nl1: recv 64b from 0 tag 0\nl2: send 64b to 3 tag 0\n"
                       "l2 requires l1\nl3: send 64b to 5 tag 0\nl3 requires l1\n}\n"
                       "rank 2 {\nl1: recv 64b from 0 tag 0\nl2: send 64b to 6 tag 0\n"
                       "l2 requires l1\n}\nrank 3 {\nl1: recv 64b from 1 tag 0\n"
                       "l2: send 64b to 7 tag 0\nl2 requires l1\n}\n"
                       "rank 4 {\nl1: recv 64b from 0 tag 0\n}\nrank 5 {\nl1: recv 64b from 1 tag 0\n}\n"
                       "rank 6 {\nl1: recv 64b from 2 tag 0\n}\nrank 7 {\nl1: recv 64b from 3 tag 0\n}\n";
    Sched *s = build(bin8, &net);
    assert_int_equal(sched_nsteps(s), 3);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_true(goal_write(out, s, "test"));
    fclose(out);
    Net *net2;
    Sched *back = build(text, &net2);
    assert_true(sched_equal(s, back));
    free(text);
    sched_free(back);
    sched_free(s);
    net_free(net2);
    net_free(net);
}

static void refused(const char *text, const char *what)
{
    char err[300] = "";
    GoalProg *g = read_text(text, err, sizeof err);
    assert_null(g);
    if (!strstr(err, what))
        fail_msg("wanted '%s' in '%s'", what, err);
}

static void test_refused_with_line(void **state)
{
    (void)state;
    refused("num_ranks 2\nrank 0 {\nl1: send 4b to 1\nl1: send 4b to 1\n}\n", "t:4: label 'l1' defined twice");
    refused("num_ranks 2\nrank 0 {\nsend 0b to 1\n}\n", "t:3: a send of 0 bytes");
    refused("num_ranks 2\nrank 0 {\nsend 4b to 0\n}\n", "t:3: rank 0 sends to itself");
    refused("num_ranks 2\nsend 4b to 1\n", "t:2: an operation outside a rank block");
    refused("num_ranks 2\nrank 0 {\nsend 4b to 1 tag 3 cpu 999\n}\n", "t:3: a cpu number too large");
    refused("num_ranks 2\n/* open\n", "a comment that never ends");
    refused("num_ranks 2\nrank 0 {\nsend 99999999999999999999b to 1\n}\n", "t:3: a size in bytes too large");
    refused("num_ranks 2\nrank 1 {\nrecv 4b from 0\n}\n", "t:3: rank 1's recv from rank 0 (tag 0) has no matching send");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_send_per_step_in_file_order),
        cmocka_unit_test(test_calc_takes_no_step),
        cmocka_unit_test(test_requires_waits_irequires_does_not),
        cmocka_unit_test(test_chunks_at_stream_boundaries),
        cmocka_unit_test(test_tags_match_in_order),
        cmocka_unit_test(test_written_reads_back_equal),
        cmocka_unit_test(test_refused_with_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
