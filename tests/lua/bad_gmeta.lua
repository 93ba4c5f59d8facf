-- the module's metatables are locked
return {
  name = "bad-meta", nets = { "array" },
  build = function(sched, net, p, source)
    local mt = getmetatable(sched)
    assert(type(mt) == "string", "metatable reachable")
    mt.__gc(sched)
  end,
}
