-- stop-ring.lua — s-to-p broadcasting by a ring allgather along the snake (not in the paper).
--
-- The nodes form a ring in snake order (row-major, every other row reversed; the last node
-- wraps to the first).  In every step each node passes on to its successor the messages it
-- received in the step before (a source starts with its own), combined into one transfer,
-- so every message travels once round the ring: p - 1 steps, one send and one receive per
-- node per step, never two circuits on a link except the wrap-around.  Few steps it is not:
-- the point is to compare it with the paper's log p algorithms (`compare --sources`), where
-- it loses on start-ups and wins nothing on bandwidth.
-- stop = true: any number of sources (--sources SPEC), each its own message of one chunk,
-- source j (in sched:sources() order) holding chunk j.
local mc = require "meshcast"

return {
  name = "stop-ring",
  summary = "s-to-p: ring allgather along the snake, messages passed on as they arrive",
  nets = { "array", "ring", "mesh", "torus" },
  stop = true,
  chunks = 1,
  sizes = function(net, p)
    if net:ndim() > 2 then return false, "needs a 1-D or 2-D net" end
    if net:size() > 4096 then return false, "at most 4096 nodes (p - 1 steps)" end
    return true
  end,
  build = function(sched, net, p, source)
    local n = net:size()
    local rows, cols = 1, n
    if net:ndim() == 2 then rows, cols = net:dim(1), net:dim(2) end
    -- the snake: pos -> node
    local snake = {}
    for r = 0, rows - 1 do
      for j = 0, cols - 1 do
        local c = (r % 2 == 1) and (cols - 1 - j) or j
        snake[#snake + 1] = r * cols + c
      end
    end
    -- fresh[pos]: the chunk ids that node received last step (to pass on)
    local fresh, have = {}, {}
    for pos = 1, n do fresh[pos] = {}; have[pos] = {} end
    local where = {}
    for pos, node in ipairs(snake) do where[node] = pos end
    for j, node in ipairs(sched:sources()) do
      local pos = where[node]
      fresh[pos][#fresh[pos] + 1] = j - 1
      have[pos][j - 1] = true
    end
    for k = 1, n - 1 do
      local st = sched:step("ring " .. k .. "/" .. (n - 1))
      local nxt = {}
      for pos = 1, n do nxt[pos] = {} end
      local any = false
      for pos = 1, n do
        local to = pos % n + 1
        local pass = {}
        for _, c in ipairs(fresh[pos]) do
          if not have[to][c] then pass[#pass + 1] = c end
        end
        if #pass > 0 then
          st:send(snake[pos], snake[to], pass)
          for _, c in ipairs(pass) do nxt[to][#nxt[to] + 1] = c end
          any = true
        end
      end
      for pos = 1, n do
        for _, c in ipairs(nxt[pos]) do have[pos][c] = true end
      end
      fresh = nxt
      if not any then break end
    end
  end,
}
