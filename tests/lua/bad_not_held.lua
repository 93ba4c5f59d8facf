-- sends a chunk its node does not hold: a verification failure, not a script error
return {
  name = "bad-not-held", nets = { "array", "mesh" },
  build = function(sched, net, p, source)
    local n = net:size()
    local st = sched:step()
    -- every node "sends" to its right-hand neighbour at once: only the source holds chunk 0
    for i = 0, n - 2 do st:send(i, i + 1, { 0 }) end
    if source == n - 1 then st:send(n - 1, n - 2, { 0 }) end
  end,
}
