-- the returned table's missing fields run a metamethod that never ends: reading the table is
-- itself protected and budgeted
return setmetatable({ name = "bad-meta-table", nets = { "array" }, build = function() end },
                    { __index = function(t, k) while true do end end })
