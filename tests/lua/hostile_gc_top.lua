-- a finalizer that never returns, made by the top level: Lua runs __gc with hooks off (at a
-- collection, and in lua_close), so only a limit from outside can stop it
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
return {
  name = "hostile-gc-top", nets = { "array" },
  build = function(sched, net, p, source)
    for d = 0, net:size() - 1 do
      if d ~= source then sched:step():send(source, d, { 0 }) end
    end
  end,
}
