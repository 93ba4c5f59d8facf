-- stopped: allocating without end
return {
  name = "bad-alloc", nets = { "array" },
  build = function(sched, net, p, source)
    local t = {}
    local s = "x"
    while true do
      t[#t + 1] = s .. #t
      s = s .. s
      if #s > 1000000 then s = "y" end
    end
  end,
}
