/*
 * ws.c -- the WebSocket transport (a libwebsockets client) and the HTTP GET
 * that reads /json/version, both running on the loop's own libuv loop,
 * plain (ws://, http://) or over TLS (wss://, https://), with the extra
 * handshake headers a farm's credentials need (vdx_ws_opts).
 *
 * Guarantees: done is called exactly once and never inside the call that
 * started the work; every complete incoming message reaches the conn once,
 * in order, whatever its size; outgoing messages go out whole and in the
 * order they were queued; the loss of an established connection is
 * reported once; after close() nothing calls into the conn.  One lws
 * context serves every connection of a vdx_loop (wsctx.c).  While the
 * loop is being torn down no callback (done, receive, lost) is made at
 * all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "vdx.h"
#include "reasm.h"
#include "wsctx.h"

#define RX_BUFFER_SIZE (64 * 1024)
#define KEEP_RX_BYTES (1024 * 1024) /* larger buffers are freed after use */
#define RX_AHEAD_BYTES (16 * 1024 * 1024) /* room made for announced bytes */

typedef struct out_msg {
  struct out_msg *next;
  size_t len;
  unsigned char bytes[];     /* LWS_PRE bytes of room, then the message */
} out_msg;

enum { KIND_WS, KIND_HTTP };

typedef union done_fn { vdx_ws_done ws; vdx_http_done http; } done_fn;

/* One client connection: a WebSocket transport or an HTTP request. */
typedef struct client {
  vdx_transport base;        /* must be first */
  int kind;
  ws_ctx *ctx;
  struct lws *wsi;           /* NULL once lws is done with us */
  done_fn done;
  void *data;                /* for done */
  int pending;               /* done not called yet */
  int in_connect;            /* inside lws_client_connect_via_info */
  int open;                  /* ws: the handshake completed */
  int released;              /* the owner closed it (or never will) */
  int busy;                  /* depth of our lws callbacks on the stack */
  int status;                /* the HTTP status the server answered */
  int tls;                   /* wss:// or https:// */
  char *headers;             /* "Name: value\r\n" lines to send, or NULL */
  vdx_reasm rx;              /* ws: the message being reassembled */
  char *buf;                 /* http: the response body */
  size_t len, cap;
  out_msg *head, *tail;      /* ws: outgoing queue */
  char url[256];             /* for messages */
  char err[512];
} client;

/* ------------------------------------------------------ late failures */

/* A failure found before any I/O, delivered on the next loop turn. */
typedef struct late_fail {
  uv_timer_t timer;
  int kind;
  done_fn done;
  void *data;
  char err[512];
} late_fail;

static void late_closed(uv_handle_t *h) { free(h); }

static void late_fire(uv_timer_t *t) {
  late_fail *f = (late_fail *)t;
  if (f->kind == KIND_WS) f->done.ws(f->data, NULL, 0, f->err);
  else f->done.http(f->data, NULL, 0, 0, f->err);
  uv_close((uv_handle_t *)t, late_closed);
}

static int fail_later(vdx_loop *lp, int kind, done_fn done, void *data,
                      const char *err) {
  late_fail *f = calloc(1, sizeof *f);
  if (f == NULL) return UV_ENOMEM;
  f->kind = kind;
  f->done = done;
  f->data = data;
  snprintf(f->err, sizeof f->err, "%s", err);
  uv_timer_init(vdx__uv_of(lp), &f->timer);
  uv_timer_start(&f->timer, late_fire, 0, 0);
  return 0;
}

/* ------------------------------------------------------------- client */

static void client_free(client *c) {
  while (c->head) {
    out_msg *m = c->head;
    c->head = m->next;
    free(m);
  }
  free(c->buf);
  free(c->headers);
  vdx__reasm_free(&c->rx);
  free(c);
}

/* Frees c once nobody can reach it: lws let go, the owner let go, and no
 * callback of ours is running on it. */
static void client_maybe_free(client *c) {
  if (c->wsi == NULL && c->released && c->busy == 0) client_free(c);
}

