/*
 * launch.c -- vdx.launch and vdx.connect.
 *
 * launch starts Chromium with --remote-debugging-pipe (no TCP port) unless
 * opts.port asks for --remote-debugging-port, in which case it connects
 * over WebSocket like vdx.connect.  Until the browser object exists, the
 * process is held by a guard whose finalizer kills it, so a launch that
 * fails half way leaves no Chromium behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "vdx.h"
#include "objects.h"

#define GUARD_MT "vdx.LaunchGuard"

extern char **environ;
vdx_browser *vdx__browser_push(lua_State *L, vdx_conn *conn, vdx_proc *proc,
                               int timeout_ms);

/* WebUIOmniboxPopup and WebUIOmniboxAimPopup: Chromium preloads the
 * address bar's popup as two WebUI pages at start, in a renderer of their
 * own, even headless; that renderer competes with the first page's for
 * the CPU while the browser starts.  No --site-per-process: the headless
 * shell then keeps a cross-origin frame in the page's renderer, as it does
 * under Playwright's own headless runs (Playwright adds the flag only to
 * test out-of-process frames), and a page of cross-origin frames loads in
 * about half the time (bench/README.md); the full browser isolates every
 * site by default, and a caller who wants that of the shell passes the
 * flag in args.  RenderDocument: with it a
 * same-site navigation commits into a new frame host, and DevTools moves
 * the page's session there while the old document may still show a
 * dialog; the answer to that dialog is then refused ("Not attached to an
 * active page") and the navigation waits on it to the timeout: a page
 * that opens dialogs in a loop blocked every navigation away. */
static const char *const default_flags[] = {
  "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run",
  "--disable-quic", "--no-default-browser-check", "--mute-audio",
  "--disable-features=Translate,MediaRouter,OptimizationHints,"
  "WebUIOmniboxPopup,WebUIOmniboxAimPopup,RenderDocument",
  "--password-store=basic", "--use-mock-keychain", NULL};

#define DISABLE_FEATURES "--disable-features="

typedef struct guard { vdx_proc *proc; } guard;

static int guard_gc(lua_State *L) {
  guard *g = luaL_checkudata(L, 1, GUARD_MT);
  if (g->proc) {
    vdx__proc_kill(g->proc);
    vdx__proc_release(g->proc);
    g->proc = NULL;
  }
  return 0;
}

/* ----------------------------------------------------------- helpers */

