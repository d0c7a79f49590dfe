# vdxlua -- build, test and set-up.  `make deps` installs what is missing,
# `make` builds build/vdxlua and build/vdx.so, `make test` runs every spec.

CC      ?= gcc
PKGS    := lua5.4 libuv libwebsockets
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Werror
XCFLAGS := -std=c11 -D_GNU_SOURCE -fPIC $(WARN) $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS    := $(shell pkg-config --libs libuv libwebsockets 2>/dev/null) -lm
LUALIB  := -llua5.4
CJSON   := -llua5.4-cjson
BUSTED  ?= busted --lua=lua5.4

CORE    := loop task error json conn pipe ws proc browser launch connect \
           context page serve module
SRCS    := $(CORE:%=src/%.c)
LUAMODS := $(sort $(wildcard lua/vdx/*.lua))
B       ?= build
OBJS    := $(CORE:%=$(B)/%.o)

.PHONY: all deps test test-unit asan clean bridge
all: $(B)/vdx.so $(B)/vdxlua

$(B):
	@mkdir -p $(B)

$(B)/%.o: src/%.c src/*.h | $(B)
	$(CC) $(CFLAGS) $(XCFLAGS) -c $< -o $@

$(B)/embedded.c: $(LUAMODS) tools/embed.lua | $(B)
	lua5.4 tools/embed.lua $@ vdx_lua_modules $(LUAMODS)

$(B)/embedded.o: $(B)/embedded.c
	$(CC) $(CFLAGS) -std=c11 -fPIC -c $< -o $@

$(B)/vdx.so: $(OBJS)
	$(CC) $(CFLAGS) -shared -o $@ $(OBJS) $(LIBS) $(LDFLAGS)

$(B)/vdxlua: $(OBJS) $(B)/main.o $(B)/embedded.o
	$(CC) $(CFLAGS) -o $@ $(B)/main.o $(OBJS) $(B)/embedded.o $(LIBS) $(CJSON) $(LUALIB) -Wl,-E $(LDFLAGS)

deps:
	@sh tools/deps.sh

# Every spec against the real browser; prints "N passed, N failed".
test: all
	@sh tools/test.sh

# AddressSanitizer + UndefinedBehaviorSanitizer build of the same suite.
asan:
	$(MAKE) B=build/asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" LDFLAGS="-fsanitize=address,undefined" all
	@VDX_BUILD=build/asan VDX_ASAN=1 sh tools/test.sh

clean:
	rm -rf build
