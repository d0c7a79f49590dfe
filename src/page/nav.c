/*
 * nav.c -- the navigation tracker of a page: one state machine, fed by the
 * main session's events, that navigate(), back(), forward(), reload() and
 * the settle after an action all wait on.
 *
 * The tracker knows the committed main document (its loaderId, how far it
 * loaded, its HTTP status and URL) and counts main-frame navigations.
 * Events name the loader they are about, and only the committed loader's
 * lifecycle events move it on: a late event of a document that was
 * already replaced (its networkIdle, say) is dropped, and events of a
 * document that has not committed yet are kept aside until it does.  A
 * navigation is "replaced" only when another document commits after it
 * started.
 */
#include <stdlib.h>
#include <string.h>

#include "nav.h"
#include "task.h"

#define QUIET_MS 500
#define MAX_WAITS 16

enum { W_LOADER, W_SEQ, W_SOFT };

typedef struct navwait {
  int kind;
  char loader[64];        /* W_LOADER: the document waited for */
  int replaced;           /* W_LOADER: another document committed since */
  lua_Integer base;       /* W_SEQ, W_SOFT: navigation number base + 1 or later */
  lua_Integer stopped;    /* W_SOFT: frameStoppedLoading count at the mark */
  int flag;
  vdx_waiter *w;
} navwait;

typedef struct nav {
  vdx_page *p;
  vdx_loop *lp;
  char loader[64];        /* the committed main document */
  char gone[64];          /* the one it replaced: a wait for it fails at once */
  int life, status;
  char next_loader[64];   /* a document seen before its commit */
  int next_life, next_status;
  lua_Integer seq, requested, stopped;
  int same_doc;
  char *url;
  char *read;             /* the committed document's load read, JSON */
  uint64_t last_net;
  vdx_waiter *quiet;
  navwait waits[MAX_WAITS];
  int nwaits;
} nav;

static void settle(lua_State *L, nav *n);

/* ------------------------------------------------------------ state */

static nav *nav_of(lua_State *L, vdx_page *p) {
  if (p->nav) return p->nav;
  nav *n = calloc(1, sizeof *n);
  if (n == NULL || (n->url = strdup("")) == NULL) {
    free(n);
    luaL_error(L, "out of memory");
  }
  n->p = p;
  n->lp = p->b->lp;
  p->nav = n;
  return n;
}

static void wait_removed(vdx_waiter *w, void *data) {
  nav *n = data;
  for (int i = 0; i < n->nwaits; i++)
    if (n->waits[i].w == w) {
      n->waits[i] = n->waits[--n->nwaits];
      return;
    }
}

void vdx__nav_free(vdx_page *p) {
  nav *n = p->nav;
  if (n == NULL) return;
  p->nav = NULL;
  int closed = vdx__loop_closed(n->lp);
  for (int i = 0; i < n->nwaits; i++)
    if (!closed) vdx__waiter_on_done(n->waits[i].w, NULL, NULL);
  if (n->quiet && !closed) {
    vdx__waiter_then(n->quiet, NULL, NULL);
    vdx__waiter_abandon(n->quiet);
  }
  free(n->url);
  free(n->read);
  free(n);
}

void vdx__nav_fail(lua_State *L, vdx_page *p, const char *type, const char *msg) {
  nav *n = p->nav;
  while (n && n->nwaits > 0) {
    vdx_waiter *w = n->waits[0].w;          /* wait_removed edits the array */
    vdx__error_push(L, type, "%s", msg);
    vdx__waiter_reject(w, L);
  }
}

/* ----------------------------------------------------------- events */

static int life_bit(const char *name) {
  if (strcmp(name, "commit") == 0) return VDX_LIFE_COMMIT;
  if (strcmp(name, "DOMContentLoaded") == 0) return VDX_LIFE_DCL;
  if (strcmp(name, "load") == 0) return VDX_LIFE_LOAD;
  return 0;
}

static const char *str_field(lua_State *L, int t, const char *k) {
  lua_getfield(L, t, k);
  const char *s = lua_tostring(L, -1);
  lua_pop(L, 1);                 /* the string stays alive in the table */
  return s ? s : "";
}

static int is_main(lua_State *L, nav *n, int params) {
  return strcmp(str_field(L, params, "frameId"), n->p->frame_id) == 0;
}

