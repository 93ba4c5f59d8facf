-- C loops as long as asked: ("") : rep(huge) would spin for ever inside one C call; it is
-- charged against the instruction budget first, and stopped
local s = (""):rep(1 << 60)
return { name = "bad-rep", nets = { "array" }, build = function() end }
