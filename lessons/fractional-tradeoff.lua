-- fractional-tradeoff.lua — Sanders & Sibeyn, Section 3: the fractional tree, groups of r
-- PUs in chains hanging in a binary tree of groups, trades the tree's latency for the chain's
-- bandwidth.  full:256 under the postal model (t = 16, k = 4096 bytes).  Every answer is
-- derived from the engine by tests/unit/test_sanders_lessons.c (the best r by sweeping r and
-- simulating every one); tests/tui/t_course.sh answers every page in tmux.
return {
  title = "Fractional trees: set r and see",
  about = "Groups of r processors forward like a chain, the groups form a binary tree: r = 1 " ..
          "is the binary tree, a huge r the chain, and in between lies the cheapest.",
  pages = {
    {
      text = [[
256 processors (full:256, any to any in one step), the postal model with t = 16, a message of
4096 bytes in s = 64 packets.  The fractional tree cuts the nodes into groups of r; a group
passes packets along like a chain, and each group feeds two groups below it, as a binary tree.

With r = 1 every group is one node.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 1, s = 64, t = 16 }, step = 0,
      question = {
        text = "How does the fractional tree with r = 1 compare with bintree (s = 64)?",
        choices = { "the same steps and cost", "fewer steps", "more steps" },
        answer = "a",
        explain = "r = 1 is the pipelined binary tree: 137 steps either way.",
        feedback = {
          b = "With groups of one node there is nothing left to chain: it is bintree.",
          c = "With groups of one node there is nothing left to chain: it is bintree.",
        },
      },
    },
    {
      text = [[
The other end: one group of (almost) every node.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 255, s = 64, t = 16 }, step = 0,
      question = {
        text = "How many steps with r = 255?",
        choices = { "137", "318", "383" },
        answer = "b",
        explain = "P - 2 + s = 254 + 64 = 318: exactly the chain.",
        feedback = {
          a = "137 is r = 1, the binary tree.",
          c = "The packets pipeline: the chain's P - 2 + s.",
        },
      },
    },
    {
      text = [[
In between: groups of r = 4.  Each group feeds two groups below it, so a group's chain
carries every packet once but its nodes take turns feeding the children: r packets leave a
group in r + 1 steps instead of 2r.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 4, s = 64, t = 16 }, step = 0,
      question = {
        text = "How many steps with r = 4?",
        choices = { "104", "137", "318" },
        answer = "a",
        explain = "Deeper than the tree but nearly a packet per step: 104.",
        feedback = {
          b = "137 is r = 1.",
          c = "318 is the chain.",
        },
      },
    },
    {
      text = [[
Every step costs the same here, t + 64 = 80: the fewer steps, the cheaper.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 4, s = 64, t = 16 }, step = 104,
      question = {
        text = "Which is cheapest with s = 64: the chain, bintree, or this fractional tree?",
        choices = { "the chain", "bintree", "the fractional tree, r = 4" },
        answer = "c",
        explain = "318 and 137 steps against 104: the fractional tree beats both.",
        feedback = {
          a = "The chain is 254 deep: 318 steps.",
          b = "The tree sends each packet twice per node: 137 steps.",
        },
      },
    },
    {
      text = [[
Now you try.  Set r (:set r=2, :set r=3, ...) and watch the total cost in the Step panel.
Keep s = 64.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 1, s = 64, t = 16 }, step = 0,
      question = {
        text = "Set r to the value with the lowest cost for s = 64, then press Enter.",
        try = { set = { r = 4 } },
        hint = "Try :set r= with small powers of two and compare the totals: the cost falls, then rises again.",
        explain = "r = 4: 104 steps; r = 3 and r = 5 take 105.",
      },
    },
    {
      text = [[
Fewer, bigger packets: s = 16 (256 bytes each).  Now a step costs t + 256 = 272.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 4, s = 16, t = 16 }, step = 0,
      question = {
        text = "How many steps with r = 4 and s = 16?",
        choices = { "38", "44", "104" },
        answer = "b",
        explain = "44: with few packets the depth weighs more.",
        feedback = {
          a = "38 is what the best r gives here (next page).",
          c = "104 is s = 64.",
        },
      },
    },
    {
      text = [[
Now you try.  With s = 16, set r again until the cost is lowest.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 4, s = 16, t = 16 }, step = 0,
      question = {
        text = "Set r to the value with the lowest cost for s = 16, then press Enter.",
        try = { set = { r = 2 } },
        hint = "As before, with fewer packets: try the smallest values of r first and keep the one with the lowest total.",
        explain = "r = 2: 38 steps.  Few packets: latency matters, closer to the tree.",
      },
    },
    {
      text = [[
And many small packets: s = 256 (16 bytes each).]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 4, s = 256, t = 16 }, step = 0,
      question = {
        text = "With s = 256, is the best r larger or smaller than with s = 64?",
        choices = { "larger", "smaller", "the same" },
        answer = "a",
        explain = "Many packets: bandwidth matters, closer to the chain (r = 8 to 10 take " ..
                  "328 steps, r = 4 takes 344).",
        feedback = {
          b = "Smaller r is closer to the tree: better when packets are few.",
          c = "Try it: :set r=8.",
        },
      },
    },
    {
      text = [[
The paper chooses s and r by formula (--set s=auto, r=auto) and meshcast shows the best found
by search beside it.  The same packets, the same traffic: only the shape of the tree moves the
cost between the depth term and the per-packet term.]],
      net = "full:256", algo = "fractional", source = 0, bytes = 4096, model = "postal",
      set = { r = 4, s = 64, t = 16 }, step = 104,
      question = {
        text = "How many transfers does the fractional tree (r = 4, s = 64) make?",
        choices = { "16320", "32640", "64" },
        answer = "a",
        explain = "255 nodes x 64 packets, each received once: the same as the chain and the tree.",
        feedback = {
          b = "Every node receives every packet once: 255 x 64.",
          c = "64 is the packet count.",
        },
      },
    },
    {
      text = [[
Simplex ports (duplex = 0): a node either sends or receives in a step, never both, and the
duplex tree above breaks that rule.  fractional-direct runs the same program with every
"send and receive" split into two steps, in an order that makes nobody wait: a run of r
packets then takes 2r + 1 steps instead of r + 1.]],
      net = "full:256", algo = "fractional-direct", source = 0, bytes = 4096, model = "postal",
      set = { r = 4, s = 64, t = 16, duplex = 0 }, step = 0,
      question = {
        text = "How many steps with r = 4 and s = 64 under simplex ports?",
        choices = { "104", "187", "200" },
        answer = "b",
        explain = "187: 9 steps a run of 4 packets; the two-substep emulation " ..
                  "(fractional-simplex, couples of nodes playing one duplex node) takes 200.",
        feedback = {
          a = "104 is the duplex tree, which sends and receives in the same step.",
          c = "200 is the emulation (fractional-simplex): the direct schedule is faster.",
        },
      },
    },
  },
}
