local mc = require "meshcast"
return {
  name = "seed", nets = { "array", "mesh" }, params = { { name = "k", default = 2, min = 1, max = 8 } },
  chunks = function(net, p) return 2 end,
  build = function(sched, net, p, source)
    local st = sched:step("one\27[1m")
    st:send(source, (source + 1) % net:size(), sched:all())
    st:permute(-1, 8)
    sched:at(3):send_strided(0, 1, 1, 1, mc.range(0, 1))
    print(sched:nsteps(), net:size(), sched:holds(source, 0))
  end,
  predict = function(net, p, cost) return p.bytes * cost.a end,
}
