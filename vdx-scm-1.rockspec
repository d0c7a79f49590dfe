-- luarocks --lua-version 5.4 make vdx-scm-1.rockspec [--tree DIR | --local]
--
-- The build is the Makefile's (make backend): `make all`, then `make
-- install` with luarocks' own folders as INST_LIBDIR/INST_LUADIR/
-- INST_BINDIR (docs/install.md).  Debian's luarocks defaults to Lua 5.1,
-- hence --lua-version 5.4.
--
-- lua-cjson is not a rock dependency: vdx is built against Debian's
-- lua-cjson (vdxlua links liblua5.4-cjson, vdx.so requires "cjson"), which
-- apt installs outside every rocks tree, so naming the rock made luarocks
-- report it missing (or fetch a second copy) although everything worked.
-- What the build really needs is said where luarocks checks it:
-- LUA_CJSON below (the header and library of Debian's lua-cjson-dev; a
-- missing one stops the build with luarocks' "Could not find header file
-- for LUA_CJSON"), and the Makefile's check-cjson step, run by `make
-- install`, which fails with what to install when lua5.4 cannot
-- require "cjson".
rockspec_format = "3.0"
package = "vdx"
version = "scm-1"
source = { url = "git+file://." }
description = {
  summary = "Drive Chromium over CDP from Lua 5.4: snapshots with refs, structure queries, multi-role flows, an MCP server",
  license = "MIT",
}
dependencies = { "lua >= 5.4, < 5.5" }
external_dependencies = {
  LIBUV = { header = "uv.h" },
  LIBWEBSOCKETS = { header = "libwebsockets.h" },
  LUA_CJSON = { header = "lua5.4/lua-cjson.h", library = "lua5.4-cjson" },
}
build = {
  type = "make",
  build_target = "all",
  install_target = "install",
  build_variables = { CFLAGS = "$(CFLAGS)", LUA_INCDIR = "$(LUA_INCDIR)" },
  install_variables = {
    INST_LIBDIR = "$(LIBDIR)",
    INST_LUADIR = "$(LUADIR)",
    INST_BINDIR = "$(BINDIR)",
    LUA = "$(LUA)",
  },
}