/* lws is done with c's wsi (it is closing or failed): detach from it. */
static void client_detach(client *c) {
  if (c->wsi) lws_set_wsi_user(c->wsi, NULL);
  c->wsi = NULL;
}

/* Reports a failure to connect (ws) or to fetch (http), once. */
static void client_fail(client *c, const char *why) {
  if (!c->pending) return;
  if (c->err[0] == '\0') snprintf(c->err, sizeof c->err, "%s", why);
  if (c->in_connect) return;   /* vdx__*_connect delivers it later */
  c->pending = 0;
  c->released = 1;             /* the owner never sees c */
  if (c->ctx->destroying) return;
  if (c->kind == KIND_WS) c->done.ws(c->data, NULL, c->status, c->err);
  else c->done.http(c->data, NULL, 0, c->status, c->err);
}

/* Appends len bytes to c->buf (an HTTP body), growing it as needed. */
static int buf_append(client *c, const void *in, size_t len) {
  if (c->len + len > c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 4096;
    if (cap < c->len + len) cap = c->len + len;
    char *nb = realloc(c->buf, cap);
    if (nb == NULL) return -1;
    c->buf = nb;
    c->cap = cap;
  }
  memcpy(c->buf + c->len, in, len);
  c->len += len;
  return 0;
}

/* ------------------------------------------------------------- ws i/o */

/* Takes one fragment; hands a complete message to the conn. */
static int ws_receive(client *c, struct lws *wsi, const void *in, size_t len) {
  const char *msg;
  size_t n;
  int r = vdx__reasm_take(&c->rx, in, len, lws_remaining_packet_payload(wsi),
                          lws_is_final_fragment(wsi), &msg, &n);
  if (r < 0) {
    snprintf(c->err, sizeof c->err, "cannot take a %zu byte message (the "
             "limit is %zu bytes, or memory ran out)", n, (size_t)VDX_REASM_MAX);
    return -1;
  }
  if (r == 0) return 0;
  if (c->base.conn && !c->released && !c->ctx->destroying)
    vdx__conn_receive(c->base.conn, msg, n);
  vdx__reasm_trim(&c->rx);
  return 0;
}

/* Writes the first queued message as one text frame.  lws keeps whatever
 * the socket does not take and sends it before the next writeable call. */
static int ws_write(client *c, struct lws *wsi) {
  out_msg *m = c->head;
  if (m == NULL) return 0;
  int n = lws_write(wsi, m->bytes + LWS_PRE, m->len, LWS_WRITE_TEXT);
  c->head = m->next;
  if (c->head == NULL) c->tail = NULL;
  free(m);
  if (n < 0) {
    snprintf(c->err, sizeof c->err, "write to the browser failed");
    return -1;
  }
  if (c->head) lws_callback_on_writable(wsi);
  return 0;
}

static int ws_send(vdx_transport *t, const char *data, size_t len) {
  client *c = (client *)t;
  if (c->released || c->wsi == NULL || !c->open) return UV_EPIPE;
  if (len > VDX_MAX_OUTGOING) return UV_E2BIG;
  out_msg *m = malloc(sizeof *m + LWS_PRE + len);
  if (m == NULL) return UV_ENOMEM;
  m->next = NULL;
  m->len = len;
  memcpy(m->bytes + LWS_PRE, data, len);
  if (c->tail) c->tail->next = m;
  else c->head = m;
  c->tail = m;
  lws_callback_on_writable(c->wsi);
  return 0;
}

static void ws_close(vdx_transport *t) {
  client *c = (client *)t;
  if (c->released) return;
  c->released = 1;
  c->base.conn = NULL;
  if (c->wsi) {
    /* A detached wsi closes itself in its next writeable callback; the
     * timeout is a backstop. */
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_USER_OK, 1);
    lws_callback_on_writable(c->wsi);
    client_detach(c);
  }
  client_maybe_free(c);
}

