-- bst-crossover.lua — why the bidirectional spanning tree (BST) beats the ST for long messages
-- on a linear array, and where the crossover lies (Seidel 3.3.1, eq. 7 against eq. 1).  Every
-- answer is checked against the engine by tests/unit/test_lua_lessons.c.
return {
  title = "BST against ST: the crossover",
  about = "Two half-message trees in opposite directions: one more startup, half the " ..
          "transmission.  When does that pay?",
  pages = {
    {
      text = [[
The ST broadcast on 16 nodes with a short message, m = 64 bytes: 4 steps, each costing
ma + b with a = 0.08 us/byte and b = 75 us.]],
      net = "array:16", algo = "st", source = 0, bytes = 64, model = "seidel", step = 4,
      question = {
        text = "What does this broadcast cost?",
        choices = { "320.48 us", "387.8 us", "627.68 us" },
        answer = 1,
        feedback = {
          b = "387.8 us is what BST costs at 64 bytes: one more startup.",
          c = "627.68 us is the cost at m = 1024 bytes.",
        },
        explain = "4 * (64 * 0.08 + 75) = 320.48 us.",
      },
    },
    {
      text = [[
The BST broadcast cuts the message in two halves.  Step 1: node 0 keeps one half and sends the
other to the opposite end of the array, node 15 (the bit-wise complement of 0).]],
      algo = "bst", step = 1,
      nodes = { 0 },
      question = {
        text = "Click the node that receives the second half in step 1.",
        click = "node", answer = 15,
        hint = "The second half goes to the node whose number is the source's with every bit flipped (on four bits).",
        explain = "The complement of 0 on 4 bits is 15.",
      },
    },
    {
      text = [[
Steps 2 to 4: two ST broadcasts at once.  Node 0 spreads its half over the even nodes, to the
right; node 15 spreads the other half over the odd nodes, to the left.]],
      step = 2,
      nodes = { 0, 15 },
      question = {
        text = "Click the first link that node 15's message crosses in step 2.",
        click = "link", answer = { 15, 14 },
        hint = "First find where this node sends in step 2: toward lower or higher numbers?  The link to click leaves it on that side.",
        explain = "15 -> 7 travels left, so it starts on the link 15 -> 14.",
      },
    },
    {
      text = [[
A link is a pair of directed links, one per direction.  The even tree only ever uses
rightward links, the odd tree only leftward ones.]],
      step = 3,
      question = {
        text = "Do the two trees ever compete for a directed link?",
        choices = { "yes, in the middle of the array", "no: they always travel in opposite directions" },
        answer = 2,
        feedback = {
          a = "Both trees cross the middle, but in opposite directions: a link is two directed links, one each way.",
        },
        explain = "No link ever carries two circuits: the max link load is 1 in every step.",
      },
    },
    {
      text = [[
Step 5: neighbouring pairs (0,1), (2,3), ... swap their halves.  BST takes d + 1 = 5 steps of
cost ma/2 + b: (d + 1)(ma/2 + b) in all (equation 7).]],
      step = 5,
      question = {
        text = "At m = 64 bytes, which broadcast is cheaper?",
        choices = { "ST", "BST" },
        answer = 1,
        feedback = {
          b = "BST halves the transmission, but at 64 bytes that is 5.12 us against a 75 us startup.",
        },
        explain = "ST 320.48 us, BST 387.8 us: with short messages the extra startup b dominates.",
      },
    },
    {
      text = [[
Now a long message, m = 4096 bytes.]],
      bytes = 4096, step = 5,
      question = {
        text = "At m = 4096 bytes, which broadcast is cheaper?",
        choices = { "ST", "BST" },
        answer = 2,
        feedback = {
          a = "ST sends all 4096 bytes in each of its 4 steps: 327.68 us of transmission a step.",
        },
        explain = "ST 1610.72 us, BST 1194.2 us: halving the transmission time pays for one more startup.",
      },
    },
    {
      text = [[
The crossover: set d(ma + b) = (d + 1)(ma/2 + b) and solve for m.  For d = 4:
4ma + 4b = 2.5ma + 5b.]],
      bytes = 640, step = 5,
      question = {
        text = "For 16 nodes (a = 0.08, b = 75), where do the costs cross?",
        choices = { "about 156 bytes", "about 625 bytes", "about 2500 bytes", "they never cross" },
        answer = 2,
        feedback = {
          a = "At 156 bytes ST costs 4 (12.48 + 75) = 349.92 us, BST 5 (6.24 + 75) = 406.2 us: ST still wins.",
          c = "At 2500 bytes BST already wins by far: ST 1100 us, BST 875 us.",
          d = "They cross: ST grows by 4a per byte, BST by only 2.5a.",
        },
        explain = "1.5 ma = b, so m = 75 / 0.12 = 625 bytes.",
      },
    },
    {
      text = [[
A longer array: 64 nodes (d = 6).  Now 6ma + 6b = 3.5ma + 7b.]],
      net = "array:64", algo = "bst", bytes = 512, step = 0,
      question = {
        text = "On 64 nodes the crossover moves:",
        choices = { "down, to about 375 bytes", "up, to about 1000 bytes", "nowhere: it stays at 625 bytes" },
        answer = 1,
        feedback = {
          b = "BST saves (d - (d + 1)/2) ma, which grows with d, for one extra b: more steps make halving pay sooner.",
          c = "The crossover depends on d: 1.5 ma = b for d = 4, 2.5 ma = b for d = 6.",
        },
        explain = "2.5 ma = b, m = 75 / 0.2 = 375 bytes: the more steps, the sooner halving pays.",
      },
    },
    {
      text = [[
Now you try: the crossover on the screen.  Switch to ST (a, or :algo st) and try message sizes
from the bytes picker (b): the Step panel (Tab) gives the total, and the Chart panel both.]],
      net = "array:16", algo = "bst", bytes = 64, step = 5,
      question = {
        text = "Show ST with the smallest size in the bytes picker at which ST costs more than BST, then press Enter.",
        try = { algo = "st", bytes = 1024 },
        hint = "Compare ST's and BST's totals at each size of the bytes picker (b): the crossover of this lesson lies between two of its sizes; take the larger.",
        explain = "The crossover is at 625 bytes: the picker's 256 is still below it, 1K the first of its sizes above.",
      },
    },
    {
      text = [[
Now you try: BST on 64 nodes.]],
      net = "array:64", algo = "bst", bytes = 1024, step = 0,
      question = {
        text = "Step to the end of this broadcast (G), then press Enter.",
        try = { step = 7 },
        hint = "G jumps to the last step; the title's step counter shows where you are.",
        explain = "d + 1 = 7 steps on 2^6 nodes: one more than the ST.",
      },
    },
  },
}
