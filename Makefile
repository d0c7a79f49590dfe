# vdxlua -- build, test and set-up.  `make deps` installs what is missing,
# `make` builds build/vdxlua and build/vdx.so, `make test` runs every spec.

CC      ?= gcc
PKGS    := lua5.4 libuv libwebsockets
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror
# src/ is grouped by layer: core (loop, tasks, module), cdp (the
# connection and transports), browser (process, contexts, tabs), page
# (frames, bridge calls, navigation, snapshots, queries), input (the
# actions' primitives) and http (the fixture server).  Shared types sit in
# src/vdx.h and src/objects.h.  src/http/ is a module of its own, vdx.serve
# (build/vdx/serve.so), linked against vdx.so, whose loop it runs on; vdxlua
# has both built in.
SRCDIRS := src $(sort $(dir $(wildcard src/*/*.c)))
HTTP    := $(basename $(notdir $(wildcard src/http/*.c)))
CORE    := $(filter-out main $(HTTP),$(basename $(notdir $(wildcard src/*/*.c))))
vpath %.c $(SRCDIRS)
XCFLAGS := -std=c11 -D_GNU_SOURCE -fPIC $(WARN) $(addprefix -I,$(SRCDIRS)) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS    := $(shell pkg-config --libs libuv libwebsockets 2>/dev/null) -lm
LUALIB  := -llua5.4
CJSON   := -llua5.4-cjson
BUSTED  ?= busted --lua=lua5.4

LUAMODS := $(sort $(wildcard lua/vdx.lua lua/vdx/*.lua lua/vdx/*/*.lua))
B       ?= build
# The built-in skills, compiled into the generated module vdx.skill_files.
SKILLFILES := $(sort $(shell find skills -type f))
SKILLMOD := $(B)/lua/vdx/skill_files.lua
OBJS    := $(CORE:%=$(B)/%.o)
SERVE_OBJS := $(HTTP:%=$(B)/%.o)

.PHONY: all deps test check test-gc asan asan-build asan-short valgrind clean bridge demo install uninstall check-cjson docs
all: $(B)/vdx.so $(B)/vdx/serve.so $(B)/vdxlua $(SKILLMOD)

$(B):
	@mkdir -p $(B)

$(B)/%.o: %.c src/*.h src/*/*.h | $(B)
	$(CC) $(CFLAGS) $(XCFLAGS) -c $< -o $@

$(SKILLMOD): $(SKILLFILES) build-aux/embed_skills.lua | $(B)
	@mkdir -p $(B)/lua/vdx
	lua5.4 build-aux/embed_skills.lua $@ skills $(SKILLFILES)

$(B)/embedded.c: $(LUAMODS) $(SKILLMOD) build-aux/embed.lua | $(B)
	lua5.4 build-aux/embed.lua $@ vdx_lua_modules $(LUAMODS) $(SKILLMOD)

$(B)/embedded.o: $(B)/embedded.c
	$(CC) $(CFLAGS) -std=c11 -fPIC -c $< -o $@

