/*
 * navigate.c -- page:navigate(), back(), forward(), reload() and the
 * navigation primitives of the actions: mark(), settle() and
 * since().
 *
 * Every navigation waits on the page's one tracker (nav.c), bounded by
 * timeout_ms; "networkidle" is the load event followed by 500 ms in which
 * no request starts or ends, so a connection that stays open (server-sent
 * events, a long poll) does not hold it up.  page:wait_for is Lua's
 * (lua/vdx/wait.lua), over the bridge and the page's navigation events.
 */
#include <stdlib.h>
#include <string.h>

#include "vdx.h"
#include "objects.h"
#include "events.h"
#include "nav.h"
#include "task.h"

static int goto_k(lua_State *L, int status, lua_KContext ctx);

/* The page's url, title and status are read by the bridge (pageInfo in
 * bridge/src/loaded.js).  The status comes from Network.responseReceived,
 * which the browser process sends and which need not arrive before the
 * renderer's load event; the document's own navigation timing entry
 * stands in. */

/* The early read: the bridge of the new document's vdx world hands url,
 * title and status over as the page is shown after load, through the
 * binding VDX_LOADED_BINDING (bridge/src/loaded.js; nav.c keeps it), so no
 * command has to reach the renderer after load: one sent then waits
 * behind the page's first frame (tens of milliseconds on a big page).
 * How long it may still take once the load event is in: a bridge that
 * could not listen (injected after load, or a page that broke in) keeps it
 * from coming, and the plain read after load stands in. */
#define EARLY_GRACE_MS 100

/* The early read's waiter as goto awaits it: resolves with true when the
 * read came (vdx__nav_push_read has it), or with false when the document
 * was replaced (the load wait then says why), when the load wait failed,
 * or when the read has not come EARLY_GRACE_MS after the load; never
 * rejects but by its timeout. */
typedef struct early {
  vdx_waiter *out;       /* NULL once goto's waiter completed */
  /* The waits still under way, each NULL once its callback ran. */
  vdx_waiter *read, *load, *grace;
  int busy;              /* in one of its callbacks, which releases e last */
} early;

static void early_release(early *e) {
  if (!e->busy && e->out == NULL && !e->read && !e->load && !e->grace) free(e);
}

/* goto has its answer: the waits still under way are let go (each frees
 * itself when it ends, calling nothing), so e goes now, not when the last
 * of them ends, which may be after the host's exit. */
static void early_out_done(vdx_waiter *w, void *data) {
  early *e = data;
  (void)w;
  e->out = NULL;
  vdx_waiter **slots[] = {&e->read, &e->load, &e->grace};
  for (size_t i = 0; i < sizeof slots / sizeof *slots; i++) {
    if (*slots[i]) {
      vdx__waiter_then(*slots[i], NULL, NULL);
      vdx__waiter_abandon(*slots[i]);
      *slots[i] = NULL;
    }
  }
  early_release(e);
}

/* Resolves out with the value at index 1 (ok) or false. */
static void early_settle(early *e, lua_State *L, int ok) {
  if (ok) lua_pushvalue(L, 1); else lua_pushboolean(L, 0);
  vdx__waiter_resolve(e->out, L);        /* early_out_done clears out */
}

static void early_came(void *data, lua_State *L, int ok) {
  early *e = data;
  e->read = NULL;
  e->busy = 1;
  if (e->out) early_settle(e, L, ok);
  e->busy = 0;
  early_release(e);
}

static void early_grace(void *data, lua_State *L, int ok) {
  early *e = data;
  (void)ok;
  e->grace = NULL;
  e->busy = 1;
  if (e->out) early_settle(e, L, 0);
  e->busy = 0;
  early_release(e);
}

static void early_loaded(void *data, lua_State *L, int ok) {
  early *e = data;
  e->load = NULL;
  e->busy = 1;
  if (e->out && !ok) {
    early_settle(e, L, 0);
  } else if (e->out) {
    e->grace = vdx__waiter_sleep(vdx__waiter_loop(e->out), EARLY_GRACE_MS);
    vdx__waiter_then(e->grace, early_grace, e);
  }
  e->busy = 0;
  early_release(e);
}

