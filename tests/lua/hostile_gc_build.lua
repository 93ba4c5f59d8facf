-- the table build returns carries a finalizer that never returns (it runs when the state is
-- closed, after the result was printed)
local function forever() while true do end end
return setmetatable({
  name = "hostile-gc-build", nets = { "array" },
  build = function(sched, net, p, source)
    setmetatable({}, { __gc = forever })
    for d = 0, net:size() - 1 do
      if d ~= source then sched:step():send(source, d, { 0 }) end
    end
  end,
}, { __gc = forever })
