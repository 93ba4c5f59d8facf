-- a pattern that would backtrack for hours inside one C call: refused, not run
local s = string.rep("a", 5000)
local ok = s:find("a-a-a-b")
return { name = "bad-pattern", nets = { "array" }, build = function() end }
