#!/bin/sh
# build-aux/test.sh -- runs every spec with busted against the real browser,
# then checks that no Chromium started by the suite is still running, and
# prints one closing line: "N passed, N failed[, N skipped]".
B=${VDX_BUILD:-build}
export LUA_CPATH="$B/?.so;;"
export LUA_PATH="lua/?.lua;lua/?/init.lua;$B/lua/?.lua;spec/?.lua;;"
export VDX_BUILD="$B"
out=$(mktemp)
# Every browser the suite launches gets its profile under this folder, so
# the leak check below sees only this run's processes.
run_tmp=$(mktemp -d /tmp/vdx-test-XXXXXX)
export TMPDIR="$run_tmp"
RUNNER="busted --lua=lua5.4"
if [ -n "$VDX_ASAN" ]; then
  # Under the sanitizers, busted itself runs inside the instrumented
  # vdxlua (whose require "vdx" is the built-in module), so no LD_PRELOAD
  # leaks into the processes the specs start.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  # busted's own options go after "--": vdxlua reads the ones before
  # it as a flow's.
  RUNNER="$B/vdxlua $(command -v busted) --"
fi
# VDX_SPECS narrows the run to some spec files (the short ASan run).
$RUNNER -o TAP ${BUSTED_ARGS:-} ${VDX_SPECS:-spec} 2>&1 | tee "$out"
passed=$(grep -c '^ok ' "$out")
skipped=$(grep -c '^ok .*# SKIP' "$out")
failed=$(grep -c '^not ok ' "$out")
passed=$((passed - skipped))
# The suite's browsers all use profiles under $run_tmp.
left=$(pgrep -f "user-data-dir=$run_tmp/" | wc -l)
if [ "$left" -gt 0 ]; then
  echo "not ok - $left Chromium processes outlived the test run"
  pgrep -fa "user-data-dir=$run_tmp/" | head -5 | cut -c1-200
  pkill -9 -f "user-data-dir=$run_tmp/"
  failed=$((failed + 1))
else
  echo "ok - no Chromium process outlived the test run"
  passed=$((passed + 1))
fi
# A runner that never reached the specs (a crash, or options it refused)
# ran nothing: that is a failure, not a pass.
if [ "$failed" -eq 0 ] && [ $((passed + skipped)) -le 1 ]; then
  echo "not ok - no spec ran"
  failed=$((failed + 1))
fi
rm -f "$out"
rm -rf "$run_tmp"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
