-- table.move over a huge range would spin inside one C call: charged first, and stopped
return {
  name = "bad-move", nets = { "array" },
  build = function(sched, net, p, source)
    table.move({}, 1, 1 << 50, 2)
  end,
}
