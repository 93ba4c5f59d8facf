-- two-way-chain.lua — a worked first script (docs/lua-api.md): on an array or a mesh row by
-- row, the source passes the whole message one hop left and one hop right every step, and so
-- does every node that just received it, until both ends have it.  max(s, N-1-s) steps from
-- source s on array:N, each link used once per step; under postal every node sends at most
-- once to each side, which the one-port rule forbids for the source (it sends twice in step
-- 1 unless it is an end): `meshcast check --model postal` says so, and where.
local mc = require "meshcast"
return {
  name = "two-way-chain",
  summary = "the message passed one hop left and right every step (a worked first script)",
  nets = { "array" },
  claims = {
    -- the farther end is max(s, N-1-s) hops away, one hop a step
    steps = function(net, p) return math.max(p.source, net:size() - 1 - p.source) end,
    contention_free = true,
  },
  build = function(sched, net, p, source)
    local n = net:size()
    local left, right = source, source          -- the informed interval [left, right]
    while left > 0 or right < n - 1 do
      local st = sched:step("two-way chain")
      if left > 0 then st:send(left, left - 1, { 0 }); left = left - 1 end
      if right < n - 1 then st:send(right, right + 1, { 0 }); right = right + 1 end
    end
  end,
  -- seidel: every step costs a*B + b (a node's two sends go to different links but seidel is
  -- one-port: the source's two sends in step 1 are two sub-rounds)
}
