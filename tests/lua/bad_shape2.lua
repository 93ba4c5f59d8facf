-- the wrong shape: nets is not a list of kinds
return { name = "bad-shape", nets = "array", build = function() end }
