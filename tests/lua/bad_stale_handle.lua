-- keeps the schedule handle and uses it after build returned (through chunks() of a later run)
local kept
return {
  name = "bad-stale", nets = { "array" },
  chunks = function(net, p)
    if kept then kept:step() end
    return 1
  end,
  build = function(sched, net, p, source)
    kept = sched
    for d = 0, net:size() - 1 do
      if d ~= source then sched:step():send(source, d, { 0 }) end
    end
  end,
}
