-- api.lua — exercises the meshcast module from Lua: every check is an assert inside build (a
-- failure names the line).  The schedule it leaves is a correct broadcast (a chain of sends
-- along a Hamiltonian order), so `meshcast check tests/lua/api.lua` passes only if every
-- assert held on every net and source.
local mc = require "meshcast"
assert(require("meshcast") == mc, "require returns the one module")

local function eq(a, b, what)
  if a ~= b then error(string.format("%s: expected %s, got %s", what, tostring(b), tostring(a)), 2) end
end

-- chunk sets (no net needed)
local r = mc.range(2, 5)
eq(r:count(), 4, "range count")
eq(#r, 4, "range __len")
eq(tostring(r), "chunks{2-5}", "range tostring")
eq(mc.range(3, 2):count(), 0, "empty range")
local u = mc.union(mc.range(0, 1), { 5, 3 }, 4)
eq(tostring(u), "chunks{0-1,3-5}", "union")
eq(tostring(u - mc.range(1, 3)), "chunks{0,4-5}", "minus")
eq(tostring(u:intersect(mc.range(1, 4))), "chunks{1,3-4}", "intersect")
eq(mc.count({ 1, 1, 2 }), 2, "count of a list (duplicates merge)")
assert(u:contains(4) and not u:contains(2), "contains")
eq(#u:ranges(), 2, "ranges")
eq(u:ranges()[2][2], 5, "ranges inclusive")
eq(#u:list(), 5, "list")
assert(mc.chunks(0, 1, 2) == mc.range(0, 2), "__eq")
eq(mc.log2(64), 6, "log2")
eq(mc.log2(12), nil, "log2 of a non power")
assert(mc.ispow2(1) and not mc.ispow2(0), "ispow2")

return {
  name = "api-test",
  summary = "asserts over the meshcast module; builds a chain broadcast",
  nets = { "array", "ring", "mesh", "torus" },
  params = { s = 2, w = { 1.5, min = 0, max = 10, help = "a float parameter" } },
  chunks = function(net, p) return p.s end,
  sizes = function(net, p)
    if net:size() > 64 then return false, "small nets only" end
    return true
  end,
  build = function(sched, net, p, source)
    local n = net:size()
    eq(math.type(p.s), "integer", "whole parameters are integers")
    eq(p.w, 1.5, "float parameter")
    eq(p.nu, 0, "p.nu")
    eq(p.bytes, sched:bytes(), "p.bytes")
    eq(sched:nchunks(), p.s, "nchunks")
    eq(sched:source(), source, "source")
    eq(sched:net():size(), n, "sched:net()")
    eq(sched:all():count(), p.s, "all")
    eq(tostring(net), "net(" .. net.spec .. ")", "net tostring")
    local dims = net:dims()
    eq(#dims, net:ndim(), "dims")
    local prod = 1
    for k, e in ipairs(dims) do prod = prod * e; eq(net:dim(k), e, "dim(k)") end
    eq(prod, n, "size = product of dims")
    -- coordinates round trip
    for id = 0, n - 1 do
      eq(net:id(net:coords(id)), id, "id(coords(id))")
      eq(net:id({ net:coords(id) }), id, "id{coords}")
      eq(net:distance(id, id), 0, "distance to itself")
    end
    eq(net:id(-1, 0), nil, "id out of range")
    -- neighbours: wrap on rings and tori, nil past the edge of arrays and meshes
    local last = n - 1
    if net.kind == "ring" or net.kind == "array" then
      eq(net:neighbor(0, 1, 1), 1 % n == 0 and (net:wraps() and 0 or nil) or 1, "neighbor +1")
      if net:wraps() then
        eq(net:neighbor(0, 1, -1), last, "ring wraps")
        eq(net:neighbor(last, 1, 1), 0, "ring wraps back")
      else
        eq(net:neighbor(0, 1, -1), nil, "array edge")
        eq(net:neighbor(last, 1, 1), nil, "array edge right")
        eq(net:distance(0, last), last, "array distance")
        local rt = net:route(0, last)
        eq(#rt, 1, "one segment"); eq(rt[1].dim, 1, "seg dim"); eq(rt[1].dir, 1, "seg dir")
        eq(rt[1].len, last, "seg len")
      end
    else
      local rows, cols = dims[1], dims[2]
      -- XY routing: along the row first (dimension 2), then the column (dimension 1)
      local a, b = net:id(0, 0), net:id(rows - 1, cols - 1)
      local rt = net:route(a, b)
      if net.kind == "mesh" and rows > 1 and cols > 1 then
        eq(#rt, 2, "mesh route has two segments")
        eq(rt[1].dim, 2, "row first"); eq(rt[1].len, cols - 1, "row length")
        eq(rt[2].dim, 1, "then column"); eq(rt[2].len, rows - 1, "column length")
        eq(net:distance(a, b), rows + cols - 2, "mesh distance")
        eq(net:neighbor(a, 1, -1), nil, "mesh edge")
      end
      if net.kind == "torus" then
        eq(net:neighbor(a, 2, -1), net:id(0, cols - 1), "torus wraps")
      end
      eq(net:neighbor(a, 2, 1), cols > 1 and net:id(0, 1) or (net:wraps() and a or nil),
         "neighbor along the row")
    end
    -- a chain broadcast along ids: source -> source+1 -> ... (mod n), pipelined by chunk
    local order = {}
    for i = 0, n - 1 do order[#order + 1] = (source + i) % n end
    if n == 1 then return end
    local nsteps = (n - 1) + (p.s - 1)
    for k = 1, nsteps do
      local st = sched:step()
      eq(st:index(), k, "step index")
      for c = 0, p.s - 1 do
        local hop = k - c      -- chunk c moves on hop (k - c)
        if hop >= 1 and hop <= n - 1 then
          local from, to = order[hop], order[hop + 1]
          assert(sched:holds(from, c), "holds before sending")
          -- explicit route = the default one, given back
          st:send(from, to, { c }, net:route(from, to))
        end
      end
    end
    -- after the steps built so far, everyone holds everything
    for id = 0, n - 1 do
      for c = 0, p.s - 1 do assert(sched:holds(id, c), "holds at the end") end
      eq(sched:held(id):count(), p.s, "held count")
    end
    -- holdings after step 1 only
    eq(sched:holds(order[2], 0, 1), true, "after step 1 the second node holds chunk 0")
    if n > 2 then eq(sched:holds(order[3], 0, 1), false, "but not the third") end
    eq(sched:held(order[1], 0):count(), p.s, "the source holds all before step 1")
    sched:at(1):label("first hop")
    sched:at(1):permute(source, 0)
  end,
}
