-- circuit-pipelining.lua — pipelining along an arc-disjoint broadcast tree: Peters & Syska's
-- divide and conquer on the 8x8 torus (Section 5, Figs. 7-8).  Every answer is checked
-- against the engine by tests/unit/test_lua_lessons.c.
return {
  title = "Pipelining along arc-disjoint trees",
  about = "Cut the message into packets; if no two circuits of the broadcast tree share an " ..
          "arc, the phases of successive packets can run at the same time.",
  pages = {
    {
      text = [[
Divide and conquer on the 8x8 torus: in phase 1 the source sends to the centres of the four
quadrants around it, (2,2), (2,-2), (-2,-2), (-2,2), along L-shaped paths.]],
      net = "torus:8x8", algo = "dc", source = { 0, 0 }, bytes = 1024, model = "circuit",
      step = 1,
      question = {
        text = "How many phases does the whole broadcast take?",
        choices = { "3", "4", "6" },
        hint = "Each phase multiplies the informed nodes by four: how many times must one node be multiplied by four to reach all 64?",
        answer = 1,
        explain = "k = 3 phases on 2^3 x 2^3: four times as many nodes each phase.",
      },
    },
    {
      text = [[
The four circuits of phase 1 leave the source through its four out-ports: up, down, left and
right, each turning once.]],
      step = 1,
      question = {
        text = "How many nodes does the source inform in phase 1?",
        choices = { "2", "4", "8" },
        hint = "Count the source's out-ports: each starts one circuit in phase 1.",
        answer = 2,
        explain = "One circuit per out-port: 4.",
      },
    },
    {
      text = [[
Now you try.  Step through the three phases (n and p).]],
      step = 1,
      question = {
        text = "Go to the position right after the phase in which node (1,1) first holds the message, then press Enter.",
        try = { step = 2 },
        hint = "Step with n and watch that node: the position you want is the first that draws it holding the message.",
        explain = "(1,1) is a diagonal neighbour of the quadrant centre (2,2): phase 2, l = 1.",
      },
    },
    {
      text = [[
The last phase (Fig. 7): every (odd, odd) node sends to its four neighbours, and some of these
redundant circuits are bent round a corner to reach an (even, even) node nobody else reaches.]],
      step = 3,
      question = {
        text = "How many links does the longest circuit of the last phase switch through?",
        choices = { "1", "2", "4" },
        hint = "A bent circuit goes straight, then round the corner: count the links it switches through.",
        answer = 2,
        explain = "A bent circuit goes one link and round the corner: 2.",
      },
    },
    {
      text = [[
The whole tree — every circuit of every phase — is arc-disjoint: the bent circuits are
chosen so that they avoid the arcs of earlier phases (Fig. 8's path from b is one to avoid).]],
      step = 3,
      question = {
        text = "Does any arc carry two circuits of the tree, in any phases?",
        choices = { "yes", "no" },
        hint = "Read again what the bent circuits are chosen for.",
        answer = 2,
        explain = "No: meshcast checks every arc of every phase (circuit_tree_shared).",
      },
    },
    {
      text = [[
Now the message goes in packets of B = 128 bytes: 8 packets.  Packet p runs phase i at step
p + i - 1: while packet 2 leaves the source, packet 1 is one level down, on other arcs.]],
      set = { B = 128 }, step = 2,
      question = {
        text = "How many steps does the pipelined broadcast take?",
        choices = { "10", "24", "11" },
        hint = "Packet p runs phase i at step p + i - 1: the last packet runs the last phase in the last step.",
        answer = 1,
        explain = "k + P - 1 = 3 + 8 - 1 = 10.",
      },
    },
    {
      text = [[
Now you try.  Step through the pipelined broadcast: the source keeps sending, one packet per
step, while earlier packets travel down the tree.]],
      step = 1,
      question = {
        text = "Go to the position right after the step in which the source sends its last packet, then press Enter.",
        try = { step = 8 },
        hint = "Step with n and watch the source's out-links: find the last step in which a circuit leaves it, and go just after it.",
        explain = "Packet 8 runs phase 1 at step 8; its last phase ends at step 10.",
      },
    },
    {
      text = [[
With alpha = 1, delta = 0 and tau = 1 per byte: one packet of 1024 bytes, or eight of 128?]],
      step = 10,
      question = {
        text = "Which costs less?",
        choices = { "one packet", "eight packets" },
        hint = "Price both: one packet pays alpha + L tau in each phase; the packets pay alpha + B tau in each of k + P - 1 steps.",
        answer = 2,
        explain = "One packet: 3 x 1025 = 3075.  Eight: 10 x 129 = 1290.  The paper's T(B).",
      },
    },
    {
      text = [[
Overlapping phases is only allowed because the tree is arc-disjoint: in the tiling, the
source uses all four ports in every phase, so its phases cannot overlap.]],
      step = 10,
      question = {
        text = "How many all-port conflicts has the pipelined dc broadcast?",
        choices = { "0", "8", "64" },
        hint = "A conflict needs two circuits on one arc, or one port used twice: can that happen in an arc-disjoint tree?",
        answer = 1,
        explain = "None: every step is all-port and arc-disjoint, although up to three " ..
                  "phases run in it.",
      },
    },
  },
}
