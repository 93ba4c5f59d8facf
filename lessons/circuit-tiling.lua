-- circuit-tiling.lua — why circuit switching makes distance cheap and start-ups dear, and how
-- Peters & Syska's tiling broadcast uses knight's moves on 5x5 and 25x25 tori (Section 4).
-- Every answer is checked against the engine by tests/unit/test_lua_lessons.c.
return {
  title = "Circuit switching: the knight's-move tiling",
  about = "A circuit costs alpha + d*delta + L*tau: a long path costs little more than a " ..
          "short one, every new message costs alpha.  Inform as many nodes per phase as " ..
          "the four ports allow.",
  pages = {
    {
      text = [[
Under the circuit model a node may use all four of its ports at once, and a message over d
links costs alpha + d*delta + L*tau: the distance d only adds the small switching time delta.
Phase 1 of the tiling on the 5x5 torus, from the source (0,0).]],
      net = "torus:5x5", algo = "tiling", source = { 0, 0 }, bytes = 1024, model = "circuit",
      step = 1,
      question = {
        text = "How many nodes does the source inform in phase 1?",
        choices = { "1", "4", "8" },
        hint = "Under the circuit model the source uses all its ports at once: how many out-ports has a node of a 2-D torus?",
        answer = 2,
        explain = "Four circuits, one through each out-port: the knight's moves (1,2), " ..
                  "(-1,-2), (2,-1), (-2,1).",
      },
    },
    {
      text = [[
Each knight's move is one circuit: one hop along the rows, two along the columns, turned by
90 degrees for each of the four ports.]],
      step = 1,
      question = {
        text = "Click the node reached by the circuit that leaves the source downwards.",
        click = "node", answer = 7,
        hint = "A circuit here is a knight's move: down one row, then sideways along that row.  Count the columns from the source.",
        explain = "Down one row, then right two columns: (1,2), node 7.",
      },
    },
    {
      text = [[
Phase 2: all five informed nodes (the source too) send to their four neighbours: a cross
around each.  5 x 5 = 25 nodes: the whole torus in two phases.]],
      step = 2,
      question = {
        text = "How many links does the longest circuit of phase 2 switch through?",
        choices = { "1", "2", "3" },
        hint = "Phase 2 is a cross around each informed node: how far away is a neighbour?",
        answer = 1,
        explain = "Phase 2 only goes to neighbours: d = 1.  Phase 1 had d = 3.",
      },
    },
    {
      text = [[
Now you try.  Step back and forth through the two phases (p and n) and watch the crosses
fill the torus.]],
      step = 0,
      question = {
        text = "Go to the position right after the phase in which node (2,2) first holds the message, then press Enter.",
        try = { step = 2 },
        hint = "Step phase by phase with n and watch that node: stop at the first position that shows it informed.",
        explain = "(2,2) is a neighbour of (1,2), informed by a knight's move in phase 1: it " ..
                  "gets the message in phase 2.",
      },
    },
    {
      text = [[
With the defaults alpha = 1, delta = 0, tau = 1 per byte and L = 1024 bytes, a phase costs
1 + 1024 whatever its distance.]],
      step = 2,
      question = {
        text = "What does the whole tiling broadcast cost?",
        choices = { "2050", "4100", "25625" },
        hint = "Count the phases the tiling needs on the 5x5 torus, and price each as alpha + L tau.",
        answer = 1,
        explain = "2 phases x (alpha + L tau) = 2 x 1025 = 2050: 2 alpha + 4 delta + 2 L tau " ..
                  "(Theorem 2).",
      },
    },
    {
      text = [[
Store-and-forward is circuit switching restricted to one hop per message: `flood` sends to
the neighbours only, every phase.]],
      algo = "flood", step = 4,
      question = {
        text = "How many phases does the one-hop broadcast need on the 5x5 torus?",
        choices = { "2", "4", "5" },
        hint = "One hop per phase: the farthest node from the source decides, so count the torus's diameter (the wrap-around shortens each distance).",
        answer = 2,
        explain = "The diameter, 2 + 2 = 4: twice the tiling's start-ups.  Distance is cheap, " ..
                  "start-ups are dear.",
      },
    },
    {
      text = [[
Back to the tiling, and phase 1 on the 5x5 torus.  The four knight's paths never share an
arc (a directed link).  Suppose the path to (1,2) went along the row first: right two, then
down one.]],
      algo = "tiling", step = 1,
      question = {
        text = "Click the arc that this path would share with another circuit of phase 1.",
        click = "link", answer = { 0, 1 },
        hint = "Compare this path's first arc with the first arcs of the other circuits of the same phase that leave the source through the same port.",
        explain = "Its first arc (0,0)->(0,1) is also the first arc of the path to (-2,1), " ..
                  "which leaves through the right port: two circuits on one arc, and one " ..
                  "out-port used twice.",
      },
    },
    {
      text = [[
The same construction, one level up: the 25x25 torus is five crosses of five 5x5 squares.
Its phases: knight's moves of (5,10), a cross at distance 5, knight's moves (1,2), a cross at
distance 1.]],
      net = "torus:25x25", step = 1,
      question = {
        text = "How many phases does the tiling need on the 25x25 torus?",
        choices = { "4", "8", "24" },
        hint = "Each phase multiplies the informed nodes by five: how many phases until all 625 hold it?",
        answer = 1,
        explain = "log_5 625 = 4: the lower bound of Proposition 1 (5^4 = 625 nodes).",
      },
    },
    {
      text = [[
Phase 1 on 25x25: the circuits are long.]],
      step = 1,
      question = {
        text = "How many links does each circuit of phase 1 switch through?",
        choices = { "3", "15", "25" },
        hint = "A circuit's length is its move along the rows plus its move along the columns: read them off phase 1's knight's move on the page before.",
        answer = 2,
        explain = "5 + 10 = 15 hops: 15 delta, a fraction of one alpha on real machines.",
      },
    },
    {
      text = [[
Now you try on 25x25.  Every node is reached in one of the four phases; a node near the
middle of the torus waits for the last one.]],
      step = 1,
      question = {
        text = "Go to the position right after the phase in which node (12,12) first holds the message, then press Enter.",
        try = { step = 4 },
        hint = "Each phase multiplies the informed nodes by five: step with n and watch that node until it is informed.",
        explain = "(12,12) is reached in the last phase, a cross at distance 1.",
      },
    },
  },
}
