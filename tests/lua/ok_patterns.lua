-- ordinary string work still runs in the sandbox
local t = {}
for k, v in ("x=1,y=22,z=333"):gmatch("(%w+)=(%w+)") do t[#t + 1] = k .. v end
assert(table.concat(t, ";") == "x1;y22;z333")
assert(("hello world"):gsub("o", "0") == "hell0 w0rld")
assert(("a.b"):find(".", 1, true) == 2)
assert(("[x]"):match("%[(.-)%]") == "x")
assert(string.format("%5.2f", 3.14159) == " 3.14")
assert(utf8.len("héllo") == 5)
assert(select("#", table.unpack({ 1, 2, 3 })) == 3)
assert(math.type(1 << 40) == "integer")
local ok, err = pcall(error, "caught")
assert(not ok and err:find("caught"))
assert(load("return 1 + 1")() == 2)
assert(os.clock() >= 0 and os.time() > 0)
return {
  name = "ok-patterns", nets = { "array" },
  build = function(sched, net, p, source)
    for d = 0, net:size() - 1 do
      if d ~= source then sched:step():send(source, d, { 0 }) end
    end
  end,
}
