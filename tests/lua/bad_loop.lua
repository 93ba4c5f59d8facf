-- stopped: an endless loop inside build, that even tries to swallow the stop with pcall
return {
  name = "bad-loop", nets = { "array" },
  build = function(sched, net, p, source)
    while true do
      pcall(function() while true do end end)
    end
  end,
}
