-- st-mesh.lua — a dimension-by-dimension spanning tree broadcast on meshes and tori of
-- 2^d1 x 2^d2 (x 2^d3) nodes, from any source, in Lua.
--
-- Not one of Seidel's schedules, though close to his "simple" mesh ST (3.2.1, eq. 3): the
-- message first spreads along dimension 1 (down the source's column) by a binomial tree, then
-- every holder spreads it along dimension 2 (its row), then dimension 3.  Each tree is rooted
-- at the source by XOR-ing coordinates (Seidel 4.1 applied per dimension), so on a mesh every
-- step's messages travel the same distance in the same direction over disjoint links: no link
-- or port contention.  Cost (seidel, nu = 0): (d1 + d2 [+ d3]) (ma + b).
-- On a torus the routes are the same (a tree hop of exactly half the ring goes the positive
-- way), so it still verifies; `meshcast check` shows the contention it may meet there.
--
-- Speed: one st:send_strided call per line and step (the senders of a line form an arithmetic
-- progression), e.g. 10 + 1024*10 calls on mesh:1024x1024 for a million transfers; the lines of
-- a step continue each other, so each step is kept as one block of a few bytes.
local mc = require "meshcast"

-- Step i (0-based) of the binomial trees over the groups base + j*stride (j < 2^k), one group
-- per entry of bases, all rooted at member root: the senders of a group are the members whose
-- low k-i bits equal root's, an arithmetic progression, each sending half a span one way.
local function tree_step(st, bases, stride, k, i, root, c)
  local span = 1 << (k - i)
  local half = span >> 1
  local j0 = root & (span - 1)
  local offset = ((root & half) ~= 0 and -half or half) * stride
  local count = (1 << k) // span
  for _, base in ipairs(bases) do
    st:send_strided(base + j0 * stride, span * stride, count, offset, c)
  end
end

return {
  name = "st-mesh",
  summary = "spanning tree along dimension 1, then 2 (then 3), any source (Seidel-style, 3.2.1)",
  ref = "after Seidel 3.2.1 (simple ST, eq. 3) and 4.1",
  nets = { "mesh", "torus" },
  pow2 = true,
  sizes = function(net, p)
    for _, n in ipairs(net:dims()) do
      if not mc.ispow2(n) then return false, "needs 2^d nodes in every dimension" end
    end
    return true
  end,
  build = function(sched, net, p, source)
    local dims = net:dims()
    local nd = #dims
    local src = { net:coords(source) }
    local c = mc.range(0, 0)
    local first = 1
    -- stride[k]: distance in ids between neighbours along dimension k (row-major)
    local stride = {}
    stride[nd] = 1
    for k = nd - 1, 1, -1 do stride[k] = stride[k + 1] * dims[k + 1] end
    for k = 1, nd do
      local lg = mc.log2(dims[k])
      if lg > 0 then
        for i = 0, lg - 1 do sched:at(first + i):label("tree along dimension " .. k) end
        -- lines along k: dimensions before k range over everything (already covered),
        -- dimensions after k sit at the source's coordinates
        local fixed = 0
        for q = k + 1, nd do fixed = fixed + src[q] * stride[q] end
        local lines = 1
        for q = 1, k - 1 do lines = lines * dims[q] end
        local bases = {}
        for line = 0, lines - 1 do
          -- decode the line number into coordinates of dimensions 1..k-1
          local base, rest = fixed, line
          for q = k - 1, 1, -1 do
            base = base + (rest % dims[q]) * stride[q]
            rest = rest // dims[q]
          end
          bases[#bases + 1] = base
        end
        -- step by step (all lines of a step together: the schedule fills one step at a time)
        for i = 0, lg - 1 do
          tree_step(sched:at(first + i), bases, stride[k], lg, i, src[k], c)
        end
        first = first + lg
      end
    end
  end,
  predict = function(net, p, cost)
    if cost.model ~= "seidel" or net.kind ~= "mesh" or cost.nu ~= 0 then return nil end
    local d = 0
    for _, n in ipairs(net:dims()) do d = d + mc.log2(n) end
    return d * (p.bytes * cost.a + cost.b)
  end,
}
