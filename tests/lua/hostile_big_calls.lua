-- cheap in instructions, hours in time: utf8.len of 100 MB, == of two 50 MB strings, a plain
-- find in a loop (p.bytes chooses which)
return {
  name = "hostile-big-calls", nets = { "array" },
  build = function(sched, net, p, source)
    if p.bytes == 1 then
      local s = ("a"):rep(1e8)
      while true do utf8.len(s) end
    elseif p.bytes == 2 then
      local a, b = ("x"):rep(5e7), ("x"):rep(5e7)
      while true do if a == b then end end
    else
      local s = ("a"):rep(1e7)
      while true do s:find("b", 1, true) end
    end
  end,
}
