return {
  title = "t", about = "a",
  pages = {
    { text = "one", net = "array:16", algo = "st", step = 0 },
    { text = "two", question = { text = "q", try = { net = "array:64", step = 6, set = { "nu=1" } } } },
  },
}
