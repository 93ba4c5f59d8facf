return { title = "seed", pages = {
  { text = "a page", net = "array:8", algo = "st" },
  { text = "a question", question = { text = "which?", choices = { "x", "y" }, answer = 1 } },
  { text = "click", net = "mesh:4x4", question = { text = "q", click = "node", answer = 5 } },
} }
