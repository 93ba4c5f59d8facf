-- scatter-allgather.lua — van de Geijn's long-message broadcast on any net, any size, any
-- source (not in the papers): scatter the message by recursive halving, then a ring allgather.
--
-- The message is cut into n chunks, chunk r for rank r (rank r is node (source + r) mod n).
--   scatter (ceil(lg n) steps): the holder of ranks [lo, hi) sends the chunks of [mid, hi) to
--     rank mid, mid = lo + ceil((hi - lo) / 2), until every rank holds its own chunk;
--   allgather (n - 1 steps): at step t every rank r sends chunk (r - t) mod n to rank r + 1
--     (mod n), so after n - 1 steps everyone holds everything.
-- Each node sends and receives at most one message per step (no port conflicts).  Under the
-- seidel model on an array or ring of 2^d nodes it costs
--     2 (1 - 1/n) m a + (lg n + n - 1) b,
-- about 2ma however large n is, against ST's d(ma + b): it wins for long messages on big
-- nets and loses badly on latency.  predict gives that closed form there.
local mc = require "meshcast"

return {
  name = "scatter-allgather",
  summary = "van de Geijn: recursive-halving scatter, then ring allgather",
  nets = { "array", "ring", "mesh", "torus" },
  chunks = function(net, p) return net:size() end,
  build = function(sched, net, p, source)
    local n = net:size()
    local function node(r) return (source + r) % n end
    -- scatter: a list of (lo, hi) intervals, each held by rank lo
    local parts = { { 0, n } }
    local step = 0
    while true do
      local next_parts, st = {}, nil
      for _, iv in ipairs(parts) do
        local lo, hi = iv[1], iv[2]
        if hi - lo > 1 then
          local mid = lo + (hi - lo + 1) // 2
          st = st or sched:step("scatter")
          st:send(node(lo), node(mid), mc.range(mid, hi - 1))
          next_parts[#next_parts + 1] = { lo, mid }
          next_parts[#next_parts + 1] = { mid, hi }
        else
          next_parts[#next_parts + 1] = iv
        end
      end
      if not st then break end
      parts = next_parts
      step = step + 1
    end
    -- ring allgather
    for t = 0, n - 2 do
      local st = sched:step("allgather")
      for r = 0, n - 1 do
        st:send(node(r), node((r + 1) % n), { (r - t) % n })
      end
    end
  end,
  predict = function(net, p, cost)
    local n = net:size()
    local d = mc.log2(n)
    if cost.model ~= "seidel" or not d or net:ndim() ~= 1 then return nil end
    local m = p.bytes
    -- bytes of the chunks are floor-split; the closed form assumes n divides m
    if m % n ~= 0 then return nil end
    return 2 * (1 - 1 / n) * m * cost.a + (d + n - 1) * cost.b
  end,
}