/* The connection is gone: tell the conn (once), let go of the wsi. */
static void ws_lost(client *c, const char *why) {
  int was_open = c->open;
  c->open = 0;
  client_detach(c);
  if (!was_open) {
    if (c->err[0] == '\0')
      snprintf(c->err, sizeof c->err, "%s: %s during the handshake", c->url,
               why);
    client_fail(c, c->err);
    return;
  }
  if (c->base.conn && !c->released && !c->ctx->destroying)
    vdx__conn_lost(c->base.conn, c->err[0] ? c->err : why);
}

/* ------------------------------------------------------ lws callback */

static int http_read(struct lws *wsi) {
  char buf[LWS_PRE + 4096];
  char *p = buf + LWS_PRE;
  int n = sizeof buf - LWS_PRE;
  return lws_http_client_read(wsi, &p, &n) < 0 ? -1 : 0;
}

static void http_finish(client *c) {
  c->pending = 0;
  c->released = 1;
  client_detach(c);
  if (c->ctx->destroying) return;
  if (c->status != 200) {
    snprintf(c->err, sizeof c->err, "%s: HTTP status %d", c->url, c->status);
    c->done.http(c->data, NULL, 0, c->status, c->err);
  } else {
    c->done.http(c->data, c->buf ? c->buf : "", c->len, 200, NULL);
  }
}

static int on_ws_event(client *c, struct lws *wsi, enum lws_callback_reasons r,
                       void *in, size_t len) {
  switch (r) {
  case LWS_CALLBACK_CLIENT_ESTABLISHED:
    c->open = 1;
    c->pending = 0;
    if (!c->ctx->destroying) c->done.ws(c->data, &c->base, 101, NULL);
    return 0;
  case LWS_CALLBACK_CLIENT_RECEIVE:
    return ws_receive(c, wsi, in, len);
  case LWS_CALLBACK_CLIENT_WRITEABLE:
    return c->released ? -1 : ws_write(c, wsi);
  case LWS_CALLBACK_CLIENT_CLOSED:
  case LWS_CALLBACK_WSI_DESTROY:
    ws_lost(c, "the WebSocket connection closed");
    return 0;
  default:
    return 0;
  }
}

static int on_http_event(client *c, struct lws *wsi,
                         enum lws_callback_reasons r, void *in, size_t len) {
  switch (r) {
  case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
    c->status = (int)lws_http_client_http_response(wsi);
    if (c->status == 200) return 0;
    http_finish(c);            /* reports the status; the body is not read */
    return -1;
  case LWS_CALLBACK_RECEIVE_CLIENT_HTTP:
    return http_read(wsi);
  case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
    if (buf_append(c, in, len) < 0) {
      snprintf(c->err, sizeof c->err, "out of memory for the HTTP body");
      return -1;
    }
    return 0;
  case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
    /* No keep-alive: the socket closes now. */
    if (c->pending) http_finish(c);
    return -1;
  case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
  case LWS_CALLBACK_WSI_DESTROY:
    client_detach(c);
    snprintf(c->err, sizeof c->err, "%s: the connection closed before the "
             "response ended", c->url);
    client_fail(c, c->err);
    return 0;
  default:
    return 0;
  }
}

/* Writes c's extra handshake headers at *in (len bytes of room). */
static int append_headers(client *c, void *in, size_t len) {
  if (c->headers == NULL) return 0;
  char **p = in;
  size_t n = strlen(c->headers);
  if (n >= len) {
    snprintf(c->err, sizeof c->err, "%s: the headers (%zu bytes) do not fit "
             "in the handshake (%zu bytes left)", c->url, n, len);
    return -1;
  }
  memcpy(*p, c->headers, n);
  *p += n;
  return 0;
}

/* Every lws event of our connections.  A wsi whose client let go has a
 * NULL user pointer and only runs to its end. */
