-- cangwu_api.lua — Cang & Wu from Lua: net:eyes, net:is_eye, mc.eye_side, sched:verdict, and
-- predict's second result (the TCD).  Every check is an assert inside build; the schedule it
-- leaves is a binomial broadcast (columns first, then rows: time-step optimal), so
-- `meshcast check tests/lua/cangwu_api.lua --net mesh:8x8` passes only if every assert held.
local mc = require "meshcast"

local function eq(a, b, what)
  if a ~= b then error(string.format("%s: expected %s, got %s", what, tostring(b), tostring(a)), 2) end
end

return {
  name = "cangwu-api",
  nets = { "mesh" },
  -- no cost form; the TCD of this broadcast is the same from every source of 2^k x 2^k: the
  -- column phase sends 2^(k-1) hops per step (k steps), the row phase 2^(2k-1)
  predict = function(net, p, cost)
    local k = mc.log2(net:dim(1))
    if not k or net:dim(1) ~= net:dim(2) then return nil end
    return nil, k * (1 << (k - 1)) + k * (1 << (2 * k - 1))
  end,
  build = function(sched, net, p, source)
    -- eq. 2
    eq(mc.eye_side(1), 1, "a_1"); eq(mc.eye_side(3), 3, "a_3"); eq(mc.eye_side(5), 11, "a_5")
    local k = mc.log2(net:dim(1))
    local lo = ((1 << k) - 1 - mc.eye_side(k)) // 2
    local e = net:eyes()
    eq(#e, 4, "four eyes in 2-D")
    eq(e[1], net:id(lo, lo), "E(1)")
    eq(e[4], net:id(lo + mc.eye_side(k), lo + mc.eye_side(k)), "E(4)")
    for _, x in ipairs(e) do assert(net:is_eye(x), "an eye is an eye") end
    assert(not net:is_eye(0) or k == 1, "a corner is not an eye (k > 1)")
    -- the eyes of the 2x2 block holding node 0 are its four nodes
    local e1 = net:eyes(1, 0)
    eq(e1[1] + e1[2] + e1[3] + e1[4], 0 + 1 + net:dim(2) + net:dim(2) + 1, "level-1 eyes")
    assert(not pcall(net.eyes, net, k + 1), "a level past k is an error")
    -- a binomial broadcast down the columns, then along the rows
    local n, r0, c0 = net:dim(1), net:coords(source)
    local holders = { source }
    for _, dim in ipairs({ 1, 2 }) do
      for i = k - 1, 0, -1 do
        local st = sched:step()
        local new = {}
        for _, h in ipairs(holders) do
          local r, c = net:coords(h)
          local x = dim == 1 and r or c
          local y = x ~ (1 << i)
          local to = dim == 1 and net:id(y, c) or net:id(r, y)
          st:send(h, to, { 0 })
          new[#new + 1] = to
        end
        for _, h in ipairs(new) do holders[#holders + 1] = h end
        if dim == 1 and i == k - 1 then
          local v = sched:verdict()
          eq(v.informed[1], 2, "verdict part way: 2 informed after step 1")
          assert(not v.verified and not v.time_step_optimal, "part way: not yet")
        end
      end
    end
    local v = sched:verdict()
    assert(v.verified and v.time_step_optimal, "verdict: time-step optimal")
    eq(v.steps, 2 * k, "2k steps"); eq(v.min_steps, 2 * k, "the least")
    eq(v.informed[2 * k], n * n, "everyone informed")
    assert(v.contention_free, "contention-free")
    eq(v.tcd, k * (1 << (k - 1)) + k * (1 << (2 * k - 1)), "the TCD of the binomial broadcast")
    local _ = r0, c0
  end,
}
