-- refused: opening a file, at load time
local f = io.open("/etc/passwd", "r")
return { name = "bad-io", nets = { "array" }, build = function() end }