static int is_exec(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/*
 * Finds the browser: opts.executable, $VDX_CHROMIUM, then PATH.  A
 * headless launch looks for chromium-headless-shell first: Chromium's
 * headless build without the browser's UI layer (the one Playwright runs
 * headless too), which answers on its pipe in about 80 ms where the full
 * browser takes about 300 ms on this project's machine.  A headed launch,
 * or a machine without the shell, gets the full browser.
 */
static const char *find_browser(lua_State *L, const char *given, int headless) {
  static const char *const shell_first[] = {"chromium-headless-shell",
    "chromium", "chromium-browser", "google-chrome", NULL};
  const char *const *names = headless ? shell_first : shell_first + 1;
  const char *env = getenv("VDX_CHROMIUM");
  if (given) {
    if (!is_exec(given))
      vdx__error_raise(L, "BrowserNotFound", "opts.executable '%s' is not an "
                       "executable file", given);
    return given;
  }
  if (env && *env) {
    if (!is_exec(env))
      vdx__error_raise(L, "BrowserNotFound", "VDX_CHROMIUM='%s' is not an "
                       "executable file", env);
    return env;
  }
  const char *path = getenv("PATH");
  for (int i = 0; names[i]; i++) {
    const char *p = path ? path : "/usr/bin:/bin";
    while (*p) {
      const char *colon = strchr(p, ':');
      size_t n = colon ? (size_t)(colon - p) : strlen(p);
      lua_pushfstring(L, "%s/%s", lua_pushlstring(L, p, n), names[i]);
      lua_remove(L, -2);
      if (is_exec(lua_tostring(L, -1))) return lua_tostring(L, -1);
      lua_pop(L, 1);
      p += n + (colon ? 1 : 0);
    }
  }
  vdx__error_raise(L, "BrowserNotFound", "no Chromium found (looked for "
                   "%schromium, chromium-browser and google-chrome on PATH). "
                   "Install it with `make deps` (Debian: apt-get install "
                   "chromium chromium-headless-shell), or set VDX_CHROMIUM "
                   "or opts.executable", headless ? "chromium-headless-shell, " : "");
  return NULL;
}

/*
 * Checks the options table at 1 (made when absent) against known and
 * finds the browser its executable and headless name.  stack: opts ->
 * opts, headless, executable[, path]; returns the path (at the top).
 */
static const char *checked_browser(lua_State *L, const char *const *known) {
  if (lua_isnoneornil(L, 1)) { lua_settop(L, 0); lua_newtable(L); }
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  vdx__check_opts(L, 1, known);
  vdx__opt_type(L, 1, "headless", LUA_TBOOLEAN);
  vdx__opt_type(L, 1, "executable", LUA_TSTRING);
  lua_getfield(L, 1, "headless");
  int headless = lua_isnil(L, -1) || lua_toboolean(L, -1);
  lua_getfield(L, 1, "executable");
  return find_browser(L, luaL_optstring(L, -1, NULL), headless);
}

/*
 * vdx.find_browser([opts]) -> path of the Chromium vdx.launch(opts) would
 * start, or raises BrowserNotFound.  opts: executable, headless (true).
 * Lets a program check the browser when it starts, before any launch.
 */
int vdx__find_browser(lua_State *L) {
  static const char *const known[] = {"executable", "headless", NULL};
  lua_pushstring(L, checked_browser(L, known));
  return 1;
}

/*
 * Where a temporary profile goes: $TMPDIR when set; else /dev/shm when it
 * is a memory file system with at least 1 GiB free, since Chromium syncs
 * its profile's databases to disk about 200 times in a short run (each a
 * wait on a busy disk, nothing on memory) and the profile is deleted at
 * the end anyway; else /tmp.
 */
static const char *profile_parent(void) {
  const char *env = getenv("TMPDIR");
  struct statfs fs;
  if (env && *env) return env;
  if (statfs("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
      (unsigned long long)fs.f_bavail * (unsigned long long)fs.f_bsize >= (1ull << 30) &&
      access("/dev/shm", W_OK | X_OK) == 0)
    return "/dev/shm";
  return "/tmp";
}

/* Pushes a table of strings: argv for the browser. */
static void build_argv(lua_State *L, int opts, const char *exe,
                       const char *dir, int port, int headless) {
  int n = 0;
  lua_newtable(L);
  int t = lua_gettop(L);
#define ADD(s) (lua_pushstring(L, (s)), lua_rawseti(L, t, ++n))
  ADD(exe);
  if (headless) ADD("--headless");
  if (geteuid() == 0) ADD("--no-sandbox");
  int features = 0; /* the slot of vdx's own --disable-features */
  for (int i = 0; default_flags[i]; i++) {
    if (strncmp(default_flags[i], DISABLE_FEATURES, strlen(DISABLE_FEATURES)) == 0) features = n + 1;
    ADD(default_flags[i]);
  }
  lua_pushfstring(L, "--user-data-dir=%s", dir);
  lua_rawseti(L, t, ++n);
  if (port >= 0) {
    lua_pushfstring(L, "--remote-debugging-port=%d", port);
    lua_rawseti(L, t, ++n);
    ADD("--remote-debugging-address=127.0.0.1");
  } else {
    ADD("--remote-debugging-pipe");
  }
  lua_getfield(L, opts, "args");
  if (!lua_isnil(L, -1)) {
    luaL_argcheck(L, lua_istable(L, -1), 1, "opts.args must be a list of strings");
    lua_Integer m = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= m; i++) {
      lua_rawgeti(L, -1, i);
      if (!lua_isstring(L, -1))
        vdx__misuse(L, "opts.args[%d] must be a string", (int)i);
      const char *a = lua_tostring(L, -1);
      /* Chromium takes a word that is no switch for a page to open, beside
       * vdx's about:blank, and exits "Multiple targets are not supported"
       * (an empty string from an unset variable did it). */
      if (a[0] != '-')
        vdx__misuse(L, "opts.args[%d] is \"%s\", which is no switch: Chromium would take it for a page to "
                       "open; give switches only (\"--name=value\"), and open pages with page:navigate",
                    (int)i, a);
      if (features && strncmp(a, DISABLE_FEATURES, strlen(DISABLE_FEATURES)) == 0) {
        /* Chromium keeps only the last --disable-features: a user's list
         * joins vdx's instead of silently replacing it. */
        lua_rawgeti(L, t, features);
        lua_pushliteral(L, ",");
        lua_pushstring(L, a + strlen(DISABLE_FEATURES));
        lua_concat(L, 3);
        lua_rawseti(L, t, features);
        lua_pop(L, 1);
        continue;
      }
      lua_rawseti(L, t, ++n);
    }
  }
  lua_pop(L, 1);
  ADD("about:blank");
#undef ADD
}

/* Pushes a table of "K=V" strings: the environment with opts.env applied. */
static void build_env(lua_State *L, int opts) {
  lua_getfield(L, opts, "env");
  int env = lua_gettop(L);
  lua_newtable(L);
  int t = lua_gettop(L), n = 0;
  for (char **e = environ; *e; e++) {
    const char *eq = strchr(*e, '=');
    if (eq && lua_istable(L, env)) {
      lua_pushlstring(L, *e, (size_t)(eq - *e));
      lua_rawget(L, env);
      int overridden = !lua_isnil(L, -1);
      lua_pop(L, 1);
      if (overridden) continue;
    }
    lua_pushstring(L, *e);
    lua_rawseti(L, t, ++n);
  }
  if (lua_istable(L, env)) {
    lua_pushnil(L);
    while (lua_next(L, env)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_isstring(L, -1))
        vdx__misuse(L, "opts.env must map names to strings");
      lua_pushfstring(L, "%s=%s", lua_tostring(L, -2), lua_tostring(L, -1));
      lua_rawseti(L, t, ++n);
      lua_pop(L, 1);
    }
  }
  lua_remove(L, env);
}

