local n, span = 8, 1
while span < n do local spa2n = span * 2 end
return { name = "loop", nets = { "array" }, build = function() end }
