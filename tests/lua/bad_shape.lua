-- the wrong shape: a list, not an algorithm table
return { "array", "st" }
