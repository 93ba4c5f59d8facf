# expect.jq — what map.awk should read off the screen for step $step (0-based) of a schedule
# (meshcast schedule --format json), computed from the engine's transfers and routes.
# Args: --argjson step N --argjson rows R --argjson cols C --argjson wrap 0|1 --argjson cap K
def hops($src; $route):
  # every hop of a route "x+4 y-2" from src as {k: "H"/"V", from, to, dir}
  reduce ($route | split(" ")[] | select(. != "")) as $seg ({at: $src, hops: []};
    ($seg[0:1]) as $d | ($seg[1:2]) as $sg | ($seg[2:] | tonumber) as $len |
    reduce range($len) as $i (.;
      (.at / $cols | floor) as $r | (.at % $cols) as $c |
      (if $d == "x" then
         (if $sg == "+" then [$r, (($c + 1) % $cols)] else [$r, (($c - 1 + $cols) % $cols)] end)
       else
         (if $sg == "+" then [(($r + 1) % $rows), $c] else [(($r - 1 + $rows) % $rows), $c] end)
       end) as $n |
      ($n[0] * $cols + $n[1]) as $to |
      .hops += [{k: (if $d == "x" then "H" else "V" end), from: .at, to: $to, dir: $sg}] |
      .at = $to)) | .hops;
.steps[$step].transfers as $ts
| ([$ts[].dst] | unique | map("N \(.)")) as $recv
| ([$ts[].src] | group_by(.) | map(select(length > 1) | .[0])) as $multi_send
| ([$ts[].dst] | group_by(.) | map(select(length > 1) | .[0])) as $multi_recv
| ($multi_send + $multi_recv | unique | map("C \(.)")) as $conflict
| ([ $ts[] | (.subround // 1) as $sr | hops(.src; .route)[]
     | {k, id: (if .dir == "+" then .from else .to end), dir, sr: $sr} ]
   | group_by([.k, .id]) | map(
      (map(select(.dir == "+")) | length) as $p | (map(select(.dir == "-")) | length) as $m |
      # a link's load: its most circuits in one sub-round (seidel's one-port sub-rounds)
      ([group_by([.sr, .dir])[] | length] | max) as $most |
      "\(.[0].k) \(.[0].id) " +
      (if $most > $cap then "D\($most)"
       else (if $p > 0 then "+" else "" end) + (if $m > 0 then "-" else "" end) end))) as $links
| ($recv + $conflict + $links)[]
