-- an explicit route that does not end at the destination: refused at the line that sent it
return {
  name = "bad-route", nets = { "ring" },
  build = function(sched, net, p, source)
    sched:step():send(0, 1, { 0 }, { { 1, 3 } })
  end,
}
