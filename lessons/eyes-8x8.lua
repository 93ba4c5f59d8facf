-- eyes-8x8.lua — the eyes and Cang & Wu's Algorithm 1 on an 8x8 mesh, ending with "pick the
-- source with the least TCD" (Cang & Wu, Sections 2-3).  Every answer is checked against the
-- engine by tests/unit/test_lua_lessons.c.
return {
  title = "The eyes of a mesh and Algorithm 1 (Cang & Wu)",
  about = "Where should a broadcast send its first messages so that it uses the least wire? " ..
          "To the eyes: nodes defined level by level, and marked E and e on the map.",
  pages = {
    {
      text = [[
The eyes of a 2x2 mesh are all its 4 nodes.  The eyes of a 2^k x 2^k mesh are the 4 eyes of its
quadrants that lie closest to the centre.  They form a square of side a_k = (2^k - (-1)^k)/3
(eq. 2): a_3 = 3 on 8x8.  The map marks them E.  Algorithm 1 from an eye: first to the eye
across the row, then both down (or up) the column; then every quadrant does the same.]],
      net = "mesh:8x8", algo = "tcd", source = { 2, 2 }, bytes = 1024, step = 0,
      question = {
        text = "The source (2,2) is an eye.  Click another eye in its row.",
        click = "node", answer = { 2, 5 },
        hint = "Eyes repeat a fixed distance apart along a row (Cang & Wu's a_k): add that offset to the source's column.",
        explain = "(2,2) + a_3 = (2,5).",
      },
    },
    {
      text = [[
Step 1: the source sends to the eye across the row.]],
      step = 1,
      question = {
        text = "How many hops long is that message?",
        choices = { "1", "3", "5", "7" },
        hint = "The hops of a message along a row are the difference of the two columns: which column is the eye in?",
        answer = 2,
        explain = "a_3 = 3 hops.",
      },
    },
    {
      text = [[
Step 2: both informed eyes send down the column, to the eyes of the lower quadrants.  Now every
4x4 quadrant holds one informed node, an eye of that quadrant; the e marks show the eyes of the
quadrants the next level informs.]],
      step = 2,
      question = {
        text = "What is the TCD after two steps?",
        choices = { "6", "9", "12" },
        hint = "Add up the hops of all messages so far: one in step 1, two in step 2, each as long as the distance between the eyes.",
        answer = 2,
        explain = "3 + 3 + 3 = 3 a_3 = 9 (eq. 3's first term).",
      },
    },
    {
      text = [[
Steps 3-4 repeat this in every 4x4 quadrant (a_2 = 1), steps 5-6 in every 2x2 block.]],
      step = 6,
      question = {
        text = "What is the TCD of the whole broadcast from the eye?",
        choices = { "63", "69", "72", "79" },
        hint = "Use eq. 3: the top level's messages, plus four times what one quadrant spends at the levels below.",
        answer = 2,
        explain = "eq. 3: 3 a_3 + 4 (3 a_2 + 4 x 3) = 9 + 4 x 15 = 69, eq. 10's MD_3(E_3).",
      },
    },
    {
      text = [[
From a corner, the source is not an eye.  It still sends first to the eye across the row, but
in step 2 it chooses between the lower-left eye and the far eye of the lower-left quadrant,
whichever is closer.]],
      source = { 0, 0 }, step = 2,
      nodes = { { 5, 2 } },
      question = {
        text = "Click the node the corner (0,0) sends to in step 2.",
        click = "node", answer = { 5, 1 },
        hint = "Count the hops from the corner to each node of the quadrant it still has to serve: the far one is served first.",
        explain = "(5,1) is 6 hops away, the eye (5,2) 7: the far eye of the quadrant wins.",
      },
    },
    {
      text = [[
Every node of the mesh can be the source.  `meshcast tcd-table --net mesh:8x8` lists the TCD
of Algorithm 1 from each of them.]],
      source = { 0, 0 }, step = 6,
      question = {
        text = "What is the TCD from the corner?",
        choices = { "69", "75", "79", "84" },
        hint = "Read the corner's entry of meshcast tcd-table --net mesh:8x8, or reason: the corner is farther from the eyes than an eye is.",
        answer = 3,
        explain = "79 = eq. 9's MD_3(0,0); 10 more than from an eye.",
      },
    },
    {
      text = [[
Your task: pick the source with the least TCD.  Theorem 1 says where to look.]],
      source = { 0, 0 }, step = 0,
      question = {
        text = "Click the source in the upper-left quadrant from which tcd has the least TCD.",
        click = "node", answer = { 2, 2 },
        hint = "The least TCD is reached from an eye: which node of that quadrant is one?  meshcast tcd-table prints every source's TCD.",
        explain = "The eye (2,2): 69, the least of all 64 sources (tcd-table).",
      },
    },
    {
      text = [[
Is Algorithm 1 the best possible from every source (Theorem 2)?  `tcd-opt` searches all
time-step optimal broadcasts.  On 4x4 it proves Algorithm 1 optimal; on 8x8, from (3,3)...]],
      source = { 3, 3 }, step = 6,
      question = {
        text = "tcd from (3,3) has a TCD of 72.  What does tcd-opt find?",
        choices = { "72: Algorithm 1 is optimal", "71: Theorem 2 fails here" },
        hint = "docs/errata.md lists where the paper's claims do not hold on this mesh.",
        answer = 2,
        explain = "A time-step optimal, contention-free broadcast of TCD 71 (docs/errata.md).",
      },
    },
    {
      text = [[
Now you try: the opposite of the task before.  Which source makes Algorithm 1 use the most
wire?  Move the cursor, press s to make it the source; the Step panel shows the TCD.]],
      source = { 3, 3 },
      question = {
        text = "Make the node of the lower-right quadrant with the largest TCD the source, go to the last step, and press Enter.",
        try = { source = { 7, 7 }, step = 6 },
        hint = "Far from the eyes is expensive: try the quadrant's corners with :source and compare the TCD shown at the last step.",
        explain = "The corner (7,7): 79, as far from the eyes as a source can be.",
      },
    },
    {
      text = [[
Now you try: each level of Algorithm 1 takes two steps, and the step labels name the level.
Level 3 informs the eyes of the 4-wide quadrants, level 2 those of the 2-wide ones.]],
      source = { 0, 0 }, step = 0,
      question = {
        text = "Go to the position right after the first step of level 2, and press Enter.",
        try = { step = 3 },
        hint = "The first level sends to the eyes: count its steps in the Timeline panel (Tab), then step one past them.",
        explain = "Steps 1-2 are level 3, steps 3-4 level 2, steps 5-6 level 1.",
      },
    },
  },
}
