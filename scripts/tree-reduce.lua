-- tree-reduce.lua — a pipelined k-ary tree reduction, declared as a reduction (op = "reduce";
-- not a built-in).  Every node starts with its own contribution to each of the s packets; a
-- node combines its k children's partials of a packet and sends the result to its parent, so
-- packets stream up the tree towards the root (the source).  k = 1 is a chain, k = 2 a binary
-- tree, k = 3 (the default) a ternary one.  Sanders & Sibeyn 1: reversing a broadcast gives a
-- reduction; here the reduction is written directly, children first.
--
-- Layout: positions from the root in node order, position v > 0 has parent (v-1)//k and is
-- its child c = (v-1) % k; the children of a node report in k consecutive steps, so with
-- E(v) = E(parent) + 1 + c, E(root) = -1 and L = max E, and S = L + k(s-1) + 1 steps,
-- position v sends packet q to its parent at step (0-based)
--   S - 1 - (E(parent) + k q + 1 + c)
-- and its children (child c') send q at that step minus 1 + c': a node has every child's
-- partial of a packet before it passes it on, one send and one receive per step (duplex
-- postal), and the root combines a packet every k steps.
-- s = 0 (the default) picks s = sqrt((L + 1) K / (k t)) from the run's cost model (p.cost,
-- K = beta * bytes); `--set s=N` fixes it.
local mc = require "meshcast"

local function shape(n, k)
  local E, last = { [0] = -1 }, -1
  for v = 1, n - 1 do
    E[v] = E[(v - 1) // k] + 1 + (v - 1) % k
    last = math.max(last, E[v])
  end
  return E, last
end

local function packet_count(net, p)
  if p.s > 0 then return math.min(p.s, p.bytes) end
  local _, last = shape(net:size(), p.k)
  local K, t = p.cost.beta * p.bytes, p.cost.t
  if t <= 0 then return math.min(p.bytes, 4096) end
  return math.max(1, math.min(math.floor(math.sqrt((last + 1) * K / (p.k * t)) + 0.5),
                              p.bytes, 4096))
end

return {
  name = "tree-reduce",
  summary = "pipelined k-ary tree reduction to the source: s packets (s=0: from p.cost), k children",
  ref = "after Sanders & Sibeyn 1-2 (reduction by a pipelined tree)",
  op = "reduce",
  nets = { "array", "ring", "mesh", "torus", "full" },
  params = {
    s = { 0, min = 0, max = 4096, help = "packets (0: choose from the cost model)" },
    k = { 3, min = 1, max = 64, help = "children per node (1: a chain)" },
  },
  chunks = packet_count,
  build = function(sched, net, p, root)
    local n, k, s = net:size(), p.k, sched:nchunks()
    local E, last = shape(n, k)
    local S = last + k * (s - 1) + 1
    local function node(v) return (root + v) % n end
    -- filled step by step (the schedule stores steps in turn)
    local at = {}
    for v = 1, n - 1 do
      local par, c = (v - 1) // k, (v - 1) % k
      for q = 0, s - 1 do
        local step = S - (E[par] + k * q + 1 + c)
        at[step] = at[step] or {}
        table.insert(at[step], { node(v), node(par), q })
      end
    end
    for step = 1, S do
      local st = sched:at(step)
      for _, x in ipairs(at[step] or {}) do st:send(x[1], x[2], x[3]) end
    end
  end,
  predict = function(net, p, cost)
    -- (fewer than k + 1 nodes: the root lacks children, its idle steps cost nothing)
    local s = packet_count(net, p)
    if cost.model ~= "postal" or cost.duplex ~= 1 or net:size() < p.k + 1 or
       p.bytes % s ~= 0 then
      return nil
    end
    local _, last = shape(net:size(), p.k)
    return (last + p.k * (s - 1) + 1) * (cost.t + cost.beta * p.bytes / s)
  end,
}
