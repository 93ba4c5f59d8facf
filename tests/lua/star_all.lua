-- One node sends to every node in one step (tests/cli/t_budget.sh, tests/tui/t_budget.sh):
-- n - 1 one-port sub-rounds on an array, whose routes total about n^2/2 links.
return {
  name = "star",
  nets = { "array" },
  build = function(sched, net, p, source)
    local st = sched:step("all at once")
    for v = 0, net:size() - 1 do
      if v ~= source then st:send(source, v, { 0 }) end
    end
  end,
}
