-- 10^8 local permutations in one step: 2 GB of C memory unless they count against the cap
return {
  name = "hostile-permute", nets = { "array" },
  build = function(sched, net, p, source)
    local st = sched:step()
    for i = 1, 1e8 do st:permute(source, 8) end
  end,
}