/* Waits for the early read of loader's document (and watches for its
 * load); NULL when out of memory, and the caller waits for load instead. */
static vdx_waiter *early_read(lua_State *L, vdx_page *p, const char *loader, int left) {
  early *e = calloc(1, sizeof *e);
  if (e == NULL) return NULL;
  e->out = vdx__waiter_new(p->b->lp, left, "navigation");
  vdx_waiter *out = e->out;
  vdx__waiter_on_done(out, early_out_done, e);
  vdx_waiter *read = vdx__nav_wait_loader(L, p, loader, VDX_LIFE_READ, left);
  if (vdx__waiter_done(read)) {          /* came, or replaced, already */
    vdx__waiter_abandon(read);
    lua_pushboolean(L, 0);               /* the plain read tells which */
    vdx__waiter_resolve(out, L);         /* early_out_done frees e */
    return out;
  }
  e->read = read;
  vdx__waiter_then(read, early_came, e);
  vdx_waiter *load = vdx__nav_wait_loader(L, p, loader, VDX_LIFE_LOAD, left);
  if (!vdx__waiter_done(load)) {
    e->load = load;
    vdx__waiter_then(load, early_loaded, e);
  } else {                               /* loaded (or replaced) already */
    vdx__waiter_abandon(load);
    e->grace = vdx__waiter_sleep(p->b->lp, EARLY_GRACE_MS);
    vdx__waiter_then(e->grace, early_grace, e);
  }
  return out;
}

/* Reads url, title and status in the main frame's vdx world (the bridge's
 * pageInfo, where the page's own overrides do not reach), then goes on at
 * goto_k's step 3 (after load, when the early read did not come). */
static int goto_evaluate(lua_State *L, vdx_page *p, int left) {
  lua_settop(L, 5);
  lua_newtable(L);
  vdx_waiter *w = vdx__bridge_call(L, p, p->frame_id, "pageInfo", -1, left);
  if (w == NULL) return luaL_error(L, "out of memory");
  lua_settop(L, 5);
  return vdx__await(L, w, 3, goto_k);
}

/* stack during goto: page, url, opts, flag, deadline, [result]
 * ctx 0: Page.navigate answered; 1: loaded; 3: the in-page read of url,
 * title and status (goto_evaluate).  For wait_until = "load" the read
 * comes early instead: stack page, url, opts, flag, deadline, loader,
 * [...]; ctx 5: the early read came (true) or not (false), 6: loaded, with
 * the early read's {url=, title=, status=} at 7. */
