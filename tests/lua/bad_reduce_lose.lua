-- A reduction (op = "reduce") on 4 nodes that loses a contribution: node 3 never sends its
-- partial of chunk 1 anywhere, so the root lacks node 3's contribution to chunk 1.
return {
  name = "bad-reduce-lose", op = "reduce", nets = { "full", "array" }, chunks = 2,
  build = function(sched, net, p, root)
    assert(root == 0 and net:size() == 4, "4 nodes, root 0")
    sched:step():send(3, 2, 0)                    -- chunk 1 stays at node 3
    sched:step():send(2, 1, { 0, 1 })
    sched:step():send(1, 0, { 0, 1 })
  end,
}
