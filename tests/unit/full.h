/* full.h — for a unit program with a long exhaustive part: FULL_RUN is 0 in its sanitized build
 * (build-san/tests/unit/, ASan + UBSan, where such a part costs six times its release time)
 * and 1 in its release-built copy (build/tests/unit/, -O2), which `make check` builds and runs
 * as well, after the sanitized programs, for every tests/unit/test_*.c that includes this
 * header.  A part guarded by FULL_RUN is one whose code the sanitized run still goes through
 * on smaller cases (the same code under the sanitizers; the whole sweep or budget once, in
 * release).  Include after <cmocka.h>. */
#ifndef MESHCAST_TEST_FULL_H
#define MESHCAST_TEST_FULL_H

#if defined(__SANITIZE_ADDRESS__)
#define FULL_RUN 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FULL_RUN 0
#endif
#endif
#ifndef FULL_RUN
#define FULL_RUN 1
#endif

#endif