static void set_url(nav *n, const char *url) {
  char *u = strdup(url ? url : "");
  if (u) { free(n->url); n->url = u; }
}

/* What is known of a loader that has not committed: its lifecycle and
 * status, kept for when it does. */
static void note_next(nav *n, const char *loader, int life, int status) {
  if (strcmp(loader, n->next_loader) != 0) {
    snprintf(n->next_loader, sizeof n->next_loader, "%s", loader);
    n->next_life = n->next_status = 0;
  }
  n->next_life |= life;
  if (status) n->next_status = status;
}

/* Page.frameNavigated of the main frame: a new document commits. */
static void on_commit(lua_State *L, nav *n, int params, int frame) {
  const char *loader = str_field(L, frame, "loaderId");
  if (strcmp(loader, n->loader) != 0) {
    int pending = strcmp(loader, n->next_loader) == 0;
    memcpy(n->gone, n->loader, sizeof n->gone);
    snprintf(n->loader, sizeof n->loader, "%s", loader);
    n->life = pending ? n->next_life : 0;
    n->status = pending ? n->next_status : 0;
    n->next_loader[0] = '\0';
    free(n->read);
    n->read = NULL;
    for (int i = 0; i < n->nwaits; i++)
      if (n->waits[i].kind == W_LOADER && strcmp(n->waits[i].loader, loader) != 0)
        n->waits[i].replaced = 1;
  }
  n->life |= VDX_LIFE_COMMIT;
  /* A document back from the back/forward cache has loaded already; it
   * fires no lifecycle events again. */
  if (strcmp(str_field(L, params, "type"), "BackForwardCacheRestore") == 0)
    n->life |= VDX_LIFE_DCL | VDX_LIFE_LOAD;
  n->same_doc = 0;
  n->seq++;
  /* Frame.url leaves the fragment out; urlFragment holds it ("#top"). */
  lua_pushstring(L, str_field(L, frame, "url"));
  lua_pushstring(L, str_field(L, frame, "urlFragment"));
  lua_concat(L, 2);
  set_url(n, lua_tostring(L, -1));
  lua_pop(L, 1);
}

static void on_lifecycle(lua_State *L, nav *n, int params) {
  const char *loader = str_field(L, params, "loaderId");
  int bit = life_bit(str_field(L, params, "name"));
  if (strcmp(loader, n->loader) == 0) n->life |= bit;
  else note_next(n, loader, bit, 0);   /* early, or late of a replaced one */
}

static void on_response(lua_State *L, nav *n, int params) {
  if (strcmp(str_field(L, params, "type"), "Document") != 0 || !is_main(L, n, params))
    return;
  lua_getfield(L, params, "response");
  lua_getfield(L, -1, "status");
  int status = (int)lua_tointeger(L, -1);
  lua_pop(L, 2);
  const char *loader = str_field(L, params, "loaderId");
  if (strcmp(loader, n->loader) == 0) n->status = status;
  else note_next(n, loader, 0, status);
}

/* Runtime.bindingCalled: the load read of the main frame's current vdx
 * world (an older world's, or another binding's, is not the document's). */
static int on_binding(lua_State *L, nav *n, int params) {
  if (strcmp(str_field(L, params, "name"), VDX_LOADED_BINDING) != 0) return 0;
  vdx_frame *f = vdx__frame_by_ordinal(n->p, 0);
  lua_getfield(L, params, "executionContextId");
  int ctx = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (f == NULL || f->world == 0 || f->world != ctx || !(n->life & VDX_LIFE_COMMIT)) return 0;
  char *s = strdup(str_field(L, params, "payload"));
  if (s == NULL) return 0;
  free(n->read);
  n->read = s;
  n->life |= VDX_LIFE_READ;
  return 1;
}

static int on_page_event(lua_State *L, nav *n, const char *m, int params) {
  if (strcmp(m, "frameNavigated") == 0) {
    lua_getfield(L, params, "frame");
    int frame = lua_gettop(L);
    lua_getfield(L, frame, "parentId");
    if (lua_isnil(L, -1)) on_commit(L, n, params, frame);
    lua_settop(L, frame - 1);
  } else if (strcmp(m, "navigatedWithinDocument") == 0) {
    if (!is_main(L, n, params)) return 0;
    n->same_doc = 1;
    n->seq++;
    set_url(n, str_field(L, params, "url"));
  } else if (strcmp(m, "lifecycleEvent") == 0) {
    if (is_main(L, n, params)) on_lifecycle(L, n, params);
  } else if (strcmp(m, "frameStoppedLoading") == 0) {
    if (is_main(L, n, params)) n->stopped++;
  } else if (strcmp(m, "frameRequestedNavigation") == 0 ||
             strcmp(m, "frameStartedNavigating") == 0 ||
             strcmp(m, "frameStartedLoading") == 0) {
    if (is_main(L, n, params)) n->requested++;
  } else {
    return 0;
  }
  return 1;
}

