return {
  title = "t", about = "a",
  pages = {
    { text = "one", net = "array:16", algo = "st", step = 0 },
    { text = "two", question = { text = "q", try = { step = 99 } } },
  },
}