static int goto_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  vdx_page *p = vdx__check_page(L, 1);
  vdx_loop *lp = p->b->lp;
  int flag = (int)lua_tointeger(L, 4);
  int64_t deadline = (int64_t)lua_tointeger(L, 5);
  int left = (int)(deadline - (int64_t)uv_now(vdx__uv_of(lp)));
  if (left < 1) left = 1;
  if (ctx == 0) {                           /* Page.navigate answered */
    lua_getfield(L, 6, "errorText");
    if (lua_isstring(L, -1) && *lua_tostring(L, -1)) {
      vdx__error_push(L, "NavigationFailed", "navigating to %s failed: %s",
                      lua_tostring(L, 2), lua_tostring(L, -1));
      lua_pushvalue(L, 2);
      lua_setfield(L, -2, "url");
      lua_pushvalue(L, -2);
      lua_setfield(L, -2, "reason");
      return lua_error(L);
    }
    lua_getfield(L, 6, "loaderId");
    const char *loader = lua_tostring(L, -1);
    if (loader && flag == VDX_LIFE_LOAD) {
      lua_replace(L, 6);                   /* stack: ..., deadline, loader */
      lua_settop(L, 6);
      vdx_waiter *w = early_read(L, p, lua_tostring(L, 6), left);
      if (w) return vdx__await(L, w, 5, goto_k);
      ctx = 5;                             /* no memory: read after load */
      lua_pushboolean(L, 0);
    } else if (loader) {
      /* For commit too: the read must be of the new document, whose world
       * comes after its commit (the bridge call waits for it). */
      vdx_waiter *w = vdx__nav_wait_loader(L, p, loader, flag, left);
      lua_settop(L, 5);
      return vdx__await(L, w, 1, goto_k);
    }
  }
  if (ctx == 5 || ctx == 6) {
    if (ctx == 5) {                        /* the early read came, or not */
      int came = lua_toboolean(L, 7);
      lua_settop(L, 6);
      if (came) vdx__nav_push_read(L, p);
      int usable = came && lua_istable(L, 7);
      if (!usable) lua_settop(L, 6);
      vdx_waiter *w = vdx__nav_wait_loader(L, p, lua_tostring(L, 6), VDX_LIFE_LOAD, left);
      if (!usable) {
        lua_settop(L, 5);
        return vdx__await(L, w, 1, goto_k);
      }
      return vdx__await(L, w, 6, goto_k);
    }
    lua_settop(L, 7);                      /* loaded: the early read stands */
  }            /* ctx 3: the plain read's {url=, title=, status=} on top */
  if (ctx <= 1) {
    /* Committed or loaded (another wait_until, or the early read could not
     * stand): url, title and status read in the page.  The
     * browser's navigation history answers sooner, but its title lags a
     * title the page sets in its load handler, so it is not used here. */
    return goto_evaluate(L, p, left);
  }
  if (!lua_istable(L, -1)) { lua_pop(L, 1); lua_newtable(L); }
  if (vdx__nav_status(L, p)) {
    lua_pushinteger(L, vdx__nav_status(L, p));
    lua_setfield(L, -2, "status");
  } else if (lua_getfield(L, -1, "status") != LUA_TNUMBER || lua_tointeger(L, -1) <= 0) {
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setfield(L, -2, "status");         /* none: about:blank, data: … */
  } else {
    lua_Integer st = lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_pushinteger(L, st);
    lua_setfield(L, -2, "status");
  }
  return 1;
}

/*
 * page:navigate(url [, {wait_until=, timeout_ms=, referer=}]) ->
 * { url=, status=, title= }.  wait_until is "load" by default; also
 * "commit", "domcontentloaded" and "networkidle".  Fails with
 * NavigationFailed (DNS, refused, aborted…) or Timeout.
 */
static int page_goto(lua_State *L) {
  static const char *const known[] = {"wait_until", "timeout_ms", "referer",
                                      NULL};
  vdx_page *p = vdx__check_navigable_page(L, 1);
  if (lua_type(L, 2) != LUA_TSTRING) luaL_argerror(L, 2, "url must be a string");
  vdx__check_opts(L, 3, known);
  lua_settop(L, 3);
  int timeout = (int)vdx__opt_int(L, 3, "timeout_ms",
                                  vdx__conn_default_timeout(vdx__browser_conn(L, p->b)));
  const char *wu = "load";
  if (lua_istable(L, 3)) {
    lua_getfield(L, 3, "wait_until");
    if (!lua_isnil(L, -1)) wu = luaL_checkstring(L, -1);
  }
  int flag = vdx__nav_flag(L, wu);
  lua_settop(L, 3);
  lua_pushinteger(L, flag);
  uv_update_time(vdx__uv_of(p->b->lp));
  lua_pushinteger(L, (lua_Integer)uv_now(vdx__uv_of(p->b->lp)) + timeout);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, "url");
  if (lua_istable(L, 3)) {
    lua_getfield(L, 3, "referer");
    lua_setfield(L, -2, "referrer");
  }
  vdx_waiter *w = vdx__conn_call(L, vdx__browser_conn(L, p->b), p->session_id,
                                 "Page.navigate", -1, timeout);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 5);
  return vdx__await(L, w, 0, goto_k);
}


/* The wait_until option of the table at opts ("load" by default). */
static int wait_flag(lua_State *L, int opts) {
  const char *s = "load";
  if (lua_istable(L, opts)) {
    lua_getfield(L, opts, "wait_until");
    if (!lua_isnil(L, -1)) s = luaL_checkstring(L, -1);
    lua_pop(L, 1);
  }
  return vdx__nav_flag(L, s);
}

