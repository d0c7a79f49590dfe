/*
 * objects.h -- the structs behind vdx.Browser, vdx.Context and vdx.Page,
 * shared by browser.c, context.c and page.c.
 *
 * Lifetimes: a page's user value holds its context, a context's holds its
 * browser, so a browser outlives everything made from it.  The connection
 * is reached through the browser (b->conn) and is NULL once freed.
 */
#ifndef VDX_OBJECTS_H
#define VDX_OBJECTS_H

#include "vdx.h"
#include "proc.h"

typedef struct vdx_page vdx_page;

typedef struct vdx_browser {
  vdx_loop *lp;
  vdx_conn *conn;
  vdx_proc *proc;          /* NULL when connected to a running browser */
  int closed;
  char closed_why[64];     /* why it closed, for BrowserClosed errors */
  int timeout_ms;
  char endpoint[512];      /* ws:// URL when reached over WebSocket */
  vdx_page *pages;         /* live pages, for detach events and close */
  char blank[64];          /* the launch's about:blank tab, until a page takes it */
  int blank_done;          /* a page was created: later tabs are not the launch's */
  int adopting;            /* tabs.c: popups being attached */
  int nawaiting;           /* tabs.c: ctx:pages() calls waiting for them */
  vdx_waiter *awaiting[8];
} vdx_browser;

typedef struct vdx_context {
  vdx_browser *b;
  char id[64];             /* browserContextId; "" for the default one */
  int closed;
} vdx_context;

typedef struct bcall bcall;

/* One frame of a page: its document's isolated world ("vdx") and where
 * its bridge lives.  Ordinals are stable for the life of the frame. */
typedef struct vdx_frame {
  char id[64];
  char parent[64];         /* "" for the main frame */
  char sid[64];            /* the session that owns the frame's document */
  int ordinal;             /* 0 for the main frame; refs are f<ordinal>_eN */
  int world;               /* execution context id of the frame's vdx world,
                            * 0 while there is none (a "ctx" is always a
                            * browser context: see the glossary) */
  int doc;                 /* bumped on every new context (new document) */
  int tagged_doc;          /* the parent's doc in which this frame is tagged */
  int world_asked;         /* Page.createIsolatedWorld sent for this document */
  bcall *waiting;          /* bridge calls waiting for a world */
} vdx_frame;

/* One child session of a page: an out-of-process frame's target or a
 * dedicated worker's, attached (flattened) while the page lives. */
typedef struct vdx_child {
  char sid[64];
  char type[16];           /* "iframe" or "worker" (CDP's target type) */
  char target[64];
  char url[512];
  int deferred;            /* an iframe session without the bridge script:
                            * its vdx worlds get the bundle when made */
} vdx_child;

struct vdx_page {
  vdx_browser *b;
  vdx_context *ctx;
  char target_id[64];
  char session_id[64];
  char frame_id[64];
  int closed;
  int crashed;             /* the renderer crashed; a navigation recovers */
  char close_reason[128];
  vdx_frame *frames;
  int nframes, capframes, next_ordinal;
  vdx_child *children;     /* sessions of out-of-process frames and
                            * workers (sessions.c) */
  int nchild, capchild;
  int on_ref;              /* registry: Lua handlers of child sessions'
                            * events (sessions.c), LUA_NOREF when none */
  int setup_ref;           /* registry: commands every new child session
                            * gets before it runs, LUA_NOREF when none */
  int frame_bridge_eager;  /* child frames get the bridge at document start
                            * (page:frame_bridge "eager"), not after load */
  void *events;            /* owned by events.c: console, network, dialogs */
  void *nav;               /* owned by nav.c: the navigation tracker */
  vdx_page *next, *prev;
};

vdx_browser *vdx__check_browser(lua_State *L, int idx);
/* The browser at idx, not closed: raises BrowserClosed otherwise. */
vdx_browser *vdx__check_open_browser(lua_State *L, int idx);
vdx_context *vdx__check_context(lua_State *L, int idx);
vdx_page *vdx__check_page(lua_State *L, int idx);

#define VDX_CRASHED_MSG "the page's renderer crashed; navigate or reload to recover"
/* The page at idx, ready for calls: raises BrowserClosed, PageClosed or
 * PageCrashed otherwise.  Also checks that the browser connection lives. */
vdx_page *vdx__check_open_page(lua_State *L, int idx);
/* Like vdx__check_open_page but lets a crashed page through (and clears
 * its crashed mark): for the navigations that recover it. */
vdx_page *vdx__check_navigable_page(lua_State *L, int idx);
/* The renderer of p crashed: fails everything waiting on the page's own
 * session (CDP calls, bridge calls, navigation waits) with PageCrashed. */