void vdx__nav_event(lua_State *L, vdx_page *p, const char *method, int params) {
  nav *n = nav_of(L, p);
  params = lua_absindex(L, params);
  int changed = 0;
  if (strncmp(method, "Page.", 5) == 0) {
    changed = on_page_event(L, n, method + 5, params);
  } else if (strcmp(method, "Runtime.bindingCalled") == 0) {
    changed = on_binding(L, n, params);
  } else if (strcmp(method, "Network.responseReceived") == 0) {
    on_response(L, n, params);
    changed = 1;
  } else if (strcmp(method, "Network.requestWillBeSent") == 0 ||
             strcmp(method, "Network.loadingFinished") == 0 ||
             strcmp(method, "Network.loadingFailed") == 0) {
    n->last_net = uv_now(vdx__uv_of(n->lp));
    changed = n->nwaits > 0;
  }
  if (changed) settle(L, n);
}

void vdx__nav_push_read(lua_State *L, vdx_page *p) {
  nav *n = nav_of(L, p);
  if (n->read == NULL || !vdx__json_decode(L, n->read, strlen(n->read)) ||
      !lua_istable(L, -1)) {
    if (n->read) lua_pop(L, 1);
    lua_pushnil(L);
  }
}

/* ------------------------------------------------------------ waits */

static void quiet_fired(void *data, lua_State *L, int ok) {
  nav *n = data;
  (void)ok;
  n->quiet = NULL;
  settle(L, n);
}

/* 1 when w is done, -1 when it failed, 0 while it waits; *quiet is set
 * when only the network's quiet period is missing. */
static int wait_state(nav *n, navwait *w, uint64_t now, int *quiet) {
  int flag = w->flag == VDX_LIFE_IDLE ? VDX_LIFE_LOAD : w->flag;
  int reached;
  if (w->kind == W_LOADER) {
    reached = strcmp(w->loader, n->loader) == 0 && (n->life & flag) == flag;
    if (!reached) return w->replaced ? -1 : 0;
  } else {
    reached = n->seq > w->base && (n->same_doc || (n->life & flag) == flag);
    if (!reached)
      return w->kind == W_SOFT && n->stopped > w->stopped;  /* abandoned */
  }
  if (w->flag == VDX_LIFE_IDLE && !n->same_doc && now < n->last_net + QUIET_MS) {
    *quiet = 1;
    return 0;
  }
  return 1;
}

/* Resolves or fails the waits that the tracker's state now decides. */
static void settle(lua_State *L, nav *n) {
  uint64_t now = uv_now(vdx__uv_of(n->lp));
  int want_quiet = 0;
  for (int i = 0; i < n->nwaits;) {
    int st = wait_state(n, &n->waits[i], now, &want_quiet);
    vdx_waiter *w = n->waits[i].w;
    if (st > 0) {
      lua_pushboolean(L, 1);
      vdx__waiter_resolve(w, L);            /* wait_removed edits the array */
    } else if (st < 0) {
      vdx__error_push(L, "NavigationFailed", "the navigation was replaced by "
                      "another one before it finished");
      vdx__waiter_reject(w, L);
    } else {
      i++;
    }
  }
  if (want_quiet && n->quiet == NULL) {
    n->quiet = vdx__waiter_sleep(n->lp, (int)(n->last_net + QUIET_MS - now) + 1);
    vdx__waiter_then(n->quiet, quiet_fired, n);
  }
}

static navwait *add_wait(lua_State *L, nav *n, vdx_waiter *w, int kind, int flag) {
  if (n->nwaits == MAX_WAITS) {
    vdx__waiter_abandon(w);
    luaL_error(L, "too many navigation waits on this page");
  }
  navwait *nw = &n->waits[n->nwaits++];
  memset(nw, 0, sizeof *nw);
  nw->kind = kind;
  nw->flag = flag;
  nw->w = w;
  vdx__waiter_on_done(w, wait_removed, n);
  return nw;
}