static int left_ms(lua_State *L, vdx_page *p) {
  lua_getfield(L, 3, "deadline");
  lua_Integer left = lua_tointeger(L, -1) - (lua_Integer)uv_now(vdx__uv_of(p->b->lp));
  lua_pop(L, 1);
  return left < 1 ? 1 : (int)left;
}

static lua_Integer field_int(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  lua_Integer v = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v;
}

/* stack: page, opts, state {flag, deadline, base, delta}, [value] */
static int nav_k(lua_State *L, int status, lua_KContext step) {
  (void)status;
  vdx_page *p = vdx__check_page(L, 1);
  vdx_conn *c = vdx__browser_conn(L, p->b);
  vdx_waiter *w;
  if (step == 0) {                         /* history read: go to the entry */
    lua_Integer delta = field_int(L, 3, "delta");
    lua_Integer at = field_int(L, 4, "currentIndex") + delta;
    lua_getfield(L, 4, "entries");
    if (at < 0 || at >= (lua_Integer)luaL_len(L, -1))
      return vdx__error_raise(L, "NavigationFailed", "there is no %s page in "
                              "this tab's history", delta < 0 ? "previous" : "next");
    lua_rawgeti(L, -1, at + 1);
    lua_createtable(L, 0, 1);
    lua_getfield(L, -2, "id");
    lua_setfield(L, -2, "entryId");
    lua_pushinteger(L, vdx__nav_seq(L, p));
    lua_setfield(L, 3, "base");
    w = vdx__conn_call(L, c, p->session_id, "Page.navigateToHistoryEntry", -1,
                       left_ms(L, p));
    if (w == NULL) return lua_error(L);
    lua_settop(L, 3);
    return vdx__await(L, w, 1, nav_k);
  }
  if (step == 1) {                         /* sent: wait for it to load */
    lua_settop(L, 3);
    w = vdx__nav_wait_seq(L, p, field_int(L, 3, "base"),
                             (int)field_int(L, 3, "flag"), left_ms(L, p));
    return vdx__await(L, w, 2, nav_k);
  }
  lua_settop(L, 3);
  lua_createtable(L, 0, 2);
  lua_pushstring(L, vdx__nav_url(L, p));
  lua_setfield(L, -2, "url");
  if (vdx__nav_status(L, p)) {
    lua_pushinteger(L, vdx__nav_status(L, p));
    lua_setfield(L, -2, "status");
  }
  return 1;
}

static int nav_start(lua_State *L, int delta) {
  static const char *const known[] = {"wait_until", "timeout_ms", NULL};
  vdx_page *p = vdx__check_navigable_page(L, 1);
  vdx_conn *c = vdx__browser_conn(L, p->b);
  vdx__check_opts(L, 2, known);
  lua_settop(L, 2);
  int timeout = (int)vdx__opt_int(L, 2, "timeout_ms", vdx__conn_default_timeout(c));
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, wait_flag(L, 2));
  lua_setfield(L, 3, "flag");
  uv_update_time(vdx__uv_of(p->b->lp));
  lua_pushinteger(L, (lua_Integer)uv_now(vdx__uv_of(p->b->lp)) + timeout);
  lua_setfield(L, 3, "deadline");
  lua_pushinteger(L, delta);
  lua_setfield(L, 3, "delta");
  vdx_waiter *w;
  if (delta == 0) {
    lua_pushinteger(L, vdx__nav_seq(L, p));
    lua_setfield(L, 3, "base");
    w = vdx__conn_call(L, c, p->session_id, "Page.reload", 0, timeout);
    if (w == NULL) return lua_error(L);
    return vdx__await(L, w, 1, nav_k);
  }
  w = vdx__conn_call(L, c, p->session_id, "Page.getNavigationHistory", 0, timeout);
  if (w == NULL) return lua_error(L);
  return vdx__await(L, w, 0, nav_k);
}

/* page:back{ wait_until = "load", timeout_ms = } -> { url=, status= }:
 * the previous entry of the tab's history (NavigationFailed if none).
 * wait_until is commit, domcontentloaded, load or networkidle. */
static int page_back(lua_State *L) { return nav_start(L, -1); }

