#!/bin/sh
# bench/deps.sh PKG... -- installs the Debian packages named that are
# missing (the benchmark's and fuzzer's own tools: gnuplot-nox, clang-14,
# libclang-rt-14-dev); a quick no-op when all are present.  Uses sudo only
# when not root.
set -e
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "bench: installing$missing"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
