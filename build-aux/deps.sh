#!/bin/sh
# build-aux/deps.sh -- installs the Debian packages vdxlua needs (only the
# missing ones; a quick no-op when all are present).  Uses sudo only when
# not root.  lua-luv, lua-cqueues and lua-copas are the host loops that
# spec/embed_spec.lua embeds vdx in (tests and examples only).
# chromium-headless-shell is what vdx.launch runs headless (it starts in
# a third of the full browser's time); chromium is for headed runs.
# luarocks is for spec/install_spec.lua, which installs the rockspec.
# Then browserless from npm, for the farm specs (see below).
set -e
PKGS="build-essential pkg-config lua5.4 liblua5.4-dev libuv1-dev
libwebsockets-dev libwebsockets-evlib-uv lua-cjson lua-cjson-dev lua-busted
chromium chromium-headless-shell curl procps lua-socket lua-luv lua-cqueues lua-copas
luarocks"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "deps: every Debian package is installed"
else
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "deps: installing$missing"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
fi

# The browser farm of spec/farm_spec.lua: browserless from npm, into
# build/farm (or $VDX_FARM_DIR), with browser downloads skipped (it runs
# Debian's Chromium).  Without Node and npm, or offline, it is left out and
# the farm specs are pending, saying so; nothing else needs it.
BROWSERLESS=2.42.0
FARM_DIR=${VDX_FARM_DIR:-build/farm}
if [ -f "$FARM_DIR/node_modules/@browserless.io/browserless/package.json" ]; then
  echo "deps: browserless is installed in $FARM_DIR"
elif ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "deps: no Node and npm, so no browserless for spec/farm_spec.lua (its specs will be pending)"
else
  echo "deps: installing browserless $BROWSERLESS into $FARM_DIR"
  mkdir -p "$FARM_DIR"
  if ! (cd "$FARM_DIR" && { test -f package.json || echo '{"private":true}' > package.json; } &&
        PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 900 \
        npm install --no-audit --no-fund --loglevel=error "@browserless.io/browserless@$BROWSERLESS"); then
    # A half-done install (npm stopped, or two at once in one folder) would
    # make the specs start a browserless that cannot load: none is pending.
    rm -rf "$FARM_DIR/node_modules"
    echo "deps: npm could not install browserless (offline?): the farm specs will be pending"
  fi
fi
