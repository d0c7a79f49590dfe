#!/bin/sh
# fuzz/run_c.sh -- builds and runs the libFuzzer targets: the framing and
# routing code for FUZZ_SECONDS (default 60), then the WebSocket reassembly
# for a third of that, and prints the counts.  The
# corpus grows in build/fuzz/corpus (seeded from fuzz/corpus/conn); a crash
# leaves its input in build/fuzz/ and fails the run.
set -e
cd "$(dirname "$0")/.."
sh fuzz/build.sh
mkdir -p build/fuzz/corpus
log=build/fuzz/fuzz_conn.log
rc=0
build/fuzz/fuzz_conn -max_total_time="${FUZZ_SECONDS:-60}" -dict=fuzz/cdp.dict \
  -artifact_prefix=build/fuzz/ -print_final_stats=1 \
  build/fuzz/corpus fuzz/corpus/conn >"$log" 2>&1 || rc=$?
# The core reports each undecodable message on stderr: count, do not print.
dropped=$(grep -c '^vdx: dropped a message' "$log" || true)
grep -v '^vdx: dropped a message' "$log" | grep -E 'DONE|ERROR|SUMMARY|stat::|Done |crash|leak' | tail -12
echo "fuzz_conn: $dropped undecodable messages dropped (expected for random input); exit $rc"
[ "$rc" -eq 0 ] && echo "fuzz_conn: ok" || { echo "fuzz_conn: FAILED (see $log)"; exit 1; }
# The WebSocket reassembly, for a third of the time (it is small).
mkdir -p build/fuzz/corpus_reasm
log=build/fuzz/fuzz_reasm.log
secs=$(( ${FUZZ_SECONDS:-60} / 3 ))
[ "$secs" -ge 5 ] || secs=5
build/fuzz/fuzz_reasm -max_total_time="$secs" -artifact_prefix=build/fuzz/reasm- \
  -print_final_stats=1 build/fuzz/corpus_reasm >"$log" 2>&1 || rc=$?
grep -E 'DONE|ERROR|SUMMARY|stat::number_of_executed_units|crash|leak' "$log" | tail -6
[ "$rc" -eq 0 ] && echo "fuzz_reasm: ok" || { echo "fuzz_reasm: FAILED (see $log)"; exit 1; }