void vdx__page_crashed(lua_State *L, vdx_page *p);

/* Raises BrowserClosed if b is closed; returns the live connection. */
vdx_conn *vdx__browser_conn(lua_State *L, vdx_browser *b);

/* Pushes a new page for a target that exists, attached on session sid. */
vdx_page *vdx__page_push(lua_State *L, int ctx_idx, const char *target_id,
                         const char *sid);
/* Marks p closed and fails what waits on it (the target went away). */
void vdx__page_detached(lua_State *L, vdx_page *p, const char *why);

/* frames.c */
void vdx__frames_event(lua_State *L, vdx_page *p, const char *sid,
                       const char *method, int params);
/* What vdx__frames_setup is setting up: a tab whose document may already
 * have content (a popup, a tab vdx did not open), a child frame's target
 * (paused until set up), or a tab vdx just opened on about:blank, whose
 * initial empty document does not get the bridge until a call needs it. */
enum { VDX_SETUP_TAB, VDX_SETUP_CHILD, VDX_SETUP_BLANK };
/* Sends the set-up of a session (main page or child frame target). */
void vdx__frames_setup(lua_State *L, vdx_page *p, const char *sid, int what);
/* Asks f's session for f's vdx world, once (frames.c). */
void vdx__frames_ask_world(lua_State *L, vdx_page *p, vdx_frame *f);
vdx_frame *vdx__frame_find(vdx_page *p, const char *id);
vdx_frame *vdx__frame_by_ordinal(vdx_page *p, int ordinal);
/* The name of frame f, the one frame identity vdx emits: "main" for the
 * top frame, "f<K>" for the frame with ordinal K ("?" for NULL), written
 * to buf (VDX_FRAME_NAME bytes are enough); vdx__frame_push_name pushes it. */
#define VDX_FRAME_NAME 16
const char *vdx__frame_name(const vdx_frame *f, char *buf, size_t n);
void vdx__frame_push_name(lua_State *L, const vdx_frame *f);
/* The frame the value at idx names: a frame's name ("main", "f<K>") or a
 * ref (the ref's frame), the one identity every frame= option accepts.
 * Raises InvalidArgument for anything else and FrameDetached for a frame
 * that is gone. */
vdx_frame *vdx__frame_named(lua_State *L, vdx_page *p, int idx);
/* Fails every waiting bridge call and frees the frame table. */
void vdx__frames_clear(lua_State *L, vdx_page *p, const char *why);
/*
 * Calls the bridge of frame `frame_id`: instance(prefix)[method](...args)
 * where args is the list at args_idx, the one road into any bridge.  Waits
 * (event-driven) for the frame's context, injects the bridge when a context
 * lacks it, retries when the context dies under the call.  The waiter
 * resolves with the method's value or rejects with its typed error
 * (UnknownRef, UnknownMethod, FrameDetached, Timeout…).
 */
vdx_waiter *vdx__bridge_call(lua_State *L, vdx_page *p, const char *frame_id,
                             const char *method, int args_idx, int timeout_ms);
/* How a call is made; NULL or all zero is vdx__bridge_call's plain call. */
typedef struct vdx_bridge_opts {
  /* A child frame of frame_id: its owner element (the iframe, resolved in
   * frame_id's world on every new context) is the method's first argument. */
  const char *owner_of;
  /* The waiter resolves with the remote object id of the method's value
   * (nil when the value is not an object), for the host to hold. */
  int by_ref;
} vdx_bridge_opts;
vdx_waiter *vdx__bridge_call_opts(lua_State *L, vdx_page *p,
                                  const char *frame_id, const char *method,
                                  int args_idx, int timeout_ms,
                                  const vdx_bridge_opts *o);
const char *vdx__bridge_source(size_t *len);
/* Restarts the bridge calls of a frame's wait list: each is sent now, or
 * fails with the page's or the frame's state (closed, crashed, gone). */
void vdx__bridge_restart(lua_State *L, bcall *list);
const char *vdx__bridge_version(void);
/* vdx.page_script(name): an embedded main-world script of bridge/page/. */
int vdx__l_page_script(lua_State *L);

/* ref.c: the ref grammar.  True when s is "e<N>" or "f<K>e<N>" (N, K >= 1,
 * no leading zeros); sets *ordinal (when not NULL) to K, or 0. */
int vdx__ref_parse(const char *s, int *ordinal);
/* Raises InvalidArgument for a malformed ref, naming the grammar. */
int vdx__ref_raise_malformed(lua_State *L, const char *ref);
/* The frame that owns ref ("e3": main, "f2e7": frame 2).  Raises
 * InvalidArgument for a malformed ref and UnknownRef for a frame that is
 * gone. */
