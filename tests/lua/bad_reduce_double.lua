-- A reduction (op = "reduce") on 4 nodes that counts a contribution twice: node 3 sends its
-- partial of chunk 0 to node 2 and to node 1, and node 2's partial (with node 3's in it) then
-- reaches node 1 as well: at step 3 node 1 combines node 3's contribution to chunk 0 again.
return {
  name = "bad-reduce-double", op = "reduce", nets = { "full", "array" }, chunks = 1,
  build = function(sched, net, p, root)
    assert(root == 0 and net:size() == 4, "4 nodes, root 0")
    sched:step():send(3, 2, 0)
    sched:step():send(3, 1, 0)
    sched:step():send(2, 1, 0)
    sched:step():send(1, 0, 0)
  end,
}
