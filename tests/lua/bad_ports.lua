-- all-port conflicts by hand on array:5 from node 2 under the circuit model (tests/tui/
-- t_allport_marks.sh): a port conflict is two circuits leaving a node through one out-port or
-- entering it through one in-port (circuit.h); a circuit passing through a node is none of
-- that node's, even on a shared arc.
--   step 2: 2->0 (left) and 2->4 (right) leave 2 by two ports; 1->3 passes through 2 and
--           shares arc 2->3 with 2->4: a shared arc, no port conflict at all
--   step 3: 2->3 and 2->4 both leave 2 by its right port: a conflict at node 2
--   step 4: 0->2 enters 2 by its left port and 4->2 by its right one (0->3 passes through 2 on
--           arc 1->2): none at 2; 0->2 and 0->3 both leave 0 by its right port: a conflict at 0
return {
  name = "bad-ports", nets = { "array" },
  sizes = function(net) return net:size() == 5, "array:5 only" end,
  build = function(sched, net, p, source)
    local st = sched:step()
    st:send(2, 1, { 0 })
    st = sched:step()
    st:send(1, 3, { 0 })
    st:send(2, 0, { 0 })
    st:send(2, 4, { 0 })
    st = sched:step()
    st:send(2, 3, { 0 })
    st:send(2, 4, { 0 })
    st = sched:step()
    st:send(0, 2, { 0 })
    st:send(4, 2, { 0 })
    st:send(0, 3, { 0 })
  end,
}
