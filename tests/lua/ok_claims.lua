-- the binomial (spanning) tree on arrays of 2^d nodes with claims that hold: d steps, no
-- link used twice in a step, time-step optimal, TCD (d choose..) given as a function: each of
-- the d steps moves the message 2^(d-1-i) hops from each of 2^i holders = 2^(d-1) hops a step
local mc = require "meshcast"
return {
  name = "claims-st", nets = { "array" },
  sizes = function(net, p)
    if not mc.log2(net:size()) then return false, "needs 2^d nodes" end
    return true
  end,
  claims = {
    steps = function(net, p) return mc.log2(net:size()) end,
    tcd = function(net, p) local d = mc.log2(net:size()); return d * (1 << d) // 2 end,
    contention_free = true,
    time_step_optimal = true,
  },
  build = function(sched, net, p, source)
    local d = mc.log2(net:size())
    for i = 0, d - 1 do
      local st, span = sched:step(), 1 << (d - i)
      local half = span >> 1
      for j = 0, net:size() - 1, span do
        local from, to = j ~ source, (j + half) ~ source
        st:send(from, to, { 0 })
      end
    end
  end,
}
