/* num.h — the one parser of numbers a user types (every numeric option, setting and field:
 * --bytes, --source, --set, --max-sources, net dimensions' digits, theme colours, :step).
 *
 * One rule everywhere: plain decimal ASCII.  No blank before, after or inside, no '+', no hex
 * (0x10), no inf or nan; a minus sign only where a negative value means something (it is then
 * refused by the range check with its own message, not as bad syntax).  Each result says why
 * a text is refused, so that messages tell "too large" from "not positive" from "not a
 * number".
 */
#ifndef MESHCAST_NUM_H
#define MESHCAST_NUM_H

#include <stdint.h>

typedef enum {
    NUM_OK,
    NUM_SYNTAX,      /* not a number of this kind (empty, blank, sign, hex, letters...) */
    NUM_TOO_LARGE,   /* a number, beyond the type (or, for reals, beyond a double) */
    NUM_NEGATIVE,    /* a number below zero ("-0" included: a sign where none belongs) */
} NumStatus;

/* Unsigned integer: digits only, the whole of text, or (end != NULL) a prefix of it: then
 * *end points past the last digit and may point at anything. */
NumStatus num_u64(const char *text, uint64_t *out, const char **end);
/* Integer with an optional leading '-' (-1 as "the terminal's own colour", say). */
NumStatus num_i64(const char *text, int64_t *out);
/* Real: [-]DIGITS[.DIGITS][(e|E)[+|-]DIGITS] or [-].DIGITS[...], '.' whatever the locale;
 * negative values are returned (the caller's range check refuses them), -0 as 0; an underflow
 * (1e-400) is taken as the tiny or zero number it is; an overflow (1e400) is NUM_TOO_LARGE. */
NumStatus num_real(const char *text, double *out);

/* Words for a refusal: "not a number", "too large", "negative". */
const char *num_status_text(NumStatus st);

#endif
