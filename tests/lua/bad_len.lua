-- a table whose __len claims 2^60 elements: table.remove would shift that many slots inside
-- one C call; it is charged first, and stopped
return {
  name = "bad-len", nets = { "array" },
  build = function(sched, net, p, source)
    local t = setmetatable({}, { __len = function() return 1 << 60 end })
    table.remove(t, 1)
  end,
}
