-- any-size.lua — broadcasting on arrays and meshes whose sides are not powers of two (Seidel 5.2,
-- companions).  Every answer is derived again from the engine by tests/unit/test_lua_lessons.c.
return {
  title = "Any size: companions",
  about = "The trees need 2^d nodes.  On 11 nodes, 8 full nodes run the tree and each of the " ..
          "other 3 is a companion of one of them, served in one extra step.",
  pages = {
    {
      text = [[
An array of 11 nodes.  Seidel's Section 5.2: take N = 8 (the largest power of two that fits)
full nodes; the c = 3 others are companions, at the odd positions 1, 3 and 5, each paired
with the full node before it.

The ST broadcast runs on the 8 full nodes; then every full node with a companion sends it the
message.]],
      net = "array:11", algo = "st", source = 0, bytes = 1024, model = "seidel", step = 0,
      question = {
        text = "How many steps does the ST broadcast take on 11 nodes?",
        choices = { "3", "4", "5", "11" },
        answer = 2,
        feedback = { a = "3 reach the 8 full nodes; the companions need one more step.",
                     c = "5 would be a 32-node tree.", d = "11 is the number of nodes." },
        explain = "lg 8 = 3 steps on the full nodes, plus 1 for the companions: 4.",
      },
    },
    {
      text = [[
The last step serves the companions.]],
      step = 4,
      nodes = { 0 },
      question = {
        text = "Click the node that node 0 sends to in the last step.",
        click = "node", answer = 1,
        hint = "In the last step every node hands the message to its companion: the nearest node it stands in for that does not hold it yet.",
        explain = "Node 1 is node 0's companion: the first odd position.",
      },
    },
    {
      text = [[
Cost on 11 nodes, against 16.]],
      step = 4,
      question = {
        text = "The ST broadcast on 11 nodes costs, against 16 nodes:",
        choices = { "the same: 4 steps of ma + b", "less: fewer nodes", "more: the companions wait" },
        answer = 1,
        feedback = { b = "Fewer nodes, but not fewer steps: 3 + 1 = 4 = lg 16.",
                     c = "The companion step is one step of ma + b, as a fourth tree step would be." },
        explain = "4 (1024 * 0.08 + 75) = 627.68 us either way.",
      },
    },
    {
      text = [[
Contention: the companion step sends one hop to the right from every full node that has a
companion.]],
      step = 4,
      question = {
        text = "What is the largest number of circuits on one link over the whole broadcast?",
        choices = { "1", "2", "3" },
        answer = 1,
        feedback = {
          b = "Two would need two routes of one step over the same link: the tree steps never overlap, and each companion is one hop from its full node.",
          c = "No three messages ever meet on a link here.",
        },
        explain = "1: the companions are next to their full nodes and no two routes overlap.",
      },
    },
    {
      text = [[
BST on 11 nodes: the two half-message trees run on the full nodes, then the companions are
served.]],
      algo = "bst", step = 0,
      question = {
        text = "How many steps does BST take on 11 nodes?",
        choices = { "4", "5", "6" },
        answer = 2,
        feedback = { a = "4 is ST's count; BST has one more step (the halves are swapped).",
                     c = "The companions need only one step." },
        explain = "BST on 8 full nodes takes d + 1 = 4 steps, plus the companions: 5.",
      },
    },
    {
      text = [[
A 6x6 mesh: companions in both dimensions (4 full lines and 2 companion lines each way).]],
      net = "mesh:6x6", algo = "st", bytes = 1024, step = 0,
      question = {
        text = "How many steps does the mesh ST take on 6x6?",
        choices = { "6", "8", "10" },
        answer = 2,
        feedback = { a = "6 would be 4 + 2 without any companion step.",
                     c = "The companions of both dimensions are served together at the end." },
        explain = "8 steps here, as on the 8x8 mesh.",
      },
    },
    {
      text = [[
Now you try: BST on 11 nodes again.]],
      net = "array:11", algo = "st", bytes = 1024, step = 0,
      question = {
        text = "Show BST on this array (a, or :algo bst) at its last step, then press Enter.",
        try = { algo = "bst", step = 5 },
        hint = "Pick bst with a (or type :algo bst), then G jumps to the last step.",
        explain = "5 steps: 4 on the full nodes, 1 for the companions.",
      },
    },
    {
      text = [[
Now you try: how far do companions go?  With N full nodes and up to N companions, the count
of steps grows by one only when the number of nodes passes a power of two.]],
      net = "array:17", algo = "st", bytes = 1024, step = 0,
      question = {
        text = "Change the net (t or :net) to the smallest array on which the ST broadcast needs 6 steps, then press Enter.",
        try = { net = "array:33" },
        hint = "ST needs as many steps as the base-2 logarithm of the array's length, rounded up: find the smallest length for which that reaches six (one more than a power of two).",
        explain = "array:32 takes 5 steps; array:33 has 32 full nodes and one companion: 5 + 1 = 6.",
      },
    },
  },
}
