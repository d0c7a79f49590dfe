#!/bin/sh
# build-aux/deps.sh -- installs the Debian packages vdxlua needs (only the
# missing ones; a quick no-op when all are present).  Uses sudo only when
# not root.  lua-luv, lua-cqueues and lua-copas are the host loops that
# spec/embed_spec.lua embeds vdx in (tests and examples only).
# chromium-headless-shell is what vdx.launch runs headless (it starts in
# a third of the full browser's time); chromium is for headed runs.
set -e
PKGS="build-essential pkg-config lua5.4 liblua5.4-dev libuv1-dev
libwebsockets-dev libwebsockets-evlib-uv lua-cjson lua-cjson-dev lua-busted
chromium chromium-headless-shell curl procps lua-socket lua-luv lua-cqueues lua-copas"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "deps: everything is installed"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "deps: installing$missing"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