/* page:forward{ wait_until=, timeout_ms= } -> { url=, status= }. */
static int page_forward(lua_State *L) { return nav_start(L, 1); }

/* page:reload{ wait_until=, timeout_ms= } -> { url=, status= }. */
static int page_reload(lua_State *L) { return nav_start(L, 0); }

/* ----------------------------------------------- mark, settle, since */

/* page:mark() -> mark: the page's counters now (navigations, console
 * errors, dialogs, popups, downloads, and requests: the seq of the last
 * of page:requests()), to hand to settle() and since() after an action. */
static int page_mark(lua_State *L) {
  vdx_page *p = vdx__check_open_page(L, 1);
  vdx__events_mark(L, p);
  vdx__nav_mark(L, p, -1);
  return 1;
}

/* stack: page, mark, opts, deadline, [value] */
static int settle_k(lua_State *L, int status, lua_KContext step) {
  (void)status;
  vdx_page *p = vdx__check_page(L, 1);
  if (step == 1 && !p->closed) {           /* the page's events are in */
    lua_Integer left = lua_tointeger(L, 4) - (lua_Integer)uv_now(vdx__uv_of(p->b->lp));
    lua_settop(L, 4);
    vdx_waiter *w = vdx__nav_settle(L, p, 2, left < 1 ? 1 : (int)left);
    if (w) return vdx__await(L, w, 2, settle_k);
  }
  lua_pushboolean(L, 1);
  return 1;
}

/*
 * page:settle(mark [, {timeout_ms=}]) -> true.  Lets a main-frame
 * navigation that started after the mark commit and load, or be
 * abandoned, bounded by timeout_ms; returns at once when none started.
 * On a page the action closed it returns at once too.
 */
static int page_settle(lua_State *L) {
  static const char *const known[] = {"timeout_ms", NULL};
  vdx_page *p = vdx__check_page(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  vdx__check_opts(L, 3, known);
  lua_settop(L, 3);
  if (p->closed) { lua_pushboolean(L, 1); return 1; }
  vdx_conn *c = vdx__browser_conn(L, p->b);
  int timeout = (int)vdx__opt_int(L, 3, "timeout_ms", vdx__conn_default_timeout(c));
  uv_update_time(vdx__uv_of(p->b->lp));
  lua_pushinteger(L, (lua_Integer)uv_now(vdx__uv_of(p->b->lp)) + timeout);
  /* A round trip first, so the events the action caused are in: one that
   * needs no execution context, so a navigation that replaces the
   * document under it cannot fail it. */
  lua_newtable(L);
  vdx_waiter *w = vdx__conn_call(L, c, p->session_id, "Page.getFrameTree", -1,
                                 timeout);
  if (w == NULL) return lua_error(L);
  lua_settop(L, 4);
  return vdx__await(L, w, 1, settle_k);
}

/* page:since(mark) -> { navigation = {url=, status=, same_document=},
 * popups=, dialogs=, downloads= (each when there is one), console_errors
 * = n }: what happened since the mark.  Works on a page closed since. */
static int page_since(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  if (p->b == NULL) return vdx__error_raise(L, "PageClosed", "the page is closed (%s)", p->close_reason);
  lua_newtable(L);
  vdx__nav_since(L, p, 2, -1);
  vdx__events_since(L, p, 2, -1);
  return 1;
}

/* page:url() -> the URL of the main frame's document as the page's own
 * events last told it (a document committed, or a same-document move: a
 * hash, the History API), with no call to the page; nil before the first
 * such event this page saw (a tab found open when vdx attached).  Works
 * on a page closed since: its last URL. */
static int page_url(lua_State *L) {
  vdx_page *p = vdx__check_page(L, 1);
  const char *u = p->nav ? vdx__nav_url(L, p) : NULL;
  if (u && *u) lua_pushstring(L, u);
  else lua_pushnil(L);
  return 1;
}

void vdx__nav_methods(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"url", page_url},
    {"navigate", page_goto},
    {"back", page_back},
    {"forward", page_forward},
    {"reload", page_reload},
    {"mark", page_mark},
    {"settle", page_settle},
    {"since", page_since},
    {NULL, NULL}};
  luaL_setfuncs(L, methods, 0);
}