/* Turns the list of strings at idx into a NULL-terminated char* array that
 * points into the strings (which must stay on the stack). */
static char **to_array(lua_State *L, int idx) {
  lua_Integer n = luaL_len(L, idx);
  char **a = lua_newuserdatauv(L, sizeof(char *) * (size_t)(n + 1), 0);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    a[i - 1] = (char *)lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  a[n] = NULL;
  return a;
}

/* ------------------------------------------------------------ launch */

/* stack: browser, timeout -> the browser's version table. */
static int get_version(lua_State *L) {
  vdx_browser *b = vdx__check_browser(L, 1);
  vdx_waiter *w = vdx__conn_call(L, b->conn, NULL, "Browser.getVersion", 0,
                                 (int)lua_tointeger(L, 2));
  if (w == NULL) return lua_error(L);
  return vdx__await(L, w, 0, vdx__k_value);
}

/*
 * Pushes the lines of Chromium's stderr that say why it stopped: its
 * ERROR and FATAL lines without their "[pid:tid:time:ERROR:file:line] "
 * prefix, the D-Bus noise left out, at most three, joined by "; "; or the
 * last 300 bytes when there is no such line.
 */
static void push_reason(lua_State *L, const char *err) {
  luaL_Buffer B;
  int lines = 0;
  luaL_buffinit(L, &B);
  for (const char *at = err; *at && lines < 3;) {
    const char *end = strchr(at, '\n');
    size_t len = end ? (size_t)(end - at) : strlen(at);
    const char *close = memchr(at, ']', len);
    int severe = close && (memmem(at, len, ":ERROR:", 7) || memmem(at, len, ":FATAL:", 7));
    if (severe && !memmem(at, len, "dbus", 4)) {
      const char *text = close + 1;
      while (text < at + len && *text == ' ') text++;
      if (lines++) luaL_addstring(&B, "; ");
      luaL_addlstring(&B, text, (size_t)(at + len - text));
    }
    at += len + (end ? 1 : 0);
  }
  if (lines == 0) {
    size_t n = strlen(err);
    luaL_addstring(&B, n > 300 ? err + n - 300 : err);
  }
  luaL_pushresult(&B);
}

