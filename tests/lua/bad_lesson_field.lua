-- a lesson page with a misspelled field: `modle` for `model` (would silently keep the model)
return {
  title = "misspelled",
  pages = {
    { text = "first", net = "array:8", algo = "st" },
    { text = "second", modle = "postal" },
  },
}
