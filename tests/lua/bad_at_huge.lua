-- sched:at past the most steps a schedule can have: a size limit, said so
return {
  name = "bad-at-huge", nets = { "array" },
  build = function(sched, net, p, source) sched:at(1e8) end,
}
