-- ring-pipeline.lua — a two-way pipelined broadcast on rings and arrays (not in the papers;
-- the script the Lua API's minimum example grows into).
--
-- The message is cut into s chunks.  From the source, one pipeline runs in the +1 direction
-- and one in the -1 direction, each along its half of the ring (on an array: each towards its
-- end).  In a pipeline of len hops, chunk c crosses hop h at step h + c, so after
-- len + s - 1 steps everyone holds everything, each step carrying only m/s bytes a hop.
-- Each node forwards one chunk per step and receives one; only the source sends twice per
-- step (one chunk each way), which a one-port model (seidel) serialises and the postal model
-- forbids: compare `check --model postal` with the single-direction `chain` built-in.
-- Parameter: s (chunks, 1..4096, default 4).
local mc = require "meshcast"

return {
  name = "ring-pipeline",
  summary = "two pipelines from the source, one each way round the ring",
  nets = { "ring", "array" },
  params = { s = { 4, min = 1, max = 4096, help = "chunks the message is cut into" } },
  chunks = function(net, p) return p.s end,
  build = function(sched, net, p, source)
    local n, s = net:size(), p.s
    if n == 1 then return end
    -- the two paths, as lists of nodes starting at the source
    local fwd, bwd = { source }, { source }
    local nf, nb
    if net:wraps() then
      nf = n // 2                -- ceil((n-1)/2) nodes one way ...
      nb = n - 1 - nf            -- ... the rest the other way
    else
      nf, nb = n - 1 - source, source
    end
    for h = 1, nf do fwd[h + 1] = net:neighbor(fwd[h], 1, 1) end
    for h = 1, nb do bwd[h + 1] = net:neighbor(bwd[h], 1, -1) end
    local steps = math.max(nf, nb) + s - 1
    for t = 1, steps do
      local st = sched:step("pipelines")
      for _, path in ipairs({ fwd, bwd }) do
        for h = 1, #path - 1 do
          local c = t - h
          if c >= 0 and c < s then st:send(path[h], path[h + 1], c) end
        end
      end
    end
  end,
}
