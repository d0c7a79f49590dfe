/*
 * serve.h -- what serve.c (the vdx.Server object), serve_http.c (the
 * libwebsockets HTTP callback), serve_response.c (its responses) and
 * serve_static.c (its static files) share.  Private to those files.
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

#define VDX_SERVER_MT "vdx.Server"

/* Request bodies larger than this are answered with 413. */
#define SERVE_MAX_BODY (16u * 1024u * 1024u)
/* The largest request head (request line, headers and the blank line
 * after them) passed on; a larger one is answered with 431. */
#define SERVE_MAX_HEADERS (16u * 1024u)
/* The front's stand-in for a head it does not pass on carries this
 * header: "TOKEN STATUS WHY", TOKEN being the server's secret (random,
 * hex), STATUS the answer's status and WHY its text. */
#define SERVE_REJECT_HEADER "x-vdx-reject"
#define SERVE_TOKEN_BYTES 16
/* A connection whose answer makes no progress for this long is closed. */
#define SERVE_IDLE_SECS 30

typedef struct vdx_server vdx_server;
typedef struct serve_front serve_front;
typedef struct serve_stream serve_stream;

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
  serve_front *front;       /* the listener and its relays, or NULL */
  char token[2 * SERVE_TOKEN_BYTES + 1];
  int routes_ref;           /* registry: { ["METHOD /path"] = fn } */
  int self_ref;             /* registry: the userdata, while open */
  serve_prefix *prefixes;
  size_t nprefixes;
  char *root;               /* realpath of the root, or NULL: no files */
  size_t root_len;
  char url[96];
  int port;
  int closed;
  serve_stream *streams;    /* open streamed answers (serve_stream.c) */
};

typedef struct serve_core {
  vdx_server *srv;          /* NULL once the server is closed */
  int in_handler;           /* > 0 while a handler of this server runs */
} serve_core;

/* serve_http.c: the protocol list of every server vhost. */
extern const struct lws_protocols vdx__serve_protocols[];

/* Per-connection state; lws zeroes it once per connection. */
typedef struct serve_pss {
  int awaiting_body;    /* a body follows: dispatch on completion */
  int too_big;
  int head_only;        /* HEAD: headers only */
  int finishing;        /* answered: ends once lws has sent it all */
  char *body;
  size_t body_len, body_cap;
  unsigned char *out;   /* response body, at out + LWS_PRE */
  size_t out_len, out_off;
  struct route_job *job;  /* the route handler task answering this request */
  serve_stream *stream;   /* the streamed answer, while it is sent */
  int streamed;           /* the handler took the answer over (req.stream) */
} serve_pss;

/* A response built from a handler's result. */
typedef struct serve_resp {
  int status;
  char *ctype;
  char *hdrs;           /* "name:\0value\0" pairs */
  size_t hdrs_len, hdrs_cap;
  unsigned char *body;  /* LWS_PRE bytes of headroom, then the body */
  size_t body_len;
} serve_resp;

/* serve_response.c: frees what r holds and zeroes it. */
void vdx__serve_resp_free(serve_resp *r);
/* Sends r (and owns it from then on); returns what the callback returns. */
int vdx__serve_send_resp(struct lws *wsi, serve_pss *ps, serve_resp *r,
                         int close);
/* Answers status with a short text body; close: then close the connection. */
int vdx__serve_send_text_ex(struct lws *wsi, serve_pss *ps, int status,
                            const char *text, const char *location,
                            int close);
/* vdx__serve_send_text_ex without closing the connection. */
int vdx__serve_send_text(struct lws *wsi, serve_pss *ps, int status,
                         const char *text, const char *location);
/* Ends the answered transaction once lws has written all of it, and tells
 * the front; returns what the callback returns. */
int vdx__serve_finish(struct lws *wsi, serve_pss *ps);
/* Sends the next chunk of a pending body (LWS_CALLBACK_HTTP_WRITEABLE). */
int vdx__serve_on_writable(struct lws *wsi, serve_pss *ps);
/* Turns a handler's result (at idx) into r; raises on a bad result. */
void vdx__serve_take_result(lua_State *L, int idx, serve_resp *r);

/* serve_front.c: listens on iface:port and relays each connection to vh,
 * answering heads over SERVE_MAX_HEADERS, or that break RFC 9112's
 * framing rules, through a request marked with token.  Returns NULL (and
 * sets *out, *bound_port) or a message. */
const char *vdx__serve_front_start(uv_loop_t *uv, struct lws_vhost *vh,
                                   const char *token, const char *iface,
                                   int ipv6, int port, serve_front **out,
                                   int *bound_port);
/* Stops listening and closes every relay; frees f as the handles close. */
void vdx__serve_front_close(serve_front *f);
/* lws has answered a request of wsi's connection and keeps it open: the
 * relay passes on the next request, or the client's EOF. */
void vdx__serve_front_answered(struct lws *wsi);
/* wsi is going away: its relay forgets it. */
void vdx__serve_front_detach(struct lws *wsi);

/* The relay of wsi's connection: its answer is a stream, so the client's
 * EOF or reset closes wsi at once.  Returns 1 when the client has gone
 * already (the caller then closes wsi from its next callback). */
int vdx__serve_front_streaming(struct lws *wsi);

/* serve_stream.c: streamed answers (req.stream in a route handler). */
/* Pushes req.stream for the request whose wsi slot is at index live. */
void vdx__serve_push_stream_open(lua_State *L, int live);
/* LWS_CALLBACK_HTTP_WRITEABLE of a connection with ps->stream set. */
int vdx__serve_stream_writable(struct lws *wsi, serve_pss *ps);
/* ps's connection closes; lua: 0 when Lua must not be touched. */
void vdx__serve_stream_gone(serve_pss *ps, int lua);
/* The handler that opened ps's stream failed: the stream ends. */
void vdx__serve_stream_end(serve_pss *ps);
/* The server closes: its streams let go of it and of their anchors. */
void vdx__serve_streams_close(vdx_server *srv, lua_State *L);

/* serve_head.c: what a request head says about its framing. */
typedef struct serve_head {
  int status;               /* 0: pass it on; else answer this, then close */
  const char *why;          /* the answer's text, when status is set */
  unsigned long long body;  /* the Content-Length: body bytes that follow */
  size_t len;               /* the head's length once lines are dropped */
} serve_head;
/* Checks the head h[0..len) (with its blank line) against RFC 9112's
 * framing rules, dropping its Upgrade and HTTP2-Settings lines in place,
 * and fills *out. */
void vdx__serve_head_check(char *h, size_t len, serve_head *out);

/* serve_static.c: answers a GET or HEAD of path from the server's root. */
int vdx__serve_static(struct lws *wsi, serve_pss *ps, vdx_server *srv,
                      const char *path);

#endif
