-- any-source.lua — broadcasting from any node (Seidel 4.1-4.2): the XOR trick on arrays, BST's
-- complement, RH's extra permutation, the mesh.  Every answer is derived again from the engine by
-- tests/unit/test_lua_lessons.c.
return {
  title = "Any source: moving the tree",
  about = "The spanning trees are drawn for node 0.  XOR every node number with the source " ..
          "and the same tree works from anywhere, at the same cost.",
  pages = {
    {
      text = [[
The ST broadcast on 16 nodes, this time from node 11.  Seidel's Section 4.1: take the tree
rooted at node 0 and XOR every node number with the source.

At step i a holder j sends to j XOR 2^(d-i).]],
      net = "array:16", algo = "st", source = 11, bytes = 1024, model = "seidel", step = 1,
      nodes = { 11 },
      question = {
        text = "Click the node that node 11 sends to in step 1.",
        click = "node", answer = 3,
        hint = "ST from any source: in step 1 the sender flips the highest bit of its own number (XOR with half the array's length).",
        explain = "11 XOR 8 = 3: eight hops to the left.",
      },
    },
    {
      text = [[
The whole broadcast from node 11.]],
      step = 4,
      question = {
        text = "Compared with the broadcast from node 0, the broadcast from node 11 costs:",
        choices = { "the same", "more: the messages go both ways", "less: node 11 is nearer the middle" },
        answer = 1,
        feedback = {
          b = "Both ways, yes, but in each step all messages still go the same way and never share a link.",
          c = "The cost does not depend on distance here: every step costs ma + b whatever the hops.",
        },
        explain = "Every step costs ma + b: 4 (1024 * 0.08 + 75) = 627.68 us from any source.",
      },
    },
    {
      text = [[
Contention from node 11: in each step the senders are twice as far apart as they send.]],
      step = 4,
      question = {
        text = "What is the largest number of circuits on one link over the whole broadcast?",
        choices = { "1", "2", "4" },
        answer = 1,
        feedback = { b = "Two would need two messages of one step to overlap: they never do.",
                     c = "Four holders never send over the same link." },
        explain = "1: no contention from any source.",
      },
    },
    {
      text = [[
Now you try: any source, your choice.  Put the cursor on node 9 (h/l or a click) and press s
to make it the source.]],
      step = 0,
      question = {
        text = "With node 9 as the source, go to the position right after the step in which node 1 receives the message, then press Enter.",
        try = { source = 9, step = 1 },
        hint = "Set the source with :source, then press n one step at a time and watch when that node fills in.",
        explain = "9 XOR 1 = 8 = 2^3: node 1 is node 9's first partner, step 1.",
      },
    },
    {
      text = [[
BST from node 5: the source keeps one half and sends the other to its complement, the node
whose number has every bit of 5 flipped.]],
      algo = "bst", source = 5, step = 1,
      nodes = { 5 },
      question = {
        text = "Click the node that receives the second half in step 1.",
        click = "node", answer = 10,
        hint = "BST sends the second half to the sender's complement: flip every bit of its number, on as many bits as the array needs.",
        explain = "5 = 0101, its complement on 4 bits is 1010 = 10.",
      },
    },
    {
      text = [[
Recursive halving from node 5.  RH starts with a local permutation of the message (rho per
byte), then distributes it in halves and gathers it back by exchanges, all between XORed
partners.]],
      algo = "rh", source = 5, step = 0,
      question = {
        text = "How many steps does RH take from node 5, compared with from node 0?",
        choices = { "the same: 9 either way", "one more from node 5, for the permutation", "one fewer" },
        answer = 1,
        feedback = { b = "The permutation step is there from node 0 as well.",
                     c = "Nothing is saved either: lg 16 distribute and lg 16 exchange steps from any source." },
        explain = "1 permutation + 4 distribute + 4 exchange steps = 9, from any source.",
      },
    },
    {
      text = [[
The better mesh ST on an 8x8 mesh from node (3,5): the same construction, XORed in each
dimension.]],
      net = "mesh:8x8", algo = "st", source = { 3, 5 }, bytes = 1024, step = 0,
      question = {
        text = "How many steps does it take from (3,5)?",
        choices = { "8, as from (0,0)", "9: one more to reach the far corner", "6" },
        answer = 1,
        feedback = {
          b = "XOR moves the whole tree: the far corner is as far, in steps, as from (0,0).",
          c = "6 = lg 64 would be a tree without the mesh ST's exchanges.",
        },
        explain = "8 steps from any node, as from (0,0).",
      },
    },
    {
      text = [[
Now you try: the far corner.]],
      step = 0,
      question = {
        text = "Make node (7,7) the source (cursor on it, s), go to the end of the broadcast (G), then press Enter.",
        try = { source = { 7, 7 }, step = 8 },
        hint = "Move the cursor to the bottom-right corner, press s, then G.",
        explain = "From the corner as from anywhere: 8 steps.",
      },
    },
  },
}