static int callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len) {
  /* Not user: lws passes the X509_STORE_CTX there for TLS verification. */
  client *c = wsi ? lws_wsi_user(wsi) : NULL;
  (void)user;
  if (c == NULL) return reason == LWS_CALLBACK_CLIENT_WRITEABLE ? -1 : 0;
  if (reason == LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION)
    return 0;                  /* lws's verdict (preverify_ok) stands */
  c->busy++;
  int rc;
  if (reason == LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER) {
    rc = append_headers(c, in, len);
  } else if (reason == LWS_CALLBACK_CLIENT_CONNECTION_ERROR) {
    /* A refused WebSocket upgrade (a farm's 429, a 401) still has its
     * status here; the caller types the failure by it. */
    if (c->status == 0 && wsi) c->status = (int)lws_http_client_http_response(wsi);
    char why[160];
    if (c->tls && vdx__ws_tls_take(why, sizeof why))
      snprintf(c->err, sizeof c->err, "%s: the server's certificate was "
               "refused: %s", c->url, why);
    else if (c->tls && in && strstr(in, "SSL"))
      snprintf(c->err, sizeof c->err, "%s: no TLS handshake (%s): is it a "
               "plain ws:// or http:// port?", c->url, (const char *)in);
    else
      snprintf(c->err, sizeof c->err, "%s: %s", c->url,
               in ? (const char *)in : "connection failed");
    client_detach(c);
    client_fail(c, c->err);
    rc = 0;
  } else if (c->kind == KIND_WS) {
    rc = on_ws_event(c, wsi, reason, in, len);
  } else {
    rc = on_http_event(c, wsi, reason, in, len);
  }
  c->busy--;
  if (rc < 0 && c->wsi) {
    /* lws closes the wsi: report it now, the close events find no user. */
    if (c->kind == KIND_WS) ws_lost(c, c->err[0] ? c->err : "closed");
    else client_detach(c), client_fail(c, c->err);
  }
  client_maybe_free(c);
  return rc;
}

static const struct lws_protocols protocols[] = {
  { "vdx", callback, 0, RX_BUFFER_SIZE, 0, NULL, 0 },
  { NULL, NULL, 0, 0, 0, NULL, 0 }
};

/* ------------------------------------------------------------ connect */

typedef struct url_parts {
  char host[256];
  char host_header[300];     /* host:port, which Chromium echoes in URLs */
  int port;
  const char *path;
  char qpath[1024];          /* the path when the URL has none before '?' */
} url_parts;

/* Splits scheme://host[:port][/path] (ws or wss for KIND_WS, http or
 * https for KIND_HTTP); sets *tls; returns NULL or an error message. */
static const char *parse_url(const char *url, int kind, int *tls,
                             url_parts *u) {
  const char *plain = kind == KIND_WS ? "ws://" : "http://";
  const char *secure = kind == KIND_WS ? "wss://" : "https://";
  size_t sl;
  if (strncmp(url, plain, strlen(plain)) == 0) {
    sl = strlen(plain);
    *tls = 0;
  } else if (strncmp(url, secure, strlen(secure)) == 0) {
    sl = strlen(secure);
    *tls = 1;
  } else {
    return strstr(url, "://") ? "unsupported URL scheme" : "malformed URL";
  }
  const char *h = url + sl, *e;
  if (*h == '[') {
    e = strchr(h, ']');
    if (e == NULL) return "malformed URL";
    h++;
  } else {
    e = h + strcspn(h, ":/");
  }
  if (e == h || (size_t)(e - h) >= sizeof u->host) return "malformed URL";
  memcpy(u->host, h, (size_t)(e - h));
  u->host[e - h] = '\0';
  if (*e == ']') e++;
  u->port = *tls ? 443 : 80;
  if (*e == ':') {
    char *end;
    long p = strtol(e + 1, &end, 10);
    if (end == e + 1 || p <= 0 || p > 65535) return "malformed URL port";
    u->port = (int)p;
    e = end;
  }
  if (*e != '\0' && *e != '/' && *e != '?') return "malformed URL";
  if (*e == '?') {            /* host:port?token=… asks for /?token=… */
    if (strlen(e) + 2 > sizeof u->qpath) return "URL too long";
    snprintf(u->qpath, sizeof u->qpath, "/%s", e);
    u->path = u->qpath;
  } else {
    u->path = *e ? e : "/";
  }
  snprintf(u->host_header, sizeof u->host_header,
           strchr(u->host, ':') ? "[%s]:%d" : "%s:%d", u->host, u->port);
  return NULL;
}

