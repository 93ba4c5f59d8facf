/* sim-internal.h — test hooks of the simulator (src/engine and tests/unit only). */
#ifndef MESHCAST_SIM_INTERNAL_H
#define MESHCAST_SIM_INTERNAL_H

/* How link loads are counted: SIM_PATH_AUTO chooses per step (walk the routes when their summed
 * length is small against the number of links, else difference arrays over whole lines);
 * the others force one way, so that tests can check that both give identical results. */
enum { SIM_PATH_AUTO, SIM_PATH_DIRECT, SIM_PATH_DIFF };
extern int sim_load_path;

#endif
