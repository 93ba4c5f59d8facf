-- builder misuse is refused with a message naming the step: node outside the net
return {
  name = "bad-send", nets = { "array" },
  build = function(sched, net, p, source)
    sched:step():send(source, (source + 1) % net:size(), { 0 })
    sched:step():send(source, 99, { 0 })
  end,
}
