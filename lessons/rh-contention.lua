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
        feedback = {
          a = "6 are only the exchange steps.",
          b = "12 leaves out the permutation, a step of its own.",
          d = "1 + 6 + 6 = 13: one permutation, six distribute steps, six exchanges.",
        },
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
        feedback = {
          a = "The permutation sends nothing, but reordering 1024 bytes costs rho per byte.",
          c = "75 us is a startup b, paid only by messages.",
        },
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
        feedback = {
          a = "64 is what the source holds.",
          b = "32 is what the source hands on in the first distribute step.",
        },
        explain = "(7,7) got just its own chunk, 1/64 of the message.  Nodes that passed pieces " ..
                  "on still hold them (sending copies), but every node now holds at least " ..
                  "its own chunk: what the exchanges start from.",
      },
    },
    {
      text = [[
Now you try.  The distribution ends when every node holds a piece: its own chunk.]],
      step = 0,
      question = {
        text = "Go to the first position at which every node holds at least one chunk (the Node panel, Tab, shows what a node holds), then press Enter.",
        try = { step = 7 },
        hint = "Step with n and look at the map: the first position with no empty node is the one (the Node panel, Tab, shows a node's chunks).",
        explain = "After step 7 the last row gets its pieces: 1 permutation + 3 column + 3 row steps.",
      },
    },
    {
      text = [[
Step 8, the first exchange: rows and columns interleaved in alternate nodes, partners 4 apart.
In row 0, node (0,0) sends 4 hops right to (0,4), and node (0,2) sends 4 hops right to (0,6).]],
      step = 8,
      nodes = { { 0, 2 }, { 0, 6 }, { 0, 0 }, { 0, 4 } },
      question = {
        text = "Click the first link that carries both of these messages.",
        click = "link", answer = { { 0, 2 }, { 0, 3 } },
        hint = "Trace both routes along the row: the first link the longer route and the shorter one both cross is the answer.",
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
        feedback = {
          a = "Two circuits do share links in row 0: (0,0)->(0,4) and (0,2)->(0,6).",
          c = "Only two messages overlap on any one link.",
        },
        explain = "Load 2 on the links where distance-4 partners overlap; the step pays (ceil(2/1) - 1) m'a extra.",
      },
    },
    {
      text = [[
The later exchanges pair nodes at half the distance and then at a quarter of it, with
messages twice as long each time.]],
      step = 10,
      question = {
        text = "What is the largest load on any link in step 10?",
        choices = { "1", "2", "4" },
        answer = 1,
        feedback = {
          b = "Partners are 2 apart now, in alternate nodes: their routes do not overlap.",
          c = "No four messages ever share a link in RH on 8x8.",
        },
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
        feedback = {
          b = "3.84 us is the contention at nu = 0.",
          c = "With nu = 1 a link carries two circuits at full speed: no slowdown at all.",
        },
        explain = "Loads of 2 are within capacity 2^nu = 2: no overloaded link, contention 0.",
      },
    },
    {
      text = [[
A smaller mesh, 4x4 (nu = 0 again).  Its exchanges pair nodes at half the side, then
neighbours.]],
      net = "mesh:4x4", set = { nu = 0 }, step = 6,
      question = {
        text = "On the 4x4 mesh, what is the largest link load over the whole broadcast?",
        choices = { "1: no contention", "2", "3" },
        answer = 1,
        feedback = {
          b = "2 would need two messages of one exchange to run the same way over one link: they run opposite ways.",
          c = "3 would need three messages over one link; here not even two share one.",
        },
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
        feedback = {
          a = "3.84 us is the contention at 1024 bytes; it grows with m.",
          c = "At nu = 0 the overlap remains, whatever m.",
        },
        explain = "64 times the 3.84 us at 1024 bytes: 245.76 us, next to 10321.92 us of transmission.",
      },
    },
    {
      text = [[
Now you try: what nu buys.  The Step panel (Tab) shows each step's cost and its contention.]],
      net = "mesh:8x8", set = { nu = 0 }, bytes = 1024, step = 0,
      question = {
        text = ":set nu=1, then go to the first step whose cost drops, and press Enter.",
        try = { set = { nu = 1 }, step = 8 },
        hint = "Compare each step's cost in the Timeline panel (Tab) with what it was before the :set: the first step that gets cheaper is the one.",
        explain = "Steps 8 and 9 lose their contention term; step 8 comes first.",
      },
    },
  },
}
