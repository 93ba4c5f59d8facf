-- a to-be-closed variable whose __close never returns
return {
  name = "hostile-close", nets = { "array" },
  build = function(sched, net, p, source)
    local x <close> = setmetatable({}, { __close = function() while true do end end })
    sched:step():send(source, (source + 1) % net:size(), { 0 })
  end,
}
