-- stop-distributions.lua — the same s-to-p algorithm is good on one source distribution and
-- bad on another (the s-to-p paper, Section 4 and Fig. 5).  Every answer, the last task included,
-- is checked against the engine by tests/unit/test_lua_lessons.c.
return {
  title = "s-to-p: good and bad source distributions",
  about = "Br_xy_source on a 10x10 mesh: Br_Lin in the rows, then the columns (or the " ..
          "reverse).  How fast the active nodes grow depends on where the sources are.",
  pages = {
    {
      text = [[
30 sources in three full rows (R:30, rows 0, 3 and 6).  Br_xy_source counts the sources per
row and per column and starts with the columns here, so the first steps spread every row's
30 messages down the columns.]],
      net = "mesh:10x10", algo = "br-xy-source", sources = "R:30", bytes = 1024,
      model = "seidel", step = 1,
      question = {
        text = "How many nodes are active (hold a message) after step 1?",
        choices = { "30", "60", "100" },
        hint = "In the first steps every source sends down its column: does its partner already hold a message?",
        answer = 2,
        explain = "Every source meets a partner that holds nothing: 30 become 60.",
      },
    },
    {
      text = [[
The same 30 sources in a square block in the corner (SB:30: 6 x 5).]],
      sources = "SB:30", step = 2,
      question = {
        text = "How many nodes are active after step 2?",
        choices = { "60", "80", "100" },
        hint = "The block's partners lie in the same few rows and columns: which new nodes can the second step reach?",
        answer = 1,
        explain = "The block's partners are inside the same few rows and columns: the second " ..
                  "step finds no new node.",
      },
    },
    {
      text = [[
The paper's example: the R placement on 10x10 puts the sources in rows 0 and 5, which are
partners in the first iteration of Br_Lin in the columns.]],
      sources = "R:20", step = 1,
      question = {
        text = "How many nodes are active after step 1?",
        choices = { "20", "40" },
        hint = "Which rows are partners in the first iteration in the columns, and do both hold sources?",
        answer = 1,
        explain = "Rows 0 and 5 just exchange: no new sources in the first iteration.",
      },
    },
    {
      text = [[
Rows 0 and 6 instead (Ri:20, the row placement that increases the sources fastest, which
repos-xy-source moves the sources to).]],
      sources = "Ri:20", step = 1,
      question = {
        text = "How many nodes are active after step 1 now?",
        choices = { "20", "40" },
        hint = "Pair each row with the row half the mesh below it: does a row of sources meet an empty row now?",
        answer = 2,
        explain = "Row 0 pairs with row 5 and row 6 with row 1: every source meets an empty node.",
      },
    },
    {
      text = [[
A cross (X:30): a row bar and a column bar through the middle, 15 sources each.]],
      sources = "X:30", step = 1,
      question = {
        text = "How many nodes are active after step 1?",
        choices = { "30", "46", "60" },
        hint = "The bars cross: in the first column level, how many of the partners are sources already?",
        answer = 2,
        explain = "The row bar's sources sit in one row, so in the first column level many " ..
                  "partners of the column bar are sources already.",
      },
    },
    {
      text = [[
Your task.  30 sources of 1024 bytes on the 10x10 mesh, Br_xy_source; the distributions are
R:30 (rows), Dr:30 (diagonals), E:30 (equal), SB:30 (square block) and X:30 (cross).]],
      sources = "R:30", step = 0,
      question = {
        text = "Pick the distribution that is worst (most expensive) for br-xy-source.",
        choices = { "R:30", "Dr:30", "E:30", "SB:30", "X:30" },
        hint = "Which placement puts its sources in the same rows and columns, so that the early steps meet partners that hold a message already?",
        answer = 5,
        explain = "The cross: about 17.8 ms against 11.4 ms on rows, 14.2 ms on the block " ..
                  "(compare --net mesh:10x10 --sources R:30,Dr:30,E:30,SB:30,X:30 --bytes 1K).",
      },
    },
    {
      text = [[
What is bad for one algorithm is not bad for all: Br_Lin works on the snake, so on the cross
its sources spread to new rows and columns early.]],
      sources = "X:30", step = 0,
      question = {
        text = "Which of these is cheaper than Br_xy_source on X:30?",
        choices = { "br-lin", "br-xy-dim" },
        hint = "Br_xy_dim chooses its first dimension as Br_xy_source does on a square mesh; the other one works on the snake.",
        answer = 1,
        explain = "Br_xy_dim makes the same choice as Br_xy_source on a square mesh; Br_Lin " ..
                  "is cheaper on the cross (Fig. 5).",
      },
    },
    {
      text = [[
Now you try.  The paper's R(20) again: rows 0 and 5.]],
      algo = "br-xy-source", sources = "R:20", step = 0,
      question = {
        text = "Go to the first step after which all 100 nodes are active, then press Enter.",
        try = { step = 4 },
        hint = "Step with n and watch the map fill in: the first position with no idle node is the one.",
        explain = "20, 20, 40, 80, 100: the lost first iteration costs a step.",
      },
    },
    {
      text = [[
Now you try: the cross again, X:30, with Br_xy_source.]],
      sources = "X:30", step = 0,
      question = {
        text = "Switch to the algorithm of the paper that is cheaper than Br_xy_source on the cross and go to its last step, then press Enter.",
        try = { algo = "br-lin", step = 7 },
        hint = "Try the paper's algorithms with a (or :algo) on this cross and compare their totals with Br_xy_source's; then G.",
        explain = "Br_Lin: 7 steps on the snake of 100 nodes, and cheaper on the cross.",
      },
    },
  },
}
