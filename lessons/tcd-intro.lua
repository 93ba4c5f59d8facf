-- tcd-intro.lua — what the total communication distance (TCD) is and why it matters
-- (Cang & Wu, Sections 1-2).  Every answer is checked against the engine by
-- tests/unit/test_lua_lessons.c.
return {
  title = "Total communication distance: how much wire a broadcast uses",
  about = "A broadcast's TCD is the sum of the lengths of all its messages' routes: the " ..
          "traffic it puts on the network.  Among the fastest broadcasts, some use less.",
  pages = {
    {
      text = [[
A 4x4 mesh, 16 nodes, the message at the corner (0,0).  In one step every node that has the
message can send it to one other node.  So the number of informed nodes can at most double
every step.  A broadcast that doubles every step is *time-step optimal*.]],
      net = "mesh:4x4", algo = "st-simple", source = { 0, 0 }, bytes = 1024, step = 0,
      question = {
        text = "How many steps does a time-step optimal broadcast on 16 nodes take?",
        choices = { "2", "4", "8", "15" },
        hint = "The informed nodes can at most double each step: how many doublings take one node to sixteen?",
        answer = 2,
        explain = "log2 16 = 4: 1 -> 2 -> 4 -> 8 -> 16 informed nodes.",
      },
    },
    {
      text = [[
This is Seidel's simple spanning tree: down the source's column first, then along every row.
Step 1 sends the message half-way down the column, to (2,0).  The *total communication
distance* (TCD) adds up the route lengths of all messages: the hops of wire they occupy.]],
      step = 1,
      question = {
        text = "What is the TCD of step 1?",
        choices = { "1", "2", "4", "8" },
        hint = "Count the hops of the one message from (0,0) down the column to where it lands.",
        answer = 2,
        explain = "One message, 2 hops: (0,0) -> (2,0).",
      },
    },
    {
      text = [[
Step 2: two messages, each 1 hop down.  Steps 3 and 4 do the same along the four rows.]],
      step = 4,
      question = {
        text = "What is the TCD of the whole broadcast?",
        choices = { "15", "18", "20", "24" },
        hint = "Add the column's hops and the hops along each of the four rows.",
        answer = 3,
        explain = "Column: 2 + 1 + 1 = 4; rows: 4 x (2 + 1 + 1) = 16; in all 20.",
      },
    },
    {
      text = [[
Is it time-step optimal?  The run's summary says so ("time steps: optimal"), and the Step panel
too: the informed nodes went 1, 2, 4, 8, 16.]],
      step = 4,
      question = {
        text = "Is this broadcast time-step optimal?",
        choices = { "yes", "no" },
        hint = "Did the informed nodes double in every step?",
        answer = 1,
        explain = "4 steps, doubling every step.",
      },
    },
    {
      text = [[
Cang & Wu's Algorithm 1 (`tcd`) is also time-step optimal, but chooses where each message
goes so as to use less wire: it aims at special nodes, the *eyes*.]],
      algo = "tcd", step = 4,
      question = {
        text = "What is the TCD of tcd from the same corner?",
        choices = { "15", "16", "18", "20" },
        hint = "Algorithm 1 uses less wire than the simple tree of the page before; eq. 9 gives its TCD from a corner of a 4x4 mesh.",
        answer = 3,
        explain = "18 = MD_2(0,0) of eq. 9: 2 less than the simple tree.",
      },
    },
    {
      text = [[
Why care about TCD when both take 4 steps?  Every hop of every message occupies a link for the
whole step: the less wire a broadcast uses, the fewer links it can collide on with other
traffic, and the less energy it spends.  Seidel's "better" ST on 8x8 is faster in time under
his cost model for long messages, but takes 8 steps instead of 6.]],
      net = "mesh:8x8", algo = "st", source = { 0, 0 }, step = 0,
      question = {
        text = "Is Seidel's st on mesh:8x8 time-step optimal?",
        choices = { "yes", "no" },
        hint = "A time-step optimal broadcast on 64 nodes takes log2 64 steps: how many does st take there?",
        answer = 2,
        explain = "8 steps > log2 64 = 6: some steps do not double the informed nodes.",
      },
    },
    {
      text = [[
Back to time-step optimal broadcasts, on mesh:8x8 from the corner: the simple tree (column,
then rows) against Cang & Wu's Algorithm 1.]],
      algo = "st-simple", step = 6,
      question = {
        text = "The simple tree's TCD here is 108.  What is tcd's (meshcast run --algo tcd)?",
        choices = { "69", "79", "84", "108" },
        hint = "Algorithm 1 uses less wire than the simple tree; eq. 9 gives its TCD from the corner (MD_3).",
        answer = 2,
        explain = "79 = MD_3(0,0) of eq. 9; the eyes save 29 hops of wire.",
      },
    },
    {
      text = [[
Now you try: switch to Cang & Wu's broadcast (a, or :algo tcd) and look for the source that
uses the least wire.  s makes the node under the cursor the source; the Step panel shows the
TCD.]],
      question = {
        text = "Make tcd's source the node of the upper-left quadrant with the least TCD, go to the last step, and press Enter.",
        try = { algo = "tcd", source = { 2, 2 }, step = 6 },
        hint = "meshcast tcd-table (or :source on a few nodes) gives every source's TCD, and the least is at an eye of the quadrant; then G.",
        explain = "(2,2), an eye of the mesh: 69, the least of all 64 sources.",
      },
    },
    {
      text = [[
Now you try: Seidel's st on this mesh takes 8 steps, so at some step the informed nodes do not
double.  The Step panel says "time-step optimal: no"; the map shows who holds the message.]],
      algo = "tcd", source = { 0, 0 }, step = 0,
      question = {
        text = "Switch to st, go to the position right after the first step that does not double the informed nodes (nodes holding a piece of the message), and press Enter.",
        try = { algo = "st", step = 7 },
        hint = "Step with n and count the informed nodes after each step (the Step panel): find the first step that adds fewer than there were.",
        explain = "Steps 1-6 double: after step 6 every node holds a quarter of the message. " ..
                  "Steps 7 and 8 exchange quarters inside 2x2 blocks and inform nobody new: " ..
                  "8 steps where 6 suffice.",
      },
    },
  },
}
