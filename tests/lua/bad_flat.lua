-- the source sends to every other node in one step, on the default routes: delivered on every
-- net, but under the circuit model circuits leaving the source the same way share its out-arc
-- (arc-disjoint and all-port rules), and under postal the source sends more than one message
-- (the one-port rule) -- unless it has a single neighbour to serve (2 nodes) or, under circuit
-- on an array, one node each way (the middle of array:3).  Valid under seidel (sub-rounds).
return {
  name = "bad-flat", nets = { "array", "mesh" },
  build = function(sched, net, p, source)
    local st = sched:step()
    for v = 0, net:size() - 1 do
      if v ~= source then st:send(source, v, { 0 }) end
    end
  end,
}
