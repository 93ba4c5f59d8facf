return {
  title = "t", about = "a",
  pages = {
    { text = "one", net = "array:16", algo = "st", step = 0 },
    { text = "two", step = 999 },
  },
}
