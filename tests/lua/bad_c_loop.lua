-- work done in C on the script's behalf counts against the budget too: asking holdings
-- "after step k" over and over walks the whole schedule each time
return {
  name = "bad-c-loop", nets = { "array" },
  build = function(sched, net, p, source)
    local st = sched:step()
    for d = 0, net:size() - 1 do if d ~= source then st:send(source, d, { 0 }) end end
    while true do sched:holds(0, 0, 1) end
  end,
}