# The files vdx.so carries: the in-page bridge, bundled and committed in
# bridge/dist (see `make bridge`), the host's call and the page scripts,
# and the JSON codec (lua/vdx/json.lua), which the core falls back to when
# no vdx.json is on package.path, so vdx.core needs no Lua file.
BRIDGE  := bridge/dist/vdx-bridge.js bridge/host/call.js $(sort $(wildcard bridge/page/*.js)) \
           lua/vdx/json.lua

$(B)/bridge_js.c: $(BRIDGE) build-aux/embed.lua | $(B)
	lua5.4 build-aux/embed.lua $@ vdx_bridge_files $(BRIDGE)

$(B)/bridge_js.o: $(B)/bridge_js.c
	$(CC) $(CFLAGS) -std=c11 -fPIC -c $< -o $@

$(B)/vdx.so: $(OBJS) $(B)/bridge_js.o
	$(CC) $(CFLAGS) -shared -o $@ $(OBJS) $(B)/bridge_js.o $(LIBS) $(LDFLAGS)

# vdx.serve needs vdx.so's loop, tasks and JSON codec: it names vdx.so as a
# dependency found beside its folder ($ORIGIN/..), which is the vdx.so that
# require "vdx" loaded (the same file), so both share one copy.
$(B)/vdx/serve.so: $(SERVE_OBJS) $(B)/vdx.so
	@mkdir -p $(B)/vdx
	$(CC) $(CFLAGS) -shared -o $@ $(SERVE_OBJS) -L$(B) -l:vdx.so -Wl,-rpath,'$$ORIGIN/..' $(LIBS) $(LDFLAGS)

$(B)/vdxlua: $(OBJS) $(SERVE_OBJS) $(B)/main.o $(B)/embedded.o $(B)/bridge_js.o
	$(CC) $(CFLAGS) -o $@ $(B)/main.o $(OBJS) $(SERVE_OBJS) $(B)/embedded.o $(B)/bridge_js.o $(LIBS) $(CJSON) $(LUALIB) -Wl,-E $(LDFLAGS)

# Rebuilds the committed bundle from bridge/src (needs Node and npm).
bridge:
	cd bridge && npm ci --no-audit --no-fund && npm run build

deps:
	@sh build-aux/deps.sh

# Every spec against the real browser; prints "N passed, N failed".
# Every spec, then the short reliability suites (stress, fuzz, ASan,
# valgrind; see ci-extra).  `make check` runs the specs alone.
test: check
	@$(MAKE) --no-print-directory ci-extra

check: deps
	@$(MAKE) --no-print-directory all
	@sh build-aux/test.sh

# The main job on the embedded demo.
demo: deps
	@$(MAKE) --no-print-directory all
	$(B)/vdxlua examples/flow.lua

# AddressSanitizer + UndefinedBehaviorSanitizer build of the same suite.
asan: asan-build
	@VDX_BUILD=build/asan VDX_ASAN=1 sh build-aux/test.sh

asan-build:
	@$(MAKE) --no-print-directory B=build/asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" LDFLAGS="-fsanitize=address,undefined" all

# The specs that drive the most C (transports, frames, snapshots, actions,
# the MCP server) under ASan + UBSan: the short run of `make test`.
ASAN_SHORT = spec/core_spec.lua spec/snapshot_spec.lua spec/actions_spec.lua spec/mcp_spec.lua spec/faults_spec.lua
asan-short: asan-build
	@VDX_BUILD=build/asan VDX_ASAN=1 VDX_SPECS="$(ASAN_SHORT)" sh build-aux/test.sh

# The demo flow under valgrind's memcheck (zero errors, no definite leak).
valgrind: all
	@sh build-aux/valgrind.sh

# The suite once more with a garbage collector that runs all the time, to
# shake out finalizer and anchoring mistakes: generational mode with a
# minor collection every 1% of growth.  (Incremental mode with a pause of
# 10 makes the host so slow that the page creating a frame every 7 ms
# outruns it: its event backlog delays replies past their timeouts.)
test-gc: all
	@LUA_INIT_5_4="collectgarbage('generational', 1, 10)" sh build-aux/test.sh

# Regenerates the tool reference (docs/mcp-tools.md) from the registry.
docs: all
	$(B)/vdxlua build-aux/docs.lua

clean:
	rm -rf build

# `make install PREFIX=/opt/vdx DESTDIR=/tmp/stage`: vdxlua into
# $(PREFIX)/bin, vdx.so and vdx/serve.so into $(PREFIX)/lib/lua/5.4, the Lua
# layer into $(PREFIX)/share/lua/5.4, every path under $(DESTDIR) (for
# packagers).  The INST_* folders derive from PREFIX and stay overridable:
# `luarocks make vdx-scm-1.rockspec` passes its own.  vdxlua has the Lua
# layer, the bridge and the skills built in, so it runs from any folder
# wherever it lands; the files in the lib and share folders are for plain
# Lua 5.4 hosts (`require "vdx"`), which find them on the default paths
# when PREFIX is /usr/local (docs/install.md).  `make uninstall` with the
# same variables removes what install put there.
PREFIX      ?= /usr/local
DESTDIR     ?=
INST_LIBDIR ?= $(PREFIX)/lib/lua/5.4
INST_LUADIR ?= $(PREFIX)/share/lua/5.4
INST_BINDIR ?= $(PREFIX)/bin
LIBDIR_D := $(DESTDIR)$(INST_LIBDIR)
LUADIR_D := $(DESTDIR)$(INST_LUADIR)
BINDIR_D := $(DESTDIR)$(INST_BINDIR)
LUA         ?= lua5.4

# The modules vdx.so needs at run time that are not in this tree: lua-cjson
# (Debian's lua-cjson package; the rockspec does not name the rock, which
# Debian's package does not register, see vdx-scm-1.rockspec).
check-cjson:
	@$(LUA) -e 'require "cjson"' 2>/dev/null || { echo "vdx needs lua-cjson for Lua 5.4, and $(LUA) cannot require \"cjson\": install it (apt-get install lua-cjson lua-cjson-dev, or make deps), or put its cjson.so on LUA_CPATH" >&2; exit 1; }

install: all check-cjson
	install -d "$(LIBDIR_D)/vdx" "$(LUADIR_D)/vdx" "$(BINDIR_D)"
	install -m 0755 $(B)/vdx.so "$(LIBDIR_D)/vdx.so"
	install -m 0755 $(B)/vdx/serve.so "$(LIBDIR_D)/vdx/serve.so"
	for f in $(LUAMODS:lua/%=%); do install -D -m 0644 lua/$$f "$(LUADIR_D)/$$f" || exit 1; done
	install -m 0644 $(SKILLMOD) "$(LUADIR_D)/vdx/skill_files.lua"
	install -m 0755 $(B)/vdxlua "$(BINDIR_D)/vdxlua"

# vdx/ under the lib and share folders is vdx's own namespace: all of it goes.
uninstall:
	rm -f "$(BINDIR_D)/vdxlua" "$(LIBDIR_D)/vdx.so" "$(LUADIR_D)/vdx.lua"
	rm -rf "$(LIBDIR_D)/vdx" "$(LUADIR_D)/vdx"

# ---------------------------------------------------------------------------
# Benchmarks and reliability suites (bench/, fuzz/; see bench/README.md).
# `make bench` in-process figures; `make bench-peers` the MCP servers side by
# side (installs them from npm into bench/.peers); `make bench-agent` the
# agent's job on four apps against Playwright MCP (bench/agent.mjs); `make stress` 1,000 mixed
# operations (STRESS_N=100 for a short run); `make fuzz` libFuzzer on the
# framing and routing code plus an adversarial MCP client (FUZZ_SECONDS);
# `make ci-extra` the short versions of all of them plus a short ASan run
# and valgrind on the demo: the second half of `make test`, so CI runs them.
.PHONY: bench bench-deps bench-peers bench-agent bench-scale peers-install bench-plot stress nav-stress fuzz fuzz-c fuzz-mcp ci-extra
FUZZ_SECONDS ?= 60
STRESS_N     ?= 1000

bench-deps:
	@sh bench/deps.sh gnuplot-nox

bench: bench-deps all
	$(B)/vdxlua bench/run.lua
	$(B)/vdxlua bench/plot.lua

bench-plot: bench-deps
	$(B)/vdxlua bench/plot.lua

# The peers (bench/peers-package.json) from npm into bench/.peers; no
# browser downloads: every server and spec runs Debian's Chromium.
peers-install:
	@mkdir -p bench/.peers
	@cmp -s bench/peers-package.json bench/.peers/package.json || cp bench/peers-package.json bench/.peers/package.json
	cd bench/.peers && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 \
	  npm install --no-audit --no-fund --loglevel=error

bench-peers: bench-deps all peers-install
	VDXLUA=$(B)/vdxlua node bench/peers.mjs
	$(B)/vdxlua bench/plot.lua

# The agent's job: four apps, vdxlua mcp against Playwright MCP on calls
# and characters, each spec run 3 times under @playwright/test.  Skips
# (with the reason) where Node or npm is missing.
bench-agent: all
	@if command -v node >/dev/null && command -v npm >/dev/null; then \
	  $(MAKE) --no-print-directory peers-install || echo "bench-agent: npm install failed; bench/agent.mjs skips what is missing"; \
	  VDXLUA=$(B)/vdxlua node bench/agent.mjs; \
	else echo "bench-agent: skipped, Node.js and npm are needed for the MCP client and Playwright"; fi

# Throughput at scale: navigate + snapshot loops on N = 1, 4, 16 pages for
# the raw CDP floor, vdxlua in process, `vdxlua mcp` with N roles and
# playwright-core, interleaved round by round (bench/scale.mjs;
# SCALE_SECONDS per cell, default 30).  playwright-core from bench/.peers
# or build/playwright; its row is skipped when neither has it.
bench-scale: all
	@command -v node >/dev/null || { echo "bench-scale: Node.js is needed for the MCP client and playwright-core"; exit 1; }
	@test -d $(B)/playwright/node_modules/playwright-core || \
	  $(MAKE) --no-print-directory peers-install || echo "bench-scale: npm install failed; the playwright row is skipped"
	VDXLUA=$(B)/vdxlua node bench/scale.mjs

stress: all
	STRESS_N=$(STRESS_N) $(B)/vdxlua bench/stress.lua

# The navigation tracker under load: 2,000 navigations in 8 parallel tasks
# must report none as replaced (`make check` runs 160 of them).
nav-stress: all
	@VDX_NAV_STRESS=2000 VDX_SPECS=spec/nav_stress_spec.lua sh build-aux/test.sh

fuzz-c:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh fuzz/run_c.sh

fuzz-mcp: all
	@if command -v node >/dev/null; then \
	  FUZZ_SECONDS=$(FUZZ_SECONDS) node fuzz/mcp_adversarial.mjs $(B)/vdxlua; \
	else echo "mcp fuzz: skipped: no node"; fi

fuzz: fuzz-c fuzz-mcp

ci-extra:
	@$(MAKE) --no-print-directory stress STRESS_N=60
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=15
	@$(MAKE) --no-print-directory asan-short
	@$(MAKE) --no-print-directory valgrind
