-- refused: making and loading bytecode
local f = function() return 1 end
local ok, code = pcall(string.dump, f)
local bin = "\27Lua\84\0\25\147\13\10\26\10"
local fn, msg = load(bin, "x", "b")
assert(fn == nil, "binary chunk was loaded")
error("load refused: " .. tostring(msg) .. "; string.dump: " .. tostring(code))