vdx_waiter *vdx__nav_wait_loader(lua_State *L, vdx_page *p, const char *loader,
                                 int flag, int timeout_ms) {
  nav *n = nav_of(L, p);
  vdx_waiter *w = vdx__waiter_new(n->lp, timeout_ms, "navigation");
  navwait *nw = add_wait(L, n, w, W_LOADER, flag);
  snprintf(nw->loader, sizeof nw->loader, "%s", loader);
  /* A wait begun after its document was replaced (navigate's load wait
   * after the early read failed) fails now instead of at its timeout. */
  nw->replaced = *n->gone && strcmp(n->gone, loader) == 0;
  settle(L, n);
  return w;
}

vdx_waiter *vdx__nav_wait_seq(lua_State *L, vdx_page *p, lua_Integer base,
                              int flag, int timeout_ms) {
  nav *n = nav_of(L, p);
  vdx_waiter *w = vdx__waiter_new(n->lp, timeout_ms, "navigation");
  add_wait(L, n, w, W_SEQ, flag)->base = base;
  settle(L, n);
  return w;
}

/* ------------------------------------------------ marks and reading */

static lua_Integer mark_int(lua_State *L, int mark, const char *k) {
  lua_getfield(L, mark, k);
  lua_Integer v = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v;
}

void vdx__nav_mark(lua_State *L, vdx_page *p, int mark) {
  nav *n = nav_of(L, p);
  mark = lua_absindex(L, mark);
  lua_pushinteger(L, n->seq);
  lua_setfield(L, mark, "nav");
  lua_pushinteger(L, n->requested);
  lua_setfield(L, mark, "nav_req");
  lua_pushinteger(L, n->stopped);
  lua_setfield(L, mark, "nav_stopped");
}

void vdx__nav_since(lua_State *L, vdx_page *p, int mark, int res) {
  nav *n = nav_of(L, p);
  res = lua_absindex(L, res);
  if (n->seq <= mark_int(L, mark, "nav")) return;
  lua_createtable(L, 0, 3);
  lua_pushstring(L, n->url);
  lua_setfield(L, -2, "url");
  if (!n->same_doc && n->status) {
    lua_pushinteger(L, n->status);
    lua_setfield(L, -2, "status");
  }
  lua_pushboolean(L, n->same_doc);
  lua_setfield(L, -2, "same_document");
  lua_setfield(L, res, "navigation");
}

vdx_waiter *vdx__nav_settle(lua_State *L, vdx_page *p, int mark, int timeout_ms) {
  nav *n = nav_of(L, p);
  mark = lua_absindex(L, mark);
  lua_Integer base = mark_int(L, mark, "nav");
  int committed = n->seq > base;
  if (n->requested <= mark_int(L, mark, "nav_req") && !committed) return NULL;
  if (committed && (n->same_doc || (n->life & VDX_LIFE_LOAD))) return NULL;
  vdx_waiter *w = vdx__waiter_sleep(n->lp, timeout_ms > 0 ? timeout_ms : 1);
  navwait *nw = add_wait(L, n, w, W_SOFT, VDX_LIFE_LOAD);
  nw->base = base;
  nw->stopped = mark_int(L, mark, "nav_stopped");
  settle(L, n);
  return w;
}

int vdx__nav_flag(lua_State *L, const char *s) {
  if (strcmp(s, "commit") == 0) return VDX_LIFE_COMMIT;
  if (strcmp(s, "domcontentloaded") == 0) return VDX_LIFE_DCL;
  if (strcmp(s, "load") == 0) return VDX_LIFE_LOAD;
  if (strcmp(s, "networkidle") == 0) return VDX_LIFE_IDLE;
  return vdx__error_raise(L, "InvalidArgument", "wait_until must be commit, "
                          "domcontentloaded, load or networkidle (got '%s')", s);
}

lua_Integer vdx__nav_seq(lua_State *L, vdx_page *p) { return nav_of(L, p)->seq; }
const char *vdx__nav_url(lua_State *L, vdx_page *p) { return nav_of(L, p)->url; }
int vdx__nav_status(lua_State *L, vdx_page *p) { return nav_of(L, p)->status; }
