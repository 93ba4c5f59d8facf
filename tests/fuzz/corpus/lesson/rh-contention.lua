-- rh-contention.lua — link contention in the recursive halving (RH) broadcast on a mesh
-- (Seidel 3.6): where it comes from, what it costs, and what removes it.  Every answer is
-- checked against the engine by tests/unit/test_lua_lessons.c.
return {
  title = "Contention in recursive halving on a mesh",
  about = "RH distributes the message in pieces, then gathers it back by dimensional " ..
          "exchanges.  On an 8x8 mesh two of those exchanges share links.",
  pages = {
    {
      text = [[
Recursive halving (RH) on an 8x8 mesh, source (0,0), m = 1024 bytes.  First the source permutes
the message into the order the later exchanges need; then it distributes the message down its
column and along the rows, halving it every step; then dimensional exchanges gather it back.]],
      net = "mesh:8x8", algo = "rh", source = { 0, 0 }, bytes = 1024, model = "seidel", step = 0,
      question = {
        text = "How many steps does RH take here, counting the permutation?",
        choices = { "6", "12", "13", "16" },
        answer = 3,
        explain = "1 permutation + 3 + 3 distribute steps + 6 exchange steps = 13.",
      },
    },
    {
      text = [[
Step 1 is a local operation: the source reorders its 1024 bytes, at rho = 0.01 us/byte.]],
      step = 1,
      nodes = { { 0, 0 } },
      question = {
        text = "What does step 1 cost?",
        choices = { "0 us", "10.24 us", "75 us" },
        answer = 2,
        explain = "rho * m = 0.01 * 1024 = 10.24 us.",
      },
    },
    {
      text = [[
Steps 2 to 7 distribute: down the column, then along every row, each holder handing on half of
what it holds.]],
      step = 7,
      nodes = { { 7, 7 } },
      question = {
        text = "After step 7, how many of the 64 chunks does node (7,7) hold?",
        choices = { "64", "32", "1" },
        answer = 3,
        explain = "(7,7) got just its own chunk, 1/64 of the message.  Nodes that passed pieces " ..
                  "on still hold them (sending copies), but every node now holds at least " ..
                  "its own chunk: what the exchanges start from.",
      },
    },
    {
      text = [[
Step 8, the first exchange: rows and columns interleaved in alternate nodes, partners 4 apart.
In row 0, node (0,0) sends 4 hops right to (0,4), and node (0,2) sends 4 hops right to (0,6).]],
      step = 8,
      path = { { 0, 0 }, { 0, 4 } },
      nodes = { { 0, 2 }, { 0, 6 } },
      question = {
        text = "Click the first link that carries both of these messages.",
        click = "link", answer = { { 0, 2 }, { 0, 3 } },
        explain = "(0,0)->(0,4) and (0,2)->(0,6) overlap on (0,2)->(0,3) and (0,3)->(0,4).",
      },
    },
    {
      text = [[
Two circuits on one link: under Seidel's model with nu = 0 a link carries one circuit at full
speed, so both messages go at half speed.]],
      step = 8,
      question = {
        text = "What is the largest load on any link in step 8?",
        choices = { "1", "2", "4" },
        answer = 2,
        explain = "Load 2 on the links where distance-4 partners overlap; the step pays (ceil(2/1) - 1) m'a extra.",
      },
    },
    {
      text = [[
The later exchanges pair nodes 2 apart and then 1 apart, with messages twice as long each time.]],
      step = 10,
      question = {
        text = "What is the largest load on any link in step 10?",
        choices = { "1", "2", "4" },
        answer = 1,
        explain = "Only the first two exchanges (steps 8 and 9, distance 4) overlap; from step 10 on every link carries one circuit.",
      },
    },
    {
      text = [[
If links could carry two circuits at full speed (nu = 1), the overlap would cost nothing.]],
      set = { nu = 1 }, step = 8,
      question = {
        text = "With nu = 1, what does contention cost in this broadcast?",
        choices = { "0 us", "3.84 us", "half of 3.84 us" },
        answer = 1,
        explain = "Loads of 2 are within capacity 2^nu = 2: no overloaded link, contention 0.",
      },
    },
    {
      text = [[
A smaller mesh, 4x4 (nu = 0 again).  Its exchanges pair nodes 2 apart and then 1 apart.]],
      net = "mesh:4x4", set = { nu = 0 }, step = 6,
      question = {
        text = "On the 4x4 mesh, what is the largest link load over the whole broadcast?",
        choices = { "1: no contention", "2", "3" },
        answer = 1,
        explain = "Partners 2 apart in alternate nodes send in opposite directions: no overlap.",
      },
    },
    {
      text = [[
Back to 8x8 with a long message, m = 64K.  The contention term grows with m.]],
      net = "mesh:8x8", set = { nu = 0 }, bytes = "64K", step = 13,
      question = {
        text = "At m = 64K bytes, what does contention cost in total?",
        choices = { "3.84 us", "245.76 us", "0 us" },
        answer = 2,
        explain = "64 times the 3.84 us at 1024 bytes: 245.76 us, next to 10321.92 us of transmission.",
      },
    },
  },
}
