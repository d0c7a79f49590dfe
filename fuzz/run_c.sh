#!/bin/sh
# fuzz/run_c.sh -- builds and runs the libFuzzer target on the framing and
# routing code for FUZZ_SECONDS (default 60) and prints the counts.  The
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
