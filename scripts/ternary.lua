-- ternary.lua — a circuit-switched broadcast on 3^a x 3^b tori that is not in Peters & Syska:
-- ternary crosses, one dimension per phase.
--
-- Phases alternate between the rows (dimension 2) and the columns (dimension 1): in a phase
-- at distance s along a dimension, every informed node sends to the nodes s away on both
-- sides (two straight circuits, through its two ports of that dimension), so a phase triples
-- the informed nodes; s runs 3^(a-1), ..., 1 along the columns and 3^(b-1), ..., 1 along
-- the rows, the longer dimension first.  log_3 N phases, each using two of a node's four
-- ports (the tiling uses four and needs log_5 N; a ternary phase is arc-disjoint because the
-- senders of a phase are 3s apart along it).
--
-- Not pipelined: a node's row circuit at distance s and its row circuit at s/3 leave through
-- the same out-port, so packets cannot overlap phases along one dimension (the reason the
-- tiling is not pipelined either; `dc` and `htree` are built on arc-disjoint trees for that).
-- Cost (circuit): every phase alpha + s*delta + L*tau: log_3 N alpha + (sum of the distances)
-- delta + log_3 N L tau; predict gives it.  Checked valid (all-port, arc-disjoint) on every
-- 3^a x 3^b torus up to 81x81 from every source by tests/lua/t_ternary.sh.
local mc = require "meshcast"

local function log3(x)
  local k = 0
  while x % 3 == 0 do x, k = x // 3, k + 1 end
  if x ~= 1 then return nil end
  return k
end

return {
  name = "ternary",
  summary = "circuit-switched ternary crosses on 3^a x 3^b tori, one dimension a phase",
  ref = "not in the papers (after Peters & Syska's tiling)",
  nets = { "torus" },
  sizes = function(net, p)
    if net:ndim() ~= 2 or not log3(net:dim(1)) or not log3(net:dim(2)) then
      return false, "ternary runs on 2-D tori of 3^a x 3^b nodes (3x3, 9x9, 27x27, 9x27 ...)"
    end
    return true
  end,
  build = function(sched, net, p, source)
    local a, b = log3(net:dim(1)), log3(net:dim(2))
    -- the phases: {dim, distance}, alternating while both dimensions have levels
    local phases = {}
    local i, j = a, b
    while i > 0 or j > 0 do
      if j >= i and j > 0 then
        phases[#phases + 1] = { 2, 3 ^ (j - 1) // 1 }
        j = j - 1
      end
      if i > 0 and i >= j then
        phases[#phases + 1] = { 1, 3 ^ (i - 1) // 1 }
        i = i - 1
      end
    end
    -- the senders of each phase (the same for every packet)
    local senders, informed = {}, { source }
    for k, ph in ipairs(phases) do
      senders[k] = {}
      local n = #informed
      for x = 1, n do
        local v = informed[x]
        senders[k][#senders[k] + 1] = v
        informed[#informed + 1] = net:neighbor(v, ph[1], ph[2])
        informed[#informed + 1] = net:neighbor(v, ph[1], -ph[2])
      end
    end
    for k, ph in ipairs(phases) do
      local st = sched:step(string.format("ternary: dimension %d at distance %d", ph[1], ph[2]))
      for _, v in ipairs(senders[k]) do
        st:send(v, net:neighbor(v, ph[1], ph[2]), { 0 }, { { ph[1], ph[2] } })
        st:send(v, net:neighbor(v, ph[1], -ph[2]), { 0 }, { { ph[1], -ph[2] } })
      end
    end
  end,
  predict = function(net, p, cost)
    if cost.model ~= "circuit" then return nil end
    local a, b = log3(net:dim(1)), log3(net:dim(2))
    local total, phases = 0, 0
    for _, k in ipairs({ a, b }) do
      for i = 1, k do
        total = total + cost.alpha + (3 ^ (i - 1)) * cost.delta + p.bytes * cost.tau
      end
    end
    return total
  end,
}
