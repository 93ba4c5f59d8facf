-- stop-combining.lua — why s-to-p broadcasting combines messages where they meet
-- (the s-to-p paper, Section 2): Br_Lin against Xor, the all-to-all exchange that never combines.
-- Every answer is checked against the engine by tests/unit/test_lua_lessons.c.
return {
  title = "s-to-p: why combining messages matters",
  about = "16 of the 64 nodes of an 8x8 mesh each hold their own message; every node must " ..
          "end with all 16.  Br_Lin combines messages where they meet; Xor never does.",
  pages = {
    {
      text = [[
Sources equally spread over the 8x8 mesh (the E placement: one in every fourth node), each
holding a message of 1024 bytes.  The sources are marked @ on the map; a node shows how many
of the messages it holds.]],
      net = "mesh:8x8", algo = "br-lin", sources = "E:16", bytes = 1024, model = "seidel",
      step = 0,
      question = {
        text = "How many nodes hold a message before the first step?",
        choices = { "1", "16", "64" },
        hint = "Before the first step only the sources hold a message: count the @ marks (one in every fourth node).",
        answer = 2,
        explain = "The 16 sources: the Step panel counts them as the active nodes.",
      },
    },
    {
      text = [[
Xor first: the all-to-all personalized exchange.  In permutation j every source sends its
own message to node (its id XOR j).  Nothing is combined: a message only ever leaves its
source.]],
      algo = "xor", step = 1,
      question = {
        text = "How many steps (permutations) does Xor take on 64 nodes?",
        choices = { "6", "16", "63" },
        hint = "Xor runs one permutation for every j from 1 up to p - 1.",
        answer = 3,
        explain = "One permutation for every j = 1..63: p - 1 steps.",
      },
    },
    {
      text = [[
Every source sends once in every permutation.]],
      algo = "xor", step = 63,
      question = {
        text = "How many transfers does Xor make in all?",
        choices = { "176", "1008", "4032" },
        hint = "Every source sends once per permutation: multiply the sources by the permutations.",
        answer = 2,
        explain = "16 sources x 63 partners = 1008 transfers, each paying the start-up b.",
      },
    },
    {
      text = [[
Br_Lin: the mesh as a linear array in snake order; P_i and P_(i+32) exchange what they hold,
then both halves recurse.  A node that has received messages passes them on together, as
one longer message.]],
      algo = "br-lin", step = 6,
      question = {
        text = "How many transfers does Br_Lin make in all?",
        choices = { "63", "176", "1008" },
        hint = "Br_Lin combines: at each level only the nodes that hold something send, everything they hold in one transfer.  Count level by level.",
        answer = 2,
        explain = "Six levels; the messages travel combined, so far fewer transfers.",
      },
    },
    {
      text = [[
Both deliver every message to every other node exactly once (a transfer carries only what
its receiver lacks).]],
      step = 6,
      question = {
        text = "How many bytes does Br_Lin move in all?",
        choices = { "65536", "1032192", "1048576" },
        hint = "Each of the 16 messages of 1024 bytes reaches every node but its own source exactly once.",
        answer = 2,
        explain = "16 messages x 1024 bytes x 63 other nodes = 1032192: the same as Xor.",
      },
    },
    {
      text = [[
Same bytes, far fewer start-ups: under the linear model every transfer pays b = 75 us.]],
      step = 6,
      question = {
        text = "Which is cheaper here?",
        choices = { "Br_Lin: it combines, so it starts fewer transfers", "Xor: it sends less",
                    "They cost the same" },
        hint = "Both move the same bytes; what differs is how many start-ups (b) each pays.",
        answer = 1,
        explain = "Br_Lin about 3.4 ms, Xor about 19 ms: combining saves start-ups.",
      },
    },
    {
      text = [[
Now you try.  Back to Br_Lin on the 16 equally spread sources.  The Step panel (Tab) counts
the active nodes after every step.]],
      algo = "br-lin", step = 0,
      question = {
        text = "Go to the first step after which more nodes are active than the 16 sources, then press Enter.",
        try = { step = 3 },
        hint = "Step with n and count the active nodes on the map or in the Step panel: stop at the first position with more than the sources.",
        explain = "Steps 1 and 2 pair sources with sources (E:16 sits at every 4th node of " ..
                  "the snake): only step 3 finds new nodes.",
      },
    },
    {
      text = [[
Now you try: the algorithm that never combines.]],
      step = 0,
      question = {
        text = "Switch to Xor (:algo xor) and go to its last step, then press Enter.",
        try = { algo = "xor", step = 63 },
        hint = ":algo xor, then G jumps to the last step.",
        explain = "63 permutations: every source's message reaches its last node only then.",
      },
    },
  },
}
