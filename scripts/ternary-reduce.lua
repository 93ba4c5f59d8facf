-- ternary-reduce.lua — a pipelined ternary-tree reduction, declared as a reduction (op =
-- "reduce"; not a built-in).  Every node starts with its own contribution to each of the s
-- packets; a node combines its three children's partials of a packet and sends the result to
-- its parent, so packets stream up the tree towards the root (the source) while the root
-- combines.  Sanders & Sibeyn 1: reversing a broadcast gives a reduction; here the reduction
-- is written directly, children first.
--
-- Layout (as scripts/ternary-tree.lua): positions from the root in node order, position v > 0
-- has parent (v-1)//3 and is its child c = (v-1) % 3; D(v) = D(parent) + 1 + c, D(root) = -1,
-- L = max D.  With S = L + 3(s-1) + 1 steps, position v sends packet pk to its parent at step
--   S - 1 - (D(parent) + 3 pk + 1 + c)        (0-based)
-- so its children w (child c') send pk at that step minus 1 + c': a node has every child's
-- partial of a packet before it passes it on, one send and one receive per step (duplex
-- postal), and a packet leaves the root's children every 3 steps.
-- s = 0 (the default) picks s = sqrt(D k / (3 t)) from the run's cost model (p.cost).
local mc = require "meshcast"

local function depth(n)
  local D, last = { [0] = -1 }, -1
  for v = 1, n - 1 do
    local par, c = (v - 1) // 3, (v - 1) % 3
    D[v] = D[par] + 1 + c
    if D[v] > last then last = D[v] end
  end
  return D, last
end

local function packets(net, p)
  if p.s > 0 then return math.min(p.s, p.bytes) end
  local _, last = depth(net:size())
  local k, t = p.cost.beta * p.bytes, p.cost.t
  if t <= 0 then return math.min(p.bytes, 4096) end
  local s = math.floor(math.sqrt((last + 1) * k / (3 * t)) + 0.5)
  return math.max(1, math.min(s, p.bytes, 4096))
end

return {
  name = "ternary-reduce",
  summary = "pipelined ternary-tree reduction to the source: s packets (s=0: from p.cost)",
  ref = "after Sanders & Sibeyn 1-2 (reduction by a pipelined tree), degree 3",
  op = "reduce",
  nets = { "array", "ring", "mesh", "torus", "full" },
  params = { s = { 0, min = 0, max = 4096, help = "packets (0: choose from the cost model)" } },
  chunks = packets,
  build = function(sched, net, p, root)
    local n = net:size()
    local s = sched:nchunks()
    local D, last = depth(n)
    local S = last + 3 * (s - 1) + 1
    local function node(v) return (root + v) % n end
    -- step by step (the schedule stores steps in turn): step k holds the sends with
    -- S - 1 - (D(par) + 3 pk + 1 + c) = k - 1
    local at = {}
    for v = 1, n - 1 do
      local par, c = (v - 1) // 3, (v - 1) % 3
      for pk = 0, s - 1 do
        local k = S - 1 - (D[par] + 3 * pk + 1 + c) + 1
        local l = at[k]
        if not l then l = {}; at[k] = l end
        l[#l + 1] = { node(v), node(par), pk }
      end
    end
    for k = 1, S do
      local st = sched:at(k)
      for _, x in ipairs(at[k] or {}) do st:send(x[1], x[2], x[3]) end
    end
  end,
  predict = function(net, p, cost)
    if cost.model ~= "postal" or cost.duplex ~= 1 or net:size() < 4 or
       p.bytes % packets(net, p) ~= 0 then
      return nil
    end
    local s = packets(net, p)
    local _, last = depth(net:size())
    return (last + 3 * (s - 1) + 1) * (cost.t + cost.beta * p.bytes / s)
  end,
}
