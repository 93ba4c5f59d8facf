-- a send of a 50,000-interval chunk set, in a loop (each is one call, 50,000 ranges of work)
local mc = require "meshcast"
return {
  name = "hostile-sends", nets = { "array" },
  chunks = 100000,
  build = function(sched, net, p, source)
    local ids = {}
    for i = 0, 99998, 2 do ids[#ids + 1] = i end
    local set = mc.chunks(ids)
    local st = sched:step()
    while true do st:send(source, (source + 1) % net:size(), set) end
  end,
}
