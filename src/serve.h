/*
 * serve.h -- what serve.c (the vdx.Server object) and serve_http.c (the
 * libwebsockets HTTP callback) share.  Private to those two files.
 *
 * Ownership.  A server has two halves:
 *
 *   vdx_server  malloc'd by serve.c, pointed to by the Lua userdata and
 *               freed by its __gc.  Holds the Lua side: routes, root, url.
 *   serve_core  per-vhost memory that libwebsockets allocates and frees
 *               itself (lws_protocol_vh_priv_zalloc), so it lives exactly
 *               as long as lws may still call back.  Its srv pointer is
 *               cleared when the server closes: a callback that finds it
 *               NULL never touches Lua and only releases its own buffers.
 */
#ifndef VDX_SERVE_H
#define VDX_SERVE_H

#include <libwebsockets.h>

#include "vdx.h"

/* Request bodies larger than this are answered with 413. */
#define SERVE_MAX_BODY (16u * 1024u * 1024u)

typedef struct vdx_server vdx_server;

/* A route pattern ending in '*': matches every path with that prefix. */
typedef struct serve_prefix {
  char *key;        /* the key in the routes table, e.g. "GET /api/x*" */
  size_t mlen;      /* length of the method part */
  const char *path; /* points into key, after "METHOD " */
  size_t plen;      /* length of the path prefix, without the '*' */
} serve_prefix;

struct serve_reaper;

struct vdx_server {
  vdx_loop *lp;
  lua_State *L;             /* the main state: every handler runs in it */
  struct lws_context *ctx;  /* NULL once closed */
  struct serve_reaper *reaper;  /* finishes the context's destruction */
  struct serve_core *core;
  int routes_ref;           /* registry: { ["METHOD /path"] = fn } */
  serve_prefix *prefixes;
  size_t nprefixes;
  char *root;               /* realpath of the root, or NULL: no files */
  size_t root_len;
  char url[96];
  int port;
  int closed;
};

typedef struct serve_core {
  vdx_server *srv;          /* NULL once the server is closed */
  int in_handler;           /* > 0 while a handler of this server runs */
} serve_core;

/* serve_http.c: the protocol list of every server vhost. */
extern const struct lws_protocols vdx__serve_protocols[];

#endif
