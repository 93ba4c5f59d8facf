/* test_export.c — the JSON writer (escaping, numbers, nesting) and CSV fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/export.h"

typedef struct {
    char *buf;
    size_t len;
    FILE *f;
} Mem;

static void mem_open(Mem *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    assert_non_null(m->f);
}

static const char *mem_close(Mem *m)
{
    fclose(m->f);
    return m->buf;
}

static void test_escape(void **state)
{
    (void)state;
    Mem m;
    mem_open(&m);
    json_write_string(m.f, "a\"b\\c\nd\te\x01" "f\x7f/é");
    assert_string_equal(mem_close(&m), "\"a\\\"b\\\\c\\nd\\te\\u0001f\\u007f/é\"");
    free(m.buf);
}

static void test_numbers(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(export_format_double(627.68, b, sizeof b), "627.68");
    assert_string_equal(export_format_double(4 * (1024 * 0.08 + 75), b, sizeof b), "627.68");
    assert_string_equal(export_format_double(0.1 + 0.2, b, sizeof b), "0.3");
    assert_string_equal(export_format_double(75, b, sizeof b), "75");
    assert_string_equal(export_format_double(-0.0, b, sizeof b), "0");
    assert_string_equal(export_format_double(1e6, b, sizeof b), "1000000");
    assert_string_equal(export_format_double(1.0 / 0.0, b, sizeof b), "null");
    assert_string_equal(export_format_double(0.0 / 0.0, b, sizeof b), "null");
    assert_string_equal(export_format_double(1e-7, b, sizeof b), "1e-07");
}

static void test_nesting(void **state)
{
    (void)state;
    Mem m;
    mem_open(&m);
    JsonOut j;
    json_init(&j, m.f, false);
    json_begin_object(&j);
    json_key(&j, "a");
    json_int(&j, -3);
    json_key(&j, "b");
    json_begin_array(&j);
    json_uint(&j, UINT64_C(18446744073709551615));
    json_bool(&j, true);
    json_null(&j);
    json_str(&j, NULL);
    json_begin_object(&j);
    json_end_object(&j);
    json_begin_array(&j);
    json_end_array(&j);
    json_end_array(&j);
    json_key(&j, "c\"");
    json_num(&j, 0.5);
    json_end_object(&j);
    assert_string_equal(mem_close(&m),
                        "{\"a\":-3,\"b\":[18446744073709551615,true,null,null,{},[]],"
                        "\"c\\\"\":0.5}\n");
    free(m.buf);
}

static void test_pretty(void **state)
{
    (void)state;
    Mem m;
    mem_open(&m);
    JsonOut j;
    json_init(&j, m.f, true);
    json_begin_object(&j);
    json_key(&j, "x");
    json_begin_array(&j);
    json_int(&j, 1);
    json_int(&j, 2);
    json_end_array(&j);
    json_key(&j, "e");
    json_begin_array(&j);
    json_end_array(&j);
    json_end_object(&j);
    assert_string_equal(mem_close(&m), "{\n  \"x\": [\n    1,\n    2\n  ],\n  \"e\": []\n}\n");
    free(m.buf);
}

static void test_csv(void **state)
{
    (void)state;
    Mem m;
    mem_open(&m);
    csv_field(m.f, "plain");
    fputc('|', m.f);
    csv_field(m.f, "a,b");
    fputc('|', m.f);
    csv_field(m.f, "say \"hi\"");
    fputc('|', m.f);
    csv_field(m.f, "two\nlines");
    assert_string_equal(mem_close(&m), "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"");
    free(m.buf);
}

static void test_route_text(void **state)
{
    (void)state;
    char err[128], buf[64];
    Net *net = net_parse("mesh:4x8", err, sizeof err);
    assert_non_null(net);
    NetSeg seg[NET_MAXDIM];
    int n = net_route(net, net_id(net, (int32_t[]){0, 0}), net_id(net, (int32_t[]){3, 5}), seg);
    assert_int_equal(n, 2);
    assert_string_equal(export_route_text(net, seg, n, buf, sizeof buf), "x+5 y+3");
    n = net_route(net, net_id(net, (int32_t[]){3, 5}), net_id(net, (int32_t[]){1, 5}), seg);
    assert_string_equal(export_route_text(net, seg, n, buf, sizeof buf), "y-2");
    assert_string_equal(export_route_text(net, seg, 0, buf, sizeof buf), "");
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),  cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_nesting), cmocka_unit_test(test_pretty),
        cmocka_unit_test(test_csv),     cmocka_unit_test(test_route_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
