-- sizes returns a truthy value that is not a boolean: refused as a mistake, the same way for
-- every non-boolean (a string used to be a refusal, a number an acceptance)
return {
  name = "bad-sizes-truthy", nets = { "array" },
  sizes = function(net, p) if p.bytes == 1024 then return "yes" else return 1 end end,
  build = function(sched, net, p, source)
    for d = 0, net:size() - 1 do
      if d ~= source then sched:step():send(source, d, { 0 }) end
    end
  end,
}
