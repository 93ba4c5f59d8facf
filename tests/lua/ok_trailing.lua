-- the chain on an array, with one step opened too many at the end (never used): meshcast drops
-- trailing empty steps, so the run has N-1 steps and pays N-1 start-ups, not N
return {
  name = "trailing-empty", nets = { "array" },
  sizes = function(net, p) if p.source ~= 0 then return false, "from node 0" end return true end,
  build = function(sched, net, p, source)
    for v = 0, net:size() - 2 do sched:step():send(v, v + 1, { 0 }) end
    sched:step()   -- opened and never used
  end,
}
