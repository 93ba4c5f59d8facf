/* near.h — assert_double_equal for cmocka programs (cmocka before 1.1.6 has none): fails with
 * both values printed when |a - b| > eps.  Include after <cmocka.h>. */
#ifndef MESHCAST_NEAR_H
#define MESHCAST_NEAR_H

#include <math.h>

static inline void near_(double a, double b, double eps, const char *file, int line)
{
    if (!(fabs(a - b) <= eps)) {
        print_error("%.17g != %.17g\n", a, b);
        _fail(file, line);
    }
}
#undef assert_double_equal
#define assert_double_equal(a, b, eps) near_((a), (b), (eps), __FILE__, __LINE__)

#endif
