-- a lesson whose file never finishes loading: a finalizer that loops (Lua runs it with hooks
-- off), then an endless loop
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
while true do end
