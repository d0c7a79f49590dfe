#!/bin/sh
# fuzz/build.sh -- builds the libFuzzer targets build/fuzz/fuzz_conn (the
# core objects under clang with ASan + UBSan and fuzzer coverage, linked
# with the harness, which includes src/cdp/pipe.c itself) and
# build/fuzz/fuzz_reasm (the WebSocket reassembly, src/cdp/reasm.c).  Installs
# clang-14 and libclang-rt-14-dev when missing (sudo only when not root).
set -e
cd "$(dirname "$0")/.."
sh bench/deps.sh clang-14 libclang-rt-14-dev
CC=${FUZZ_CC:-clang-14}
B=build/fuzz
mkdir -p $B
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CFLAGS="-O1 -g $SAN -fsanitize=fuzzer-no-link -std=c11 -D_GNU_SOURCE -fPIC $(for d in src src/*/; do printf -- "-I%s " "$d"; done) $(pkg-config --cflags lua5.4 libuv libwebsockets)"
# The generated C files of the normal build (the bridge bundle).
make --no-print-directory build/bridge_js.c >/dev/null
objs=""
for f in src/*/*.c; do
  n=$(basename "$f" .c)
  case $n in main|pipe) continue ;; esac
  if [ ! -f $B/$n.o ] || [ "$f" -nt $B/$n.o ] || [ src/vdx.h -nt $B/$n.o ]; then
    $CC $CFLAGS -c "$f" -o $B/$n.o
  fi
  objs="$objs $B/$n.o"
done
[ $B/bridge_js.o -nt build/bridge_js.c ] || $CC -O1 -fPIC -c build/bridge_js.c -o $B/bridge_js.o
$CC $CFLAGS -fsanitize=fuzzer -Isrc fuzz/fuzz_conn.c $objs $B/bridge_js.o \
  -o $B/fuzz_conn $(pkg-config --libs libuv libwebsockets) -llua5.4-cjson -llua5.4 -lm
$CC $CFLAGS -fsanitize=fuzzer fuzz/fuzz_reasm.c $B/reasm.o -o $B/fuzz_reasm
echo "fuzz: built $B/fuzz_conn and $B/fuzz_reasm"
