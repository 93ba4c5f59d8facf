-- refused: running a program
local mc = require "meshcast"
return {
  name = "bad-os", nets = { "array" },
  build = function(sched, net, p, source)
    os.execute("touch " .. (MESHCAST_PWNED or "/tmp/meshcast-pwned"))
    sched:step():send(0, 1, { 0 })
  end,
}
