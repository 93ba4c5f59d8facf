-- declares a parameter every script is given: the message names the parameter, not the file
return {
  name = "bad-params-nu", nets = { "array" }, params = { nu = 3 },
  build = function(sched, net, p, source) end,
}
