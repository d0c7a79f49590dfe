rockspec_format = "3.0"
package = "vdx"
version = "scm-1"
source = { url = "git+file://." }
description = {
  summary = "Drive Chromium over CDP from Lua 5.4: snapshots with refs, structure queries, multi-role flows, an MCP server",
  license = "MIT",
}
dependencies = { "lua >= 5.4, < 5.5", "lua-cjson" }
external_dependencies = {
  LIBUV = { header = "uv.h" },
  LIBWEBSOCKETS = { header = "libwebsockets.h" },
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
  },
}
