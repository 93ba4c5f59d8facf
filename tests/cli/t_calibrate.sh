#!/bin/sh
# meshcast calibrate: the fit checked on synthetic measurements made from known constants (a
# stand-in meshcast-mpi prints them; no MPI needed), the profile it saves read back by
# --profile, bad options; and, with Open MPI, a real (small) calibration.
. "$(dirname "$0")/../lib.sh"

# Known constants: seidel T = b + a*m, b = 5 us, a = 0.01 us/B (distance costs nothing);
# K transfers through one cut with capacity 2^nu = 2: ceil(K/2) * a * M + b; a copy of M
# bytes at rho = 0.002 us/B.  Times in seconds, as meshcast-mpi prints them.
cat > "$TMPD/fake-mpi" <<'EOS'
#!/bin/sh
awk 'BEGIN {
  a = 0.01; b = 5; M = 65536
  for (d = 1; d <= 4; d *= 2) for (m = 1; m <= M; m *= 4) printf "pp %d %d %.12g\n", d, m, (b + a*m) / 1e6
  for (k = 1; k <= 4; k++) printf "ct %d %d %.12g\n", k, M, (int((k + 1) / 2) * a * M + b) / 1e6
  printf "cp %d %.12g\n", M, 0.002 * M / 1e6 }'
EOS
chmod +x "$TMPD/fake-mpi"
export XDG_CONFIG_HOME="$TMPD/config"
check_exit "synthetic: calibrate" 0 env MESHCAST_MPI="$TMPD/fake-mpi" "$MESHCAST" calibrate \
    --np 8 --mpirun env --json --save synth
j=$OUT
check_close "synthetic: seidel a" "$(printf '%s' "$j" | jq '."seidel.a"')" 0.01 1e-6
check_close "synthetic: seidel b" "$(printf '%s' "$j" | jq '."seidel.b"')" 5 1e-6
check_close "synthetic: rho" "$(printf '%s' "$j" | jq '."seidel.rho"')" 0.002 1e-6
check_eq "synthetic: nu found by search" 1 "$(printf '%s' "$j" | jq '."seidel.nu"')"
check_close "synthetic: postal t = b" "$(printf '%s' "$j" | jq '."postal.t"')" 5 1e-6
check_close "synthetic: circuit tau = a" "$(printf '%s' "$j" | jq '."circuit.tau"')" 0.01 1e-6
check_close "synthetic: circuit delta = 0" "$(printf '%s' "$j" | jq '."circuit.delta"')" 0 1e-6
check_close "synthetic: fit error 0" "$(printf '%s' "$j" | jq '."fit.seidel"')" 0 1e-6
P=$XDG_CONFIG_HOME/meshcast/profiles/synth.profile
check "synthetic: profile written" test -f "$P"
check_match "synthetic: profile keys" '^seidel\.a = 0\.01$' "$(cat "$P")"
# the saved profile prices through --profile: st on array:2, 1024 bytes is one message,
# b + a*1024 = 15.24 us (nu=0 by --set: st on two nodes needs nu < 1)
check_exit "profile used by run" 0 "$MESHCAST" run --net array:2 --algo st --bytes 1024 --profile synth --set nu=0 --json
check_close "profile: b + a*1024" "$(printf '%s' "$OUT" | jq .cost.total)" 15.24 1e-9

check_exit "calibrate: bad --np" 2 "$MESHCAST" calibrate --np 1
check_exit "calibrate: bad --save name" 2 "$MESHCAST" calibrate --save ../x
check_exit "calibrate: unknown option" 2 "$MESHCAST" calibrate --frob 1
check_exit "calibrate: without meshcast-mpi" 2 env MESHCAST_MPI=/nonexistent "$MESHCAST" calibrate
check_match "calibrate: without meshcast-mpi: what to install" 'openmpi-bin' "$ERR"
check_exit "calibrate: garbage from meshcast-mpi" 1 env MESHCAST_MPI=/bin/echo "$MESHCAST" calibrate --mpirun env
check_eq "calibrate: garbage: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"

MPI_BIN=$(dirname "$MESHCAST")/meshcast-mpi
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    skip "real calibration" "no mpirun or $MPI_BIN (make deps, then make)"
else
    [ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    check_exit "real: calibrate 4 ranks" 0 timeout 120 "$MESHCAST" calibrate --np 4 --bytes 16K --reps 2 --save real
    check_match "real: fitted" '^seidel: +a = [0-9.e-]+ us/B +b = [0-9.e-]+ us' "$OUT"
    check_exit "real: profile loads" 0 "$MESHCAST" run --net array:4 --algo st --bytes 1K --profile real
fi
finish