/* True when the error at the top of L is the caller's, not the browser's:
 * the call was made where it cannot wait (a plain coroutine, a host's
 * loop inside vdxlua), so it is raised as it is, not as LaunchFailed. */
static int callers_mistake(lua_State *L) {
  if (lua_type(L, -1) != LUA_TTABLE) return 0;
  lua_getfield(L, -1, "type");
  const char *type = lua_tostring(L, -1);
  int mine = type && (strcmp(type, "InvalidArgument") == 0 ||
                      strcmp(type, "NoHostAdapter") == 0);
  lua_pop(L, 1);
  return mine;
}

/*
 * After Browser.getVersion, run under lua_pcallk.  A browser that went
 * away before answering did not start: the error becomes LaunchFailed with
 * the tail of its stderr (the real reason: no display for a headed
 * browser, a bad flag, a missing library).
 * stack: opts, guard, browser, version | error -> browser
 */
static int launch_k(lua_State *L, int status, lua_KContext ctx) {
  (void)ctx;
  if (status == LUA_OK || status == LUA_YIELD) {
    lua_pop(L, 1);        /* the version table */
    return 1;             /* the browser below it */
  }
  if (callers_mistake(L)) return lua_error(L);
  vdx_browser *b = vdx__check_browser(L, 3);
  const char *err = b->proc ? vdx__proc_stderr(b->proc) : "";
  size_t n = strlen(err);
  const char *tail = n > 1500 ? err + n - 1500 : err;
  push_reason(L, tail);
  vdx__error_push(L, "LaunchFailed", "the browser did not start: %s",
                  *tail ? lua_tostring(L, -1) : "it wrote nothing on stderr");
  lua_pushstring(L, tail);
  lua_setfield(L, -2, "stderr");
  return lua_error(L);
}

/* Stderr watcher for port mode: resolves the waiter with the ws:// URL. */
static void port_stderr(void *data, const char *tail) {
  vdx_waiter *w = data;
  const char *at = strstr(tail, "DevTools listening on ");
  if (at == NULL || vdx__waiter_done(w)) return;
  at += strlen("DevTools listening on ");
  const char *end = strpbrk(at, "\r\n");
  if (end == NULL) return;
  lua_State *L = vdx__main_state(vdx__waiter_loop(w));
  lua_pushlstring(L, at, (size_t)(end - at));
  vdx__waiter_resolve(w, L);
}

int vdx__connect_ws(lua_State *L, const char *url, const vdx_ws_opts *wo,
                    int timeout, int guard_idx);

static int port_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  /* stack: opts, guard, url */
  guard *g = luaL_checkudata(L, 2, GUARD_MT);
  g->proc->on_stderr = NULL;
  return vdx__connect_ws(L, lua_tostring(L, -1), NULL, (int)ctx, 2);
}

