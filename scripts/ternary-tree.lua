-- ternary-tree.lua — a pipelined ternary tree (not a built-in): Sanders & Sibeyn's binary tree with
-- three children per node.  The message is cut into s packets; a node forwards every packet to
-- its three children in three consecutive steps, so a packet leaves a node every 3 steps (a
-- binary tree: every 2, a chain: every step) while the depth shrinks to log_3 P.
--
-- Layout: positions from the source in node order (as the built-ins), node at position v > 0
-- has parent (v-1)//3 and is its child c = (v-1) % 3.  A node that gets packet 0 at step
-- R(v) (0-based; the source at -1) gets packet p at R(v) + 3p and sends it to child c at
-- R(v) + 3p + 1 + c: one send and one receive per step (duplex postal), so
--   steps = max over v of R(v) + 3(s-1) + 1.
-- s = auto (the default) picks the s minimising (D + 3s)(t + k/s) for the run's constants
-- (p.cost: k = beta*m): s = sqrt(D k / (3 t)), D the depth term — the paper's recipe applied to
-- degree 3.  `--set s=N` fixes it.
local mc = require "meshcast"

local function depth(n)
  -- R of the last position: R(v) = R(parent) + 1 + c
  local R = { [0] = -1 }
  local last = -1
  for v = 1, n - 1 do
    local par, c = (v - 1) // 3, (v - 1) % 3
    R[v] = R[par] + 1 + c
    if R[v] > last then last = R[v] end
  end
  return R, last
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
  name = "ternary-tree",
  summary = "pipelined ternary tree: s packets, three children per node (s=0: from p.cost)",
  ref = "after Sanders & Sibeyn 2 (binary tree), degree 3",
  nets = { "array", "ring", "mesh", "torus", "full" },
  params = { s = { 0, min = 0, max = 4096, help = "packets (0: choose from the cost model)" } },
  chunks = packets,
  build = function(sched, net, p, source)
    local n = net:size()
    local s = sched:nchunks()
    local R = depth(n)
    -- position -> node: the source first, then the ids in order (wrapping)
    local function node(v) return (source + v) % n end
    for v = 1, n - 1 do
      local par, c = (v - 1) // 3, (v - 1) % 3
      for pk = 0, s - 1 do
        sched:at(R[par] + 3 * pk + 1 + c + 1):send(node(par), node(v), pk)
      end
    end
  end,
  predict = function(net, p, cost)
    -- (fewer than 4 nodes: the root lacks children, its idle steps cost nothing)
    if cost.model ~= "postal" or cost.duplex ~= 1 or net:size() < 4 or
       p.bytes % packets(net, p) ~= 0 then
      return nil
    end
    local s = packets(net, p)
    local _, last = depth(net:size())
    return (last + 3 * (s - 1) + 1) * (cost.t + cost.beta * p.bytes / s)
  end,
}
