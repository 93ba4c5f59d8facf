-- 2^24 empty steps at once: 1.5 GB of C memory unless steps count against the cap
return {
  name = "hostile-steps", nets = { "array" },
  build = function(sched, net, p, source)
    sched:at(1 << 24)
  end,
}
