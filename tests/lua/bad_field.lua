-- a misspelled field: `chunk` for `chunks` (would silently give one chunk): refused, naming
-- the field, its line and the nearest valid name
return {
  name = "bad-field", nets = { "array" },
  chunk = 4,
  build = function(sched, net, p, source)
    sched:step():send(source, (source + 1) % net:size(), { 0 })
  end,
}
