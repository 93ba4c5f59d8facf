-- The cost model's constants reach chunks() and build() (p.cost), and sched:give hands data
-- to any node.  chunks = floor(p.cost.t) packets; build checks it sees the same constants,
-- gives the last node every packet but 0, has the source send packet 0 to it, and the last
-- node (which holds packets 1.. only by sched:give) sends everything to the others.
local mc = require "meshcast"
return {
  name = "ok-cost-give", nets = { "full" },
  chunks = function(net, p)
    assert(p.cost.model == "postal", "p.cost.model in chunks: " .. tostring(p.cost.model))
    return math.max(1, math.floor(p.cost.t))
  end,
  build = function(sched, net, p, source)
    local n, last = sched:nchunks(), net:size() - 1
    assert(p.cost.model == "postal" and n == math.floor(p.cost.t),
           "build sees p.cost.t = " .. tostring(p.cost.t) .. " and " .. n .. " chunks")
    assert(p.cost.beta > 0 and p.cost.gamma >= 0 and p.cost.duplex ~= nil)
    assert(source ~= last, "source must not be the last node")
    if n > 1 then sched:give(last, mc.range(1, n - 1)) end
    assert(sched:holds(last, n - 1, 0) == (n > 1), "holds sees the gift at the start")
    assert(not sched:holds(last, 0, 0), "but not packet 0")
    sched:step(string.format("t=%g beta=%g gamma=%g", p.cost.t, p.cost.beta, p.cost.gamma))
      :send(source, last, 0)
    for v = 0, last - 1 do
      if v ~= source then sched:step():send(last, v, sched:all()) end
    end
  end,
}
