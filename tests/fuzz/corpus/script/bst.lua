-- bst.lua — Seidel's bidirectional spanning tree (BST) broadcast on a linear array of 2^d
-- nodes, in Lua (ORNL/TM-12356, 3.3.1 eq. 7, 3.3.2 eq. 8; any source: 4.3).
--
-- The same schedule as the built-in `bst` on arrays (tests/lua/t_lua_vs_builtin.sh):
--   nu = 0, source k, kbar = k ~ (2^d - 1) (the bit-wise complement):
--     1. halve: k keeps half of the message (chunk k & 1) and sends the other (chunk kbar & 1)
--        to kbar;
--     2. two trees (d-1 steps): k broadcasts its half by ST over the nodes of its parity, kbar
--        over the other parity; the roots are complements, so the two trees always send in
--        opposite directions and never share a directed link;
--     3. pair exchange: nodes 2t and 2t+1 swap halves.
--   nu > 0: distribute 2^nu pairs of chunks over the source's metanode, a BST as above of each
--   pair in each interleaved subarray, then the nearest-first exchange in every metanode.
-- Other sizes: pow2 = true, Seidel 5's fits as for the built-in.
local mc = require "meshcast"

local function part(lo, hi, k, j) return lo + (((hi - lo) * j) >> k) end

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

-- One BST of chunks lo, lo+1 over the group base + j*stride (j < 2^D) from member j.
local function bst_sub(sched, first, base, stride, D, j, lo)
  local jbar = j ~ ((1 << D) - 1)
  local mine, other = lo + (j & 1), lo + (jbar & 1)
  sched:at(first):send(base + j * stride, base + jbar * stride, { other })
  st_block(sched, first + 1, base + (j & 1) * stride, 2 * stride, D - 1, j >> 1, mine, mine + 1)
  st_block(sched, first + 1, base + (jbar & 1) * stride, 2 * stride, D - 1, jbar >> 1, other,
           other + 1)
  local st = sched:at(first + D)
  local pairs_ = 1 << (D - 1)
  st:send_strided(base, 2 * stride, pairs_, stride, { lo })
  st:send_strided(base + stride, 2 * stride, pairs_, -stride, { lo + 1 })
end

local function label(sched, first, count, text)
  for i = 0, count - 1 do sched:at(first + i):label(text) end
end

return {
  name = "bst-lua",
  summary = "bidirectional spanning tree (Seidel 3.3), written in Lua",
  ref = "Seidel 3.3, eqs. 7-8; 4.3",
  nets = { "array" },
  pow2 = true,
  virtual = true,
  chunks = function(net, p) return 2 << p.nu end,
  sizes = function(net, p)
    local d = mc.log2(net:size())
    if not d then return false, "needs 2^d nodes" end
    if p.nu > 0 and p.nu >= d then return false, "needs nu < " .. d end
    return true
  end,
  build = function(sched, net, p, source)
    local d = mc.log2(net:size())
    if d == 0 then return end
    local nu, k = p.nu, source
    local D = d - nu
    local g = 1 << nu
    local meta = k >> nu
    if nu > 0 then
      label(sched, 1, nu, "distribute")
      distribute(sched, 1, meta * g, 1, nu, k & (g - 1), 0, 2 * g)
    end
    local pre = nu > 0 and "BST in subarrays: " or "BST: "
    label(sched, nu + 1, 1, pre .. "halve")
    label(sched, nu + 2, D - 1, pre .. "two trees")
    label(sched, nu + D + 1, 1, pre .. "pair exchange")
    for q = 0, g - 1 do
      bst_sub(sched, nu + 1, q, g, D, meta, 2 * q)
    end
    if nu > 0 then
      label(sched, d + 2, nu, "exchange")
      for q = 0, (1 << D) - 1 do
        exchange(sched, d + 2, q * g, 1, nu, 0, 2 * g)
      end
    end
  end,
  -- Eq. 8 (eq. 7 when nu = 0), seidel model, structural nu.
  predict = function(net, p, cost)
    local d = mc.log2(net:size())
    if cost.model ~= "seidel" or not d or cost.nu ~= p.nu then return nil end
    if d == 0 then return 0 end
    local g = 2.0 ^ p.nu
    return (2 + (d - p.nu - 3) / (2 * g)) * p.bytes * cost.a + (d + p.nu + 1) * cost.b
  end,
}
