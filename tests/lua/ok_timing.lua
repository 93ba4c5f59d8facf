-- ok_timing.lua — a one-step broadcast whose predict tells the timing it was asked under
-- (cost.timing: "lockstep" or "async"); for tests/lua/t_ternary.sh.
return {
  name = "timing-probe",
  nets = { "torus" },
  build = function(sched, net, p, source)
    local st = sched:step("all at once")
    for v = 0, net:size() - 1 do
      if v ~= source then st:send(source, v, { 0 }) end
    end
  end,
  predict = function(net, p, cost)
    if cost.timing == "async" then return 1 end
    return 2
  end,
}