/*
 * vdx.launch([opts]) -> vdx.Browser.
 * opts: headless (true), args (extra flags), env (table), executable,
 * timeout_ms (default per call, 30000), port (nil: pipe; 0: any free port),
 * user_data_dir (kept; default a fresh temporary one removed at close),
 * echo_stderr (copy the browser's stderr to ours).
 */
int vdx__launch(lua_State *L) {
  static const char *const known[] = {"headless", "args", "env", "executable",
    "timeout_ms", "port", "user_data_dir", "echo_stderr", NULL};
  char dir[256], err[512];
  uv_pipe_t *to = NULL, *from = NULL;
  if (lua_isnoneornil(L, 1)) { lua_settop(L, 0); lua_newtable(L); }
  luaL_checktype(L, 1, LUA_TTABLE);
  vdx__opt_type(L, 1, "echo_stderr", LUA_TBOOLEAN);
  vdx__opt_type(L, 1, "args", LUA_TTABLE);
  vdx__opt_type(L, 1, "env", LUA_TTABLE);
  vdx__opt_type(L, 1, "user_data_dir", LUA_TSTRING);
  int timeout = (int)vdx__opt_int(L, 1, "timeout_ms", VDX_DEFAULT_TIMEOUT_MS);
  int port = (int)vdx__opt_int(L, 1, "port", -1);
  const char *exe = checked_browser(L, known);
  int headless = lua_isnil(L, 2) || lua_toboolean(L, 2);
  int exe_idx = lua_gettop(L);
  lua_getfield(L, 1, "user_data_dir");
  int owns = lua_isnil(L, -1);
  if (owns) {
    snprintf(dir, sizeof dir, "%s/vdx-chromium-XXXXXX", profile_parent());
    if (mkdtemp(dir) == NULL)
      return vdx__error_raise(L, "LaunchFailed", "cannot create a profile "
                              "directory under %s", dir);
  } else {
    snprintf(dir, sizeof dir, "%s", luaL_checkstring(L, -1));
  }
  lua_getfield(L, 1, "echo_stderr");
  int echo = lua_toboolean(L, -1);
  build_argv(L, 1, exe, dir, port, headless);
  build_env(L, 1);
  vdx_proc_opts po = {0};
  po.argv = to_array(L, exe_idx + 3);
  po.env = to_array(L, exe_idx + 4);
  po.user_data_dir = dir;
  po.owns_dir = owns;
  po.use_pipe = port < 0;
  po.echo_stderr = echo;
  vdx_loop *lp = vdx__loop(L);
  vdx__trace("spawning the browser");
  vdx_proc *proc = vdx__proc_spawn(vdx__uv_of(lp), &po, &to, &from, err,
                                   sizeof err);
  vdx__trace("browser spawned");
  if (proc == NULL) return vdx__error_raise(L, "LaunchFailed", "%s", err);
  vdx__proc_adopt(proc, lp);
  lua_settop(L, 1);
  guard *g = lua_newuserdatauv(L, sizeof *g, 0);
  g->proc = proc;
  if (luaL_newmetatable(L, GUARD_MT)) {
    lua_pushcfunction(L, guard_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  if (port >= 0) {
    vdx_waiter *w = vdx__waiter_new(lp, timeout, "waiting for the browser's "
                                    "DevTools port");
    proc->cb_data = w;
    proc->on_stderr = port_stderr;
    return vdx__await(L, w, timeout, port_k);
  }
  vdx_transport *t = vdx__pipe_transport(vdx__uv_of(lp), to, from);
  vdx_conn *c = t ? vdx__conn_new(L, t, timeout) : NULL;
  if (c == NULL) return luaL_error(L, "out of memory");
  g->proc = NULL;
  vdx__browser_push(L, c, proc, timeout);   /* stack: opts, guard, browser */
  lua_pushcfunction(L, get_version);
  lua_pushvalue(L, 3);
  lua_pushinteger(L, timeout);
  return launch_k(L, lua_pcallk(L, 2, 1, 0, 0, launch_k), 0);
}
