-- only "meshcast" can be required
local x = require "os"
return {}
