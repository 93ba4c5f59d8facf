-- chain-vs-tree.lua — Sanders & Sibeyn, Sections 1-2: the pipelined chain has the bandwidth,
-- the pipelined binary tree the latency.  full:32 under the postal model (a step costs
-- t + the largest packet; t = 16, k = 64K bytes).  Every answer is derived from the engine
-- by tests/unit/test_sanders_lessons.c; tests/tui/t_course.sh answers every page in tmux.
return {
  title = "Chain or tree: latency against bandwidth",
  about = "Sanders & Sibeyn's starting point: a chain forwards a packet every step but is " ..
          "P - 1 deep; a binary tree is log P deep but each node feeds two children.",
  pages = {
    {
      text = [[
Sanders & Sibeyn's machine: 32 processors, any one can send to any other in one step; only
the ports count (a node sends one packet and receives one per step).  The postal model prices
a step at t + the largest packet: here t = 16 and the message is k = 64K bytes.

The chain: node 0 sends to node 1, node 1 to node 2, and so on.  First, the whole message
as one packet (s = 1).]],
      net = "full:32", algo = "chain", source = 0, bytes = "64K", model = "postal",
      set = { s = 1, t = 16 }, step = 0,
      question = {
        text = "How many steps does the chain take with one packet?",
        choices = { "6", "31", "32" },
        answer = "b",
        explain = "P - 1 = 31: the packet passes every node in turn.",
        feedback = {
          a = "6 is the binary tree's depth (next page), not the chain's.",
          c = "The source already holds the packet: 31 other nodes, one step each.",
        },
      },
    },
    {
      text = [[
The pipelined binary tree (bintree): every node forwards to two children, in the paper's
skewed layout (the left subtree of a node is deeper than the right one).  Still one packet.]],
      net = "full:32", algo = "bintree", source = 0, bytes = "64K", model = "postal",
      set = { s = 1, t = 16 }, step = 0,
      question = {
        text = "How many steps does the binary tree take with one packet?",
        choices = { "5", "6", "31" },
        answer = "b",
        explain = "A node sends to its first child, then its second: the informed nodes " ..
                  "grow like the Fibonacci numbers, and 32 nodes need 6 steps.",
        feedback = {
          a = "5 steps would need doubling every step; a tree node sends to one child per step.",
          c = "31 is the chain's count.",
        },
      },
    },
    {
      text = [[
With one packet every step moves all 64K bytes: a step costs t + k = 65552.  Fewer steps is
everything.]],
      net = "full:32", algo = "bintree", source = 0, bytes = "64K", model = "postal",
      set = { s = 1, t = 16 }, step = 6,
      question = {
        text = "With one packet, which broadcast costs less?",
        choices = { "the chain", "the binary tree", "they cost the same" },
        answer = "b",
        explain = "6 steps against 31, each t + k: the tree's low latency (depth log P).",
        feedback = {
          a = "The chain takes 31 steps of the same cost.",
          c = "The steps cost the same, but the chain takes 31 of them, the tree 6.",
        },
      },
    },
    {
      text = [[
Now pipeline: cut the message into s = 256 packets of 256 bytes.  In the chain, node i passes
packet j on while it receives packet j + 1: the pipeline fills in P - 2 steps and then
delivers a packet every step.]],
      net = "full:32", algo = "chain", source = 0, bytes = "64K", model = "postal",
      set = { s = 256, t = 16 }, step = 0,
      question = {
        text = "How many steps does the chain take with 256 packets?",
        choices = { "256", "286", "7936" },
        answer = "b",
        explain = "P - 2 + s = 30 + 256 = 286.",
        feedback = {
          a = "The last packet still has to travel down the chain: 30 more steps.",
          c = "7936 is the number of transfers (31 x 256), many in the same step.",
        },
      },
    },
    {
      text = [[
The binary tree with the same 256 packets.]],
      net = "full:32", algo = "bintree", source = 0, bytes = "64K", model = "postal",
      set = { s = 256, t = 16 }, step = 0,
      question = {
        text = "How many steps does the binary tree take with 256 packets?",
        choices = { "262", "516", "768" },
        answer = "b",
        explain = "About d + 2s: a node needs two steps per packet, one for each child.",
        feedback = {
          a = "That would be a packet every step, like the chain; a tree node feeds two.",
          c = "Three steps per packet would be a ternary tree.",
        },
      },
    },
    {
      text = [[
Each step now moves one packet of 256 bytes: it costs t + 256 = 272.]],
      net = "full:32", algo = "bintree", source = 0, bytes = "64K", model = "postal",
      set = { s = 256, t = 16 }, step = 516,
      question = {
        text = "With 256 packets, which broadcast costs less?",
        choices = { "the chain", "the binary tree", "they cost the same" },
        answer = "a",
        explain = "286 steps against 516 of the same price: the chain's bandwidth (a packet " ..
                  "per step) wins once the message is long.",
        feedback = {
          b = "The tree's steps cost the same as the chain's, and it takes 516 of them.",
          c = "Same price per step, but not the same number of steps.",
        },
      },
    },
    {
      text = [[
Both broadcasts deliver every packet to 31 nodes.]],
      net = "full:32", algo = "bintree", source = 0, bytes = "64K", model = "postal",
      set = { s = 256, t = 16 }, step = 516,
      question = {
        text = "How many transfers do the chain and the tree make with 256 packets?",
        choices = { "both 7936", "the tree twice as many", "the chain twice as many" },
        answer = "a",
        explain = "31 x 256 each: the same traffic, spread over fewer steps in the chain.",
        feedback = {
          b = "Every node receives every packet exactly once, in both: 31 x 256.",
          c = "Every node receives every packet exactly once, in both: 31 x 256.",
        },
      },
    },
    {
      text = [[
Where do the tree's extra steps come from?  Count what one node sends.]],
      net = "full:32", algo = "bintree", source = 0, bytes = "64K", model = "postal",
      set = { s = 256, t = 16 }, step = 516,
      question = {
        text = "How many packets does the busiest node of the tree send?",
        choices = { "256", "512", "7936" },
        answer = "b",
        explain = "An inner node sends every packet to two children: 2s = 512, one per step.",
        feedback = {
          a = "That is what a chain node sends; a tree node has two children.",
          c = "That is every transfer of the broadcast.",
        },
      },
    },
    {
      text = [[
Now you try.  The chain with 256 packets: step through it (n, or :step N) and watch the
pipeline fill.]],
      net = "full:32", algo = "chain", source = 0, bytes = "64K", model = "postal",
      set = { s = 256, t = 16 }, step = 0,
      question = {
        text = "Go to the first position at which every node holds a packet, then press Enter.",
        try = { step = 31 },
        hint = "The chain passes the first packet on one node per step: step with n (or :step) until the chain's last node holds one; the Node panel shows what a node holds.",
        explain = "Packet 0 reaches the last node after P - 1 = 31 steps: the chain's latency.",
      },
    },
    {
      text = [[
Now you try.  Back to one packet (:set s=1): show the cheaper of the two broadcasts
(:algo chain or :algo bintree).]],
      net = "full:32", algo = "chain", source = 0, bytes = "64K", model = "postal",
      set = { s = 256, t = 16 }, step = 0,
      question = {
        text = "Show the cheaper broadcast of one packet, then press Enter.",
        try = { algo = "bintree", set = { s = 1 } },
        hint = "With a single packet (set s to one) latency is all that counts: which of the two broadcasts has fewer steps?",
        explain = "With one packet the depth decides: the tree, 6 steps against 31.",
      },
    },
  },
}
