-- an error inside build, on the third step
local mc = require "meshcast"
return {
  name = "bad-build", nets = { "array" },
  build = function(sched, net, p, source)
    sched:step():send(0, 1, { 0 })
    sched:step()
    local st = sched:step()
    local q = nil
    return q.field
  end,
}
