-- knomial.lua — k-nomial tree broadcast on any net, any size, any source (not in the papers).
--
-- Ranks are node ids relative to the source: rank r is node (source + r) mod n.  With
-- L = ceil(log_k n) rounds, in round t (t = L-1 down to 0, span d = k^t) every rank that is a
-- multiple of k*d already holds the message and sends it to ranks r + d, r + 2d, ...,
-- r + (k-1)d (those below n).  k = 2 is the binomial tree (Seidel's ST from node 0 on 2^d
-- nodes); larger k gives fewer steps, but each sender makes k-1 sends per step, which a
-- one-port model (seidel) serialises and the postal model forbids: the trade-off this script
-- lets you see (`meshcast compare`, or `check --model postal`).
-- Parameter: k (2..16, default 3).  One chunk (the whole message).
local mc = require "meshcast"

return {
  name = "knomial",
  summary = "k-nomial tree: ceil(log_k n) steps, k-1 sends per holder per step",
  nets = { "array", "ring", "mesh", "torus" },
  params = { k = { 3, min = 2, max = 16, help = "the tree's fan-out: sends per holder per step" } },
  chunks = 1,
  build = function(sched, net, p, source)
    local n, k = net:size(), math.tointeger(p.k)
    if not k then error("k must be a whole number") end
    local rounds, span = 0, 1
    while span < n do span = span * k; rounds = rounds + 1 end
    local all = { 0 }
    for t = rounds - 1, 0, -1 do
      local d = k ^ t // 1
      local st = sched:step("round " .. (rounds - t) .. ": span " .. math.tointeger(d))
      for r = 0, n - 1, k * d do
        for m = 1, k - 1 do
          local to = r + m * d
          if to < n then
            st:send((source + r) % n, (source + to) % n, all)
          end
        end
      end
    end
  end,
}
