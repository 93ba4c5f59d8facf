-- predict raises an error: reported as an error, not as "no closed form"
return {
  name = "bad-predict-error", nets = { "array" },
  build = function(sched, net, p, source)
    for d = 0, net:size() - 1 do
      if d ~= source then sched:step():send(source, d, { 0 }) end
    end
  end,
  predict = function(net, p, cost) return cost.nosuch.field end,
}
