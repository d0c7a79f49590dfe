#!/bin/sh
# tools/test.sh -- runs every spec with busted against the real browser,
# then checks that no Chromium started by the suite is still running, and
# prints one closing line: "N passed, N failed[, N skipped]".
B=${VDX_BUILD:-build}
export LUA_CPATH="$B/?.so;;"
export LUA_PATH="lua/?.lua;lua/?/init.lua;spec/?.lua;;"
export VDX_BUILD="$B"
out=$(mktemp)
if [ -n "$VDX_ASAN" ]; then
  # The sanitizers must be loaded before lua5.4 itself.
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fi
busted --lua=lua5.4 -o TAP ${BUSTED_ARGS:-} spec 2>&1 | tee "$out"
unset LD_PRELOAD
passed=$(grep -c '^ok ' "$out")
skipped=$(grep -c '^ok .*# SKIP' "$out")
failed=$(grep -c '^not ok ' "$out")
passed=$((passed - skipped))
# The suite's browsers all use profiles named vdx-chromium-*.
left=$(pgrep -f 'user-data-dir=[^ ]*vdx-chromium-' | wc -l)
if [ "$left" -gt 0 ]; then
  echo "not ok - $left Chromium processes outlived the test run"
  pgrep -fa 'user-data-dir=[^ ]*vdx-chromium-' | head -5
  pkill -9 -f 'user-data-dir=[^ ]*vdx-chromium-'
  failed=$((failed + 1))
else
  echo "ok - no Chromium process outlived the test run"
  passed=$((passed + 1))
fi
if grep -q '^Bail out\|^# Error\|lua5.4: ' "$out" && [ "$failed" -eq 0 ] && [ "$passed" -le 1 ]; then
  failed=$((failed + 1))
fi
rm -f "$out"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
