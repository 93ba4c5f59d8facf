-- st.lua — Seidel's spanning tree (ST) broadcast on a linear array of 2^d nodes, in Lua
-- (ORNL/TM-12356, 3.1.1 eq. 1 for nu = 0, 3.1.2 eq. 2 for nu > 0; any source: 4.1, 4.2).
--
-- The same schedule as the built-in `st` on arrays (tests/lua/t_lua_vs_builtin.sh checks
-- sched_equal on every size 2..64 and every source, nu = 0 and nu = 1):
--   nu = 0: d steps; at step i every holder j sends the whole message to j ~ 2^(d-i): the tree
--           rooted at 0, moved to the source k by XOR-ing node numbers with k (4.1).
--   nu > 0: distribute 2^nu packets over the source's metanode, ST of packet p in interleaved
--           subarray p, then the nearest-first dimensional exchange in every metanode.
-- Other sizes: pow2 = true hands them to Seidel 5's fit (companions, or --fit virtual), exactly
-- as for the built-in.
--
-- Speed: each ST step is one st:send_strided call (the senders of a step form an arithmetic
-- progression), so building the schedule on array:1048576 costs 20 calls into C, and each
-- step is kept as one block of a few bytes (a tree step once it reaches meshcast's process).
local mc = require "meshcast"

-- Part j of chunks [lo, hi) cut into 2^k parts starts at part(lo, hi, k, j).
local function part(lo, hi, k, j) return lo + (((hi - lo) * j) >> k) end

-- Spanning tree broadcast of chunks [lo, hi) over the group base + j*stride (j < 2^k) from
-- member root, in steps first .. first+k-1.  At step i the senders are the members whose low
-- k-i bits equal root's: an arithmetic progression; each sends half a span left or right.
local function st_block(sched, first, base, stride, k, root, lo, hi)
  local chunks = mc.range(lo, hi - 1)
  for i = 0, k - 1 do
    local st = sched:at(first + i)
    local span = 1 << (k - i)
    local half = span >> 1
    local j0 = root & (span - 1)
    local offset = (root & half) ~= 0 and -half or half
    st:send_strided(base + j0 * stride, span * stride, (1 << k) // span, offset * stride, chunks)
  end
end

-- Distribute (scatter) [lo, hi) from member root along the same tree: member j ends with part j.
local function distribute(sched, first, base, stride, k, root, lo, hi)
  for i = 0, k - 1 do
    local st = sched:at(first + i)
    local span = 1 << (k - i)
    local half = span >> 1
    for r = 0, (1 << k) - 1, span do
      local from, to = r ~ root, (r + half) ~ root
      local blk = to & ~(half - 1)
      local plo, phi = part(lo, hi, k, blk), part(lo, hi, k, blk + half)
      if plo < phi then
        st:send(base + from * stride, base + to * stride, mc.range(plo, phi - 1))
      end
    end
  end
end

-- Dimensional exchange, nearest partner first: member j holds part j and ends with all.
local function exchange(sched, first, base, stride, k, lo, hi)
  for i = 0, k - 1 do
    local st = sched:at(first + i)
    local w = 1 << i
    for j = 0, (1 << k) - 1 do
      local blk = j & ~(w - 1)
      local plo, phi = part(lo, hi, k, blk), part(lo, hi, k, blk + w)
      if plo < phi then
        st:send(base + j * stride, base + (j ~ w) * stride, mc.range(plo, phi - 1))
      end
    end
  end
end

local function label(sched, first, count, text)
  for i = 0, count - 1 do sched:at(first + i):label(text) end
end

return {
  name = "st-lua",
  summary = "spanning binomial tree (Seidel 3.1), written in Lua",
  ref = "Seidel 3.1, eqs. 1-2; 4.1-4.2",
  nets = { "array" },
  pow2 = true,
  virtual = true,
  chunks = function(net, p) return 1 << p.nu end,
  sizes = function(net, p)
    local d = mc.log2(net:size())
    if not d then return false, "needs 2^d nodes" end
    if p.nu > 0 and p.nu >= d then return false, "needs nu < " .. d end
    return true
  end,
  build = function(sched, net, p, source)
    local d = mc.log2(net:size())
    local nu, k = p.nu, source
    if d == 0 then return end
    if nu == 0 then
      label(sched, 1, d, "ST broadcast")
      st_block(sched, 1, 0, 1, d, k, 0, 1)
      return
    end
    local g = 1 << nu
    local meta = k >> nu
    label(sched, 1, nu, "distribute")
    distribute(sched, 1, meta * g, 1, nu, k & (g - 1), 0, g)
    label(sched, nu + 1, d - nu, "ST in subarrays")
    for q = 0, g - 1 do
      st_block(sched, nu + 1, q, g, d - nu, meta, q, q + 1)
    end
    label(sched, d + 1, nu, "exchange")
    for q = 0, (1 << (d - nu)) - 1 do
      exchange(sched, d + 1, q * g, 1, nu, 0, g)
    end
  end,
  -- Eq. 2 (eq. 1 when nu = 0), under the seidel model with the structural nu.
  predict = function(net, p, cost)
    local d = mc.log2(net:size())
    if cost.model ~= "seidel" or not d or cost.nu ~= p.nu then return nil end
    if d == 0 then return 0 end
    local g = 2.0 ^ p.nu
    return (2 + (d - p.nu - 2) / g) * p.bytes * cost.a + (d + p.nu) * cost.b
  end,
}
