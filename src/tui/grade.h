/* grade.h — s-to-p on the map: a node's grade by how many of the s messages it holds.
 *
 * Grade 0: none; 1..3: a third each of the partial counts 1..s-1 (grade g holds k with
 * g = 1 + floor(3 (k-1) / (s-1))); 4: all s.  The map colours a node by its grade (theme
 * roles empty, g1, g2, g3, full) and, one character a node, draws its glyph (empty, the shade
 * or digit grade[g-1], full), so the grade reads the same without colour and with --ascii.
 * No curses here.
 */
#ifndef MESHCAST_TUI_GRADE_H
#define MESHCAST_TUI_GRADE_H

#include <stdbool.h>
#include <stdint.h>

#define GRADE_N 5

/* The grade of a node holding k of s messages (s >= 1); any chunk held is at least 1. */
int grade_of(uint64_t k, uint64_t s, bool any);
/* The counts of grade g: [*lo, *hi]; false if no count has that grade for this s. */
bool grade_range(int g, uint64_t s, uint64_t *lo, uint64_t *hi);

#endif
