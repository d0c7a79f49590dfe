#!/bin/sh
# build-aux/valgrind.sh -- the demo flow (examples/flow.lua) once under
# valgrind's memcheck: any memory error or definitely lost block fails it.
# Only the host is checked (Chromium is not traced).  Installs valgrind
# when missing.  Run from the project root: `make valgrind`.
set -e
B=${VDX_BUILD:-build}
sh bench/deps.sh valgrind
dir=$(mktemp -d /tmp/vdx-valgrind-XXXXXX)
root=$(pwd)
rc=0
( cd "$dir" && valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
    --errors-for-leak-kinds=definite --error-exitcode=99 --trace-children=no \
    "$root/$B/vdxlua" "$root/examples/flow.lua" >flow.out 2>valgrind.out ) || rc=$?
grep -E 'ERROR SUMMARY|definitely lost|All heap blocks' "$dir/valgrind.out" | sed 's/^==[0-9]*== /valgrind: /'
tail -1 "$dir/flow.out"
if [ "$rc" -ne 0 ]; then
  echo "valgrind: FAILED (exit $rc); the report:"
  grep -v '^==[0-9]*== *$' "$dir/valgrind.out" | tail -40
  rm -rf "$dir"
  exit 1
fi
rm -rf "$dir"
echo "valgrind: ok"
