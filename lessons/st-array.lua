-- st-array.lua — the spanning tree (ST) broadcast on a linear array (Seidel 3.1.1 and 4.1):
-- why it has no contention, from node 0 and from node 5.  Every answer is checked against the
-- engine by tests/unit/test_lua_lessons.c.
return {
  title = "The ST broadcast on a linear array",
  about = "A binomial spanning tree on 16 nodes: who sends when, why no link is ever shared, " ..
          "and how XOR moves the tree to any source.",
  pages = {
    {
      text = [[
A linear array of 16 nodes, numbered 0 to 15.  Node 0 holds a message of m = 1024 bytes and
every node must get a copy.

The spanning tree (ST) broadcast doubles the number of holders at every step: each node that
holds the message sends it to one node that does not, as far away as possible.]],
      net = "array:16", algo = "st", source = 0, bytes = 1024, model = "seidel", step = 0,
      nodes = { 0 },
      question = {
        text = "How many steps does the ST broadcast need to reach all 16 nodes?",
        choices = { "4", "8", "15", "16" },
        answer = "a",
        feedback = {
          b = "8 is how many nodes hold the message after step 3; one more step doubles them.",
          c = "15 is how many messages are sent (one to every other node), not how many steps: " ..
              "several go in the same step.",
          d = "16 is the number of nodes, not of steps.",
        },
        explain = "The holders double each step: 1, 2, 4, 8, 16.  d = lg 16 = 4 steps.",
      },
    },
    {
      text = [[
Step 1: node 0 sends the whole message half-way down the array.  At step i a holder j sends
to j XOR 2^(d-i): the farthest partner first.]],
      step = 1,
      nodes = { 0 },
      question = {
        text = "Click the node that receives the message in step 1.",
        click = "node", answer = 8,
        hint = "The nodes are numbered 0 to 15 from the left: count half the array's length to the right of the source.",
        explain = "0 XOR 8 = 8: half-way along the array.",
      },
    },
    {
      text = [[
Step 2: nodes 0 and 8 both send, each a quarter of the array to the right (0 -> 4, 8 -> 12).
Both messages travel 4 hops in the same direction, and their senders are 8 apart: their
routes cannot overlap.]],
      step = 2,
      path = { 0, 4 }, links = { { 8, 9 }, { 9, 10 }, { 10, 11 }, { 11, 12 } },
      question = {
        text = "What is the largest number of circuits on any one link in step 2?",
        choices = { "1", "2", "3" },
        answer = 1,
        feedback = {
          b = "0 -> 4 and 8 -> 12 run the same way, 8 apart: their routes never overlap.",
          c = "There are only two messages in step 2.",
        },
        explain = "Each link carries at most one circuit: no link contention.",
      },
    },
    {
      text = [[
Step 4, the last: the 8 holders send to their right-hand neighbours.  Every node now holds the
message.]],
      step = 4,
      question = {
        text = "How many messages does the whole broadcast send?",
        choices = { "4", "15", "16", "30" },
        answer = "b",
        feedback = {
          a = "4 is the number of steps; several messages go in each.",
          c = "16 counts the source, which needs no message.",
          d = "30 would be two messages a node: each node receives exactly once.",
        },
        explain = "Each of the 15 other nodes receives the message exactly once.",
      },
    },
    {
      text = [[
Now you try.  Step back through the broadcast (p, PgUp or Backspace; the arrow keys move the
cursor) and watch the holders
double.]],
      step = 4,
      question = {
        text = "Go to the position right after the step in which node 12 first holds the message, then press Enter.",
        try = { step = 2 },
        hint = "Step with n and watch that node: stop at the first position at which it holds the message.",
        explain = "Node 8 got the message in step 1 and sent it 4 hops right, to 12, in step 2.",
      },
    },
    {
      text = [[
Cost under Seidel's model: a message of m bytes costs m*a + b (a = 0.08 us/byte, b = 75 us on
the Intel Delta), and a step costs as much as its slowest message.  With no contention and no
node sending twice in a step, every step costs ma + b.]],
      step = 4,
      question = {
        text = "So the ST broadcast on 2^d nodes costs:",
        choices = { "d (ma + b)", "(d + 1) (ma/2 + b)", "(n - 1) (ma + b)" },
        answer = 1,
        feedback = {
          b = "(d + 1) (ma/2 + b) is BST: half messages, one step more.",
          c = "(n - 1) (ma + b) would be one message at a time; ST sends many in each step.",
        },
        explain = "Equation 1 of the report: d(ma + b) = 4 * (1024 * 0.08 + 75) = 627.68 us here.",
      },
    },
    {
      text = [[
Now the source is node 5.  Seidel's Section 4.1: take the tree rooted at 0 and XOR every node
number with 5.  Step 1: node 5 sends to 5 XOR 8.]],
      source = 5, step = 1,
      nodes = { 5 },
      question = {
        text = "Click the node that node 5 sends to in step 1.",
        click = "node", answer = 13,
        hint = "ST from any source: XOR the sender's number with step 1's distance, half the array's length.",
        explain = "5 XOR 8 = 13: 8 hops to the right.",
      },
    },
    {
      text = [[
Step 2 from node 5: the senders are 5 and 13, and each flips bit 2 (value 4) of its number.
Bit 2 of 5 is 1, so both messages go the same way.]],
      step = 2,
      path = { 5, 1 },
      question = {
        text = "In step 2, which way do the messages travel?",
        choices = { "both to the right", "both to the left", "one each way" },
        answer = 2,
        feedback = {
          a = "Bit 2 of 5 is 1, so flipping it goes down: 5 -> 1 and 13 -> 9, to the left.",
          c = "All senders of a step flip the same bit of numbers that agree on it: the same way.",
        },
        explain = "5 -> 1 and 13 -> 9: both 4 hops to the left, 8 apart, so still disjoint.",
      },
    },
    {
      text = [[
Step 3 from node 5: four senders (1, 5, 9, 13) each send 2 hops to the right.]],
      step = 3,
      nodes = { 1, 5, 9, 13 },
      question = {
        text = "Click the first link that node 5's message crosses in step 3.",
        click = "link", answer = { 5, 6 },
        hint = "Where does this node send in step 3, to a higher or a lower number?  Its message leaves on the link toward that side.",
        explain = "5 -> 7 goes right: first over the link 5 -> 6, then 6 -> 7.",
      },
    },
    {
      text = [[
The whole broadcast from node 5 takes 4 steps and costs the same as from node 0.  The same
argument holds for every source.]],
      step = 4,
      question = {
        text = "Why does no link ever carry two circuits, whatever the source?",
        choices = {
          "the messages of a step go the same distance the same way, and their senders are farther apart than that",
          "the array is short enough",
          "each node sends only once in the whole broadcast",
        },
        answer = "a",
        feedback = {
          b = "Length does not matter: the argument holds on 2^d nodes for any d.",
          c = "A node sends in every step after it receives: many times, not once.",
        },
        explain = "Seidel 4.1: at step i senders are 2^(d-i+1) apart and send 2^(d-i) hops in one direction.",
      },
    },
    {
      text = [[
Now you try: any source.  Put the cursor on node 6 (h/l or a click) and press s to make it the
source.  The tree is XORed with 6.]],
      step = 0,
      question = {
        text = "With node 6 as the source, go to the position right after the step in which node 7 receives the message, then press Enter.",
        try = { source = 6, step = 4 },
        hint = "Make that node the source (:source, or the cursor and s); the two nodes differ only in the lowest bit, so look late in the broadcast.",
        explain = "6 XOR 7 = 1: node 7 is node 6's partner at distance 1, the last step (4).",
      },
    },
  },
}
