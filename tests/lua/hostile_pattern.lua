-- single C calls that run for minutes: a lazy pattern with no match, a back-reference
local mc = require "meshcast"
return {
  name = "hostile-pattern", nets = { "array" },
  build = function(sched, net, p, source)
    local s = ("a"):rep(1e5)
    if p.bytes == 1024 then
      s:find(".-b")
    else
      ("a"):rep(20000):find("(.-)%1b")
    end
  end,
}
