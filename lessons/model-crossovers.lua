-- model-crossovers.lua — the cost model and what it decides: Seidel's model (startup b, a per
-- byte, contention), other models, and where the best algorithm changes with the message size.
-- Every answer is derived again from the engine by tests/unit/test_lua_lessons.c.
return {
  title = "The model and its crossovers",
  about = "Which broadcast is best depends on the message size and on what the model charges " ..
          "for: startups, bytes, contention.  Find the crossovers on the screen.",
  pages = {
    {
      text = [[
Seidel's model: a message of m bytes costs ma + b (a = 0.08 us/byte, b = 75 us), a step costs
as much as its slowest message, and a link carrying more circuits than it can (2^nu) slows
them down.

The ST broadcast on 16 nodes, m = 1024.]],
      net = "array:16", algo = "st", source = 0, bytes = 1024, model = "seidel", step = 4,
      question = {
        text = "What does it cost under Seidel's model?",
        choices = { "627.68 us", "320.48 us", "4100" },
        answer = 1,
        feedback = { b = "320.48 us is the cost at m = 64 bytes.",
                     c = "4100 is what the postal model charges." },
        explain = "4 (1024 * 0.08 + 75) = 627.68 us.",
      },
    },
    {
      text = [[
The postal model (Bar-Noy and Kipnis): a message costs t + beta L in its own units, whatever
the distance, and a node may send and receive at once.]],
      model = "postal", step = 4,
      question = {
        text = "What does the same broadcast cost under the postal model?",
        choices = { "627.68", "4100", "1024" },
        answer = 2,
        feedback = {
          a = "627.68 us is Seidel's price; the postal model prices each message by its own formula.",
          c = "1024 is the message length, not a cost.",
        },
        explain = "The same 4 steps, each priced by the postal formula: 4100 in all.",
      },
    },
    {
      text = [[
Back to Seidel's model, on an 8x8 mesh with a short message, m = 64 bytes.  Three broadcasts:
ST (few steps, whole message), BST (halves, one more startup), RH (pieces, many startups).]],
      net = "mesh:8x8", model = "seidel", bytes = 64, step = 0,
      question = {
        text = "Which is cheapest at m = 64 bytes?",
        choices = { "ST", "BST", "RH" },
        answer = 1,
        feedback = { b = "BST pays one startup more to halve a transmission that is tiny here.",
                     c = "RH pays a startup in every one of its 13 steps: the most startups." },
        explain = "ST 612.8 us, BST 685.88 us, RH 910.96 us: startups dominate.",
      },
    },
    {
      text = [[
The same mesh with a long message, m = 64K.]],
      bytes = "64K", step = 0,
      question = {
        text = "Which is cheapest at m = 64K bytes?",
        choices = { "ST", "BST", "RH" },
        answer = 2,
        feedback = { a = "ST sends the whole message every step: transmission dominates now.",
                     c = "RH is close, but its contention costs it at nu = 0." },
        explain = "BST 11816.12 us, RH 12123.04 us, ST 13707.2 us.",
      },
    },
    {
      text = [[
If links could carry two circuits (nu = 1), the broadcasts may change their schedules and the
contention term shrinks.]],
      set = { nu = 1 }, step = 0,
      question = {
        text = "With nu = 1 at m = 64K, which is cheapest?",
        choices = { "ST", "BST", "RH" },
        answer = 2,
        feedback = {
          a = "ST gains most from nu = 1 (13707.2 -> 11235.76 us), but BST stays cheaper.",
          c = "RH loses its contention term, but pays more startups than BST.",
        },
        explain = "BST 11146.92 us, RH 11877.28 us, ST 11235.76 us: BST still, ST close behind.",
      },
    },
    {
      text = [[
A crossover is the message size where the best broadcast changes.  Between ST and BST on 16
nodes (nu = 0) it lies near m = 625 bytes, where 4 (ma + b) = 5 (ma/2 + b).]],
      net = "array:16", set = { nu = 0 }, algo = "bst", bytes = 600, step = 5,
      question = {
        text = "At m = 600 bytes, just below it, which is cheaper?",
        choices = { "ST", "BST", "they cost the same" },
        answer = 1,
        feedback = { b = "Below the crossover the extra startup of BST still costs more than the halved transmission saves.",
                     c = "They cost the same only at the crossover itself." },
        explain = "ST 492 us, BST 495 us: ST, by a little.",
      },
    },
    {
      text = [[
Now you try: a crossover on the mesh.  ST on 8x8 (nu = 0) against RH.  The bytes picker (b)
has sizes 16, 64, 256, 1K, 4K, 16K, ...; the Chart panel (Tab) draws them all.]],
      net = "mesh:8x8", algo = "st", bytes = 64, step = 0,
      question = {
        text = "Show RH (a) at the smallest size of the bytes picker at which it is cheaper than ST, then press Enter.",
        try = { algo = "rh", bytes = "16K" },
        hint = "Compare RH's and ST's totals at each size of the bytes picker (b), going up from the smallest.",
        explain = "At 4K ST costs 1419.2 us and RH 1601.44 us; at 16K RH 3705.76 us beats ST's 3876.8 us.",
      },
    },
    {
      text = [[
Now you try: another model, another winner.  16 nodes, m = 64 bytes.  Under Seidel's model
ST is cheapest here.  The model picker is m.]],
      net = "array:16", algo = "st", bytes = 64, step = 0,
      question = {
        text = "Switch to the postal model and show the broadcast (of ST, BST, RH) that is cheapest there, then press Enter.",
        try = { model = "postal", algo = "rh" },
        hint = "Under postal a message costs the same however far it goes: after :model postal, try each of the three with a and compare the totals.",
        explain = "Postal: RH 128.64, BST 165, ST 260.  Without distance or contention charges, many small messages win.",
      },
    },
  },
}