vdx_frame *vdx__ref_frame(lua_State *L, vdx_page *p, const char *ref);
/* Calls method of the bridge in ref's frame with the list at args_idx
 * (vdx__bridge_call); raises like vdx__ref_frame. */
vdx_waiter *vdx__ref_call(lua_State *L, vdx_page *p, const char *ref,
                          const char *method, int args_idx, int timeout_ms);

/* events.c: what the page logs and opens, captured from its creation. */
void vdx__page_events(lua_State *L, vdx_page *p, const char *method,
                      int params);
void vdx__page_events_free(vdx_page *p);

/* Each group of page methods is registered by the file that defines it,
 * into the vdx.Page method table at the top of the stack (page.c calls
 * them all). */
void vdx__snapshot_methods(lua_State *L);   /* snapshot.c */
/* snapshot.c: tags child frame f in its parent's bridge now, in the
 * background, so that the first snapshot finds it tagged; does nothing on
 * a page of many frames (each snapshot tags what is not). */
void vdx__snapshot_tag_early(lua_State *L, vdx_page *p, vdx_frame *f);
void vdx__describe_methods(lua_State *L);   /* describe.c */
void vdx__explore_methods(lua_State *L);    /* explore.c */
void vdx__log_methods(lua_State *L);        /* logs.c */
void vdx__tabs_methods(lua_State *L);       /* tabs.c */
void vdx__nav_methods(lua_State *L);        /* navigate.c */
void vdx__capture_methods(lua_State *L);    /* capture.c */
void vdx__input_methods(lua_State *L);      /* input_api.c */
void vdx__frame_offset_methods(lua_State *L); /* frame_offset.c */
void vdx__upload_methods(lua_State *L);     /* upload.c */

/* Methods of the other types registered by the file that defines them:
 * browser:new_context() and browser:new_page() (context.c, into the
 * vdx.Browser table), ctx:pages() (tabs.c, into the vdx.Context table). */
void vdx__context_browser_methods(lua_State *L);
void vdx__tabs_context_methods(lua_State *L);

/* browser.c: method(params) on session sid (NULL for the browser) for
 * browser:send and page:send.  stack: self, method, params, opts -> result */
int vdx__send(lua_State *L, vdx_conn *c, const char *sid,
              const char *const *known);
/* page.c: routes the events of a child frame's session to p too. */
void vdx__page_observe(vdx_page *p, const char *sid);

/* sessions.c: the child sessions of a page (out-of-process frames and
 * dedicated workers), the Lua handlers of their events and the commands
 * each new one gets before it runs. */
void vdx__sessions_attached(lua_State *L, vdx_page *p, const char *sid,
                            const char *type, const char *target,
                            const char *url);
/* Sends the page's set-up commands on the new child session sid (before
 * it is resumed). */
void vdx__sessions_setup(lua_State *L, vdx_page *p, const char *sid);
/* The frame frame_id of session sid committed url: a child session whose
 * target is that frame now has that URL. */
void vdx__sessions_navigated(vdx_page *p, const char *sid,
                             const char *frame_id, const char *url);
/* Forgets child session sid; returns 1 when it was one of p's. */
int vdx__sessions_detached(vdx_page *p, const char *sid);
/* Child session sid of p, or NULL. */
vdx_child *vdx__sessions_find(vdx_page *p, const char *sid);
/* Runs the Lua handlers registered with page:on(ev, fn, {sessions=}). */
void vdx__sessions_event(lua_State *L, vdx_page *p, const char *sid,
                         const char *method, int params);
/* The session a page:send names: the page's own or one of its children's;
 * raises InvalidArgument otherwise. */
const char *vdx__sessions_check(lua_State *L, vdx_page *p, const char *sid);
/* Registers fn (at fidx) for ev on the children ("children") or on every
 * session of p ("all"). */
void vdx__sessions_on(lua_State *L, vdx_page *p, const char *ev, int fidx,
                      int all);
void vdx__sessions_free(lua_State *L, vdx_page *p);
void vdx__sessions_methods(lua_State *L);

/* Module-level tables and functions, set on the vdx table at the top of
 * the stack: vdx.input, vdx.base64_decode, vdx.write_base64 (input_api.c),
 * vdx.is_ref / vdx.check_ref (ref.c), vdx.realpath (upload.c). */
void vdx__input_open(lua_State *L);
void vdx__ref_open(lua_State *L);
void vdx__upload_open(lua_State *L);


/* Creates a page in the context at ctx_idx (async; see page.c). */
int vdx__page_create(lua_State *L, int ctx_idx);

#endif
