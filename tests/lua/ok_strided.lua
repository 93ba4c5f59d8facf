-- ok_strided.lua — st:send_strided in every shape, mixed with st:send in the same steps, for
-- tests/unit/test_lua_strided.c: the schedule built with strided rules must be the one stored
-- transfer by transfer (the same transfers, in the same order).  Not a broadcast.
local mc = require "meshcast"
return {
  name = "ok-strided",
  nets = { "array", "ring", "mesh", "torus" },
  chunks = 8,
  build = function(sched, net, p, source)
    local n = net:size()
    local half = n // 2
    -- a tree's step (stride 2 offset), then rows that continue it, then one that does not
    local st = sched:step("trees and rows")
    st:send_strided(0, 2, half, 1, mc.range(0, 7))
    st:send_strided(1, 4, n // 4, -1, mc.range(0, 7))
    -- any stride and offset, two ranges; rows continuing each other (merged)
    local st2 = sched:step("rows")
    for row = 0, 2 do
      st2:send_strided(row * (n // 4), 1, n // 4, 1, mc.chunks(0, 1, 4, 5))
    end
    st2:send_strided(0, 0, 3, 2, { 3 })                 -- stride 0: one node, three times
    -- a send after blocks in the same step keeps its place (and a block after it)
    st2:send(n - 1, 0, { 2 })
    st2:send_strided(n - 2, -3, 4, 1, mc.range(6, 7))
    -- back to step 1: more there, a held query in between (reads the blocks)
    local held = sched:held(1)
    assert(held:contains(0) and sched:holds(half + 1, 7))
    st:send_strided(2, 2, 3, -1, held)
    st:send(0, n - 1, mc.range(0, 1))
    -- three ranges, and an explicit route: stored one by one, after the blocks
    local st3 = sched:step("stored")
    st3:send_strided(0, 1, 4, 1, mc.chunks(0, 2, 4))
    if net:ndim() == 1 and not net:wraps() then
      st3:send_strided(0, 1, 3, 1, { 1 }, { { dim = 1, dir = 1, len = 1 } })
    end
    st3:send_strided(5, 1, 3, 2, { 7 })
    st3:permute(-1, 64)
    -- a step of blocks only, going left (negative offsets), and a label after them
    local st4 = sched:step()
    st4:send_strided(n - 1, -2, half, -1, mc.range(0, 3))
    st4:label("left")
    -- single sends in a progression (a block after 8, sched_send_compact), one that breaks
    -- it, a run of two ranges, and a strided call continuing that run
    local st5 = sched:step("sends")
    for j = 0, half - 1 do st5:send(2 * j, 2 * j + 1, { 0 }) end
    assert(sched:holds(n - 1, 0))
    st5:send(1, 0, { 1 })
    for j = 0, 9 do st5:send(j, j + 1, mc.chunks(2, 5)) end
    st5:send_strided(10, 1, 1, 1, mc.chunks(2, 5))
    st5:send(n - 1, n - 2, { 3 })
    assert(sched:nsteps() == 5)
  end,
}