/* Starts a client connection of the given kind; done is always later. */
static int client_start(vdx_loop *lp, const char *url, const vdx_ws_opts *o,
                        int kind, done_fn done, void *data) {
  url_parts u;
  char msg[512];
  int tls = 0;
  const char *bad = parse_url(url, kind, &tls, &u);
  if (bad) {
    snprintf(msg, sizeof msg, "%s: %s (only %s URLs are supported)", bad, url,
             kind == KIND_WS ? "ws:// and wss://" : "http:// and https://");
    return fail_later(lp, kind, done, data, msg);
  }
  ws_ctx *x = vdx__ws_ctx_of(lp, protocols);
  if (x == NULL) return fail_later(lp, kind, done, data,
                                   "cannot create the libwebsockets context");
  struct lws_vhost *vh = NULL;
  if (tls && o && o->ca && !o->insecure) {
    msg[0] = '\0';
    vh = vdx__ws_ca_vhost(x, o->ca, msg, sizeof msg);
    if (vh == NULL) return msg[0] ? fail_later(lp, kind, done, data, msg)
                                  : UV_ENOMEM;
  }
  client *c = calloc(1, sizeof *c);
  if (c == NULL) return UV_ENOMEM;
  if (o && o->headers && *o->headers) {
    c->headers = strdup(o->headers);
    if (c->headers == NULL) {
      free(c);
      return UV_ENOMEM;
    }
  }
  c->base.send = ws_send;
  c->base.close = ws_close;
  c->kind = kind;
  c->rx.keep = KEEP_RX_BYTES;
  c->rx.ahead = RX_AHEAD_BYTES;
  c->ctx = x;
  c->done = done;
  c->data = data;
  c->pending = 1;
  snprintf(c->url, sizeof c->url, "%s", url);

  /* No origin, no extensions, no subprotocol: Chromium refuses the first
   * and permessage-deflate breaks on large frames. */
  struct lws_client_connect_info i;
  memset(&i, 0, sizeof i);
  i.context = x->lws;
  i.vhost = vh;
  i.address = u.host;
  i.port = u.port;
  i.path = u.path;
  i.host = u.host_header;
  i.origin = NULL;
  i.protocol = NULL;
  i.local_protocol_name = "vdx";
  i.method = kind == KIND_HTTP ? "GET" : NULL;
  if (tls) {
    c->tls = 1;
    vdx__ws_tls_watch();
    i.ssl_connection = LCCSCF_USE_SSL;
    if (o && o->insecure)
      i.ssl_connection |= LCCSCF_ALLOW_SELFSIGNED | LCCSCF_ALLOW_EXPIRED |
                          LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK |
                          LCCSCF_ALLOW_INSECURE;
  }
  i.userdata = c;
  i.pwsi = &c->wsi;
  c->in_connect = 1;
  struct lws *wsi = lws_client_connect_via_info(&i);
  c->in_connect = 0;
  if (wsi == NULL || c->wsi == NULL || c->err[0]) {
    if (wsi) lws_set_wsi_user(wsi, NULL);
    snprintf(msg, sizeof msg, "%s", c->err[0] ? c->err : "cannot connect");
    client_free(c);
    return fail_later(lp, kind, done, data, msg);
  }
  return 0;
}

int vdx__ws_connect(vdx_loop *lp, const char *url, const vdx_ws_opts *o,
                    vdx_ws_done done, void *data) {
  done_fn fn = { .ws = done };
  if (url == NULL || done == NULL) return UV_EINVAL;
  return client_start(lp, url, o, KIND_WS, fn, data);
}

int vdx__http_get(vdx_loop *lp, const char *url, const vdx_ws_opts *o,
                  vdx_http_done done, void *data) {
  done_fn fn = { .http = done };
  if (url == NULL || done == NULL) return UV_EINVAL;
  return client_start(lp, url, o, KIND_HTTP, fn, data);
}
