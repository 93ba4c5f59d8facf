-- pipe_ring.lua — a pipelined circuit-switched broadcast written in Lua (tests/lua/t_pipe.sh):
-- P packets down two chains from the source, one each way round a ring, packet c's phase i
-- at step i + c (sched:at).  Each arc is used by one phase only, so phases of successive
-- packets overlap arc-disjointly (valid under --model circuit).  predict gives the time under
-- the timing it is asked for: lockstep, every step its costliest circuit; async, the flow
-- shop (packet c's phase i starts when its phase i-1 and packet c-1's phase i have ended).
local mc = require "meshcast"

local function sizes(L, P)   -- sched's chunk formula
  local b = {}
  for c = 0, P - 1 do b[c] = (c + 1) * L // P - c * L // P end
  return b
end

return {
  name = "pipe-ring",
  summary = "two pipelined chains round a ring, P packets (circuit switching, sched:at)",
  nets = { "ring" },
  params = { P = { 4, min = 1, max = 64, help = "packets" } },
  chunks = function(net, p) return math.min(p.P, math.max(p.bytes, 1)) end,
  build = function(sched, net, p, source)
    local n, P = net:size(), sched:nchunks()
    local right, left = n // 2, (n - 1) // 2       -- hops each way
    for c = 0, P - 1 do
      for i = 1, math.max(right, left) do
        local st = sched:at(i + c)
        if i <= right then
          st:send((source + i - 1) % n, (source + i) % n, { c }, { { 1, 1 } })
        end
        if i <= left then
          st:send((source - i + 1) % n, (source - i) % n, { c }, { { 1, -1 } })
        end
      end
    end
  end,
  predict = function(net, p, cost)
    if cost.model ~= "circuit" then return nil end
    local n = net:size()
    local P = math.min(p.P, math.max(p.bytes, 1))
    local stages = n // 2
    local b = sizes(p.bytes, P)
    local function c(j) return cost.alpha + cost.delta + b[j] * cost.tau end
    if cost.timing == "async" then
      local done = {}
      for i = 1, stages do done[i] = 0 end
      for j = 0, P - 1 do
        local prev = 0
        for i = 1, stages do
          done[i] = math.max(done[i], prev) + c(j)
          prev = done[i]
        end
      end
      return done[stages]
    end
    local sum = 0
    for st = 1, stages + P - 1 do
      local worst = 0
      for i = 1, stages do
        local j = st - i
        if j >= 0 and j < P then worst = math.max(worst, c(j)) end
      end
      sum = sum + worst
    end
    return sum
  end,
}
