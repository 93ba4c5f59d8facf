-- 20,000 step labels of 1 MB each: 20 GB of C memory unless labels count against the cap
return {
  name = "hostile-labels", nets = { "array" },
  build = function(sched, net, p, source)
    local big = ("L"):rep(1 << 20)
    for i = 1, 20000 do sched:step(big) end
  end,
}
