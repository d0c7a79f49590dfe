/*
 * serve_front.c -- the front door of vdx.serve: the listening socket and a
 * relay between each client and libwebsockets, which measures every
 * request head before lws sees it.
 *
 * lws 4.1 cannot tell how large a request's headers are (it cannot list
 * the headers it does not know by name) and closes a connection without a
 * reply when they outgrow its header buffer.  So the server accepts
 * connections itself and hands lws one end of a socketpair; the relay
 * copies bytes both ways and frames the requests going in (head, then a
 * Content-Length body).  A head over SERVE_MAX_HEADERS is not passed on:
 * in its place lws gets a small request marked with the server's secret
 * token, which serve_http.c answers with 431 before closing.  Because the
 * marked request takes the oversized one's place in the stream, the 431
 * comes after the answers to the requests before it on a keep-alive or
 * pipelined connection.
 *
 * Guarantees:
 *   - every head lws parses is at most SERVE_MAX_HEADERS bytes;
 *   - memory per connection is bounded: a relay stops reading one side
 *     while more than RELAY_QUEUE_MAX bytes wait to be written to the other;
 *   - when lws closes a connection, the client gets every byte lws wrote,
 *     then a FIN; what the client still sends is read and dropped for a
 *     moment, so its unread bytes do not turn the close into a reset;
 *   - vdx__serve_front_close stops listening and closes every relay; the
 *     memory is freed by the close callbacks, never touched after.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve.h"

/* Stop reading one side while this much waits to be written to the other. */
#define RELAY_QUEUE_MAX (256u * 1024u)
#define RELAY_CHUNK (64u * 1024u)
/* After lws has closed: how long the client's remaining bytes are drained. */
#define RELAY_LINGER_MS 2000

typedef struct relay relay;

struct serve_front {
  uv_tcp_t listener;        /* first: the close callback casts back */
  struct lws_vhost *vh;
  char token[2 * SERVE_TOKEN_BYTES + 1];
  relay *relays;            /* open relays, doubly linked */
};

enum { HEAD, BODY, RAW, DROP };

struct relay {
  uv_tcp_t client;
  uv_pipe_t inner;          /* our end of the socketpair lws reads */
  uv_timer_t linger;
  serve_front *front;       /* NULL once the server closed */
  relay *prev, *next;
  int handles;              /* handles not yet closed */
  int closing;
  int state;                /* framing of the client's bytes: HEAD... */
  char *head;               /* SERVE_MAX_HEADERS + 1 bytes */
  size_t head_len;
  unsigned long long body_left;
  int client_paused, inner_paused, client_eof, inner_eof;
  int fin_sent;             /* the FIN to the client has been sent */
};

/* A write request and the bytes it writes. */
typedef struct chunk {
  uv_write_t req;
  relay *r;
  size_t len;
  char data[];
} chunk;

static void alloc_chunk(uv_handle_t *h, size_t hint, uv_buf_t *buf);
static void client_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);
static void inner_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);

/* ---------------------------------------------------------------- close */

static void relay_handle_closed(uv_handle_t *h) {
  relay *r = h->data;
  if (--r->handles > 0) return;
  free(r->head);
  free(r);
}

/* Closes both sides of r; its memory goes with the last close callback. */
static void relay_close(relay *r) {
  if (r->closing) return;
  r->closing = 1;
  if (r->front) {
    if (r->prev) r->prev->next = r->next;
    else r->front->relays = r->next;
    if (r->next) r->next->prev = r->prev;
    r->front = NULL;
  }
  uv_close((uv_handle_t *)&r->client, relay_handle_closed);
  uv_close((uv_handle_t *)&r->inner, relay_handle_closed);
  uv_close((uv_handle_t *)&r->linger, relay_handle_closed);
}

static void front_closed(uv_handle_t *h) {
  free(h);  /* the listener is the first member of the front */
}

void vdx__serve_front_close(serve_front *f) {
  if (f == NULL) return;
  while (f->relays) relay_close(f->relays);
  uv_close((uv_handle_t *)&f->listener, front_closed);
}

/* -------------------------------------------------------------- writing */

static uv_stream_t *side(relay *r, int to_client) {
  return to_client ? (uv_stream_t *)&r->client : (uv_stream_t *)&r->inner;
}

/* Reading resumes on the side that feeds `to` once its queue drains. */
static void resume_feeder(relay *r, int to_client) {
  uv_stream_t *to = side(r, to_client);
  int *paused = to_client ? &r->inner_paused : &r->client_paused;
  if (r->closing || !*paused || to->write_queue_size > RELAY_QUEUE_MAX / 2)
    return;
  *paused = 0;
  if (to_client) uv_read_start(side(r, 0), alloc_chunk, inner_read);
  else uv_read_start(side(r, 1), alloc_chunk, client_read);
}

static void chunk_written(uv_write_t *req, int status) {
  chunk *c = (chunk *)req;
  relay *r = c->r;
  int to_client = req->handle == (uv_stream_t *)&r->client;
  free(c);
  if (r->closing) return;
  if (status < 0 && !to_client) {
    /* lws closed first (say after a 413): what it wrote still goes to
     * the client when its end's EOF is read; the rest is dropped. */
    r->state = DROP;
    return;
  }
  if (status < 0) { relay_close(r); return; }
  resume_feeder(r, to_client);
}

/* Writes a copy of data to one side; pauses the other while it queues. */
static void relay_send(relay *r, int to_client, const char *data,
                       size_t len) {
  uv_stream_t *to = side(r, to_client);
  if (len == 0 || r->closing || (!to_client && r->inner_eof)) return;
  chunk *c = malloc(sizeof *c + len);
  if (c == NULL) { relay_close(r); return; }
  c->r = r;
  c->len = len;
  memcpy(c->data, data, len);
  uv_buf_t b = uv_buf_init(c->data, (unsigned)len);
  if (uv_write(&c->req, to, &b, 1, chunk_written) != 0) {
    free(c);
    if (to_client) relay_close(r);
    else r->state = DROP;  /* as in chunk_written */
    return;
  }
  if (to->write_queue_size > RELAY_QUEUE_MAX) {
    if (to_client && !r->inner_paused && !r->inner_eof) {
      r->inner_paused = 1;
      uv_read_stop(side(r, 0));
    } else if (!to_client && !r->client_paused && !r->client_eof) {
      r->client_paused = 1;
      uv_read_stop(side(r, 1));
    }
  }
}

/* -------------------------------------------------------------- framing */

/* Is the header line [s, e) named name (case-insensitive)? */
static int is_header(const char *s, const char *e, const char *name) {
  size_t n = strlen(name);
  return (size_t)(e - s) > n && s[n] == ':' && strncasecmp(s, name, n) == 0;
}

/*
 * Decides how the bytes after a complete head are framed: a Content-Length
 * body; or, for chunked bodies and upgrades (which lws refuses or takes
 * over), everything from here on, unframed.
 */
static void after_head(relay *r, const char *h, size_t len) {
  const char *end = h + len, *s = memchr(h, '\n', len);
  int te = 0, upgrade = 0, has_len = 0;
  unsigned long long clen = 0;
  while (s && ++s < end) {
    const char *e = memchr(s, '\n', (size_t)(end - s));
    if (e == NULL) e = end;
    if (is_header(s, e, "content-length")) {
      has_len = 1;
      clen = strtoull(s + 15, NULL, 10);
    } else if (is_header(s, e, "transfer-encoding")) {
      te = 1;
    } else if (is_header(s, e, "upgrade")) {
      upgrade = 1;
    }
    s = e;
  }
  if (upgrade || (te && !has_len)) r->state = RAW;
  else if (clen > 0) { r->state = BODY; r->body_left = clen; }
  else r->state = HEAD;
}

/* Length of the head in h[0..len) up to its blank line, or 0. */
static size_t head_end(const char *h, size_t len, size_t from) {
  for (size_t i = from; i < len; i++) {
    if (h[i] != '\n') continue;
    if (i >= 1 && h[i - 1] == '\n') return i + 1;
    if (i >= 2 && h[i - 1] == '\r' && h[i - 2] == '\n') return i + 1;
  }
  return 0;
}

/* The oversized head is replaced by a request serve_http.c answers 431. */
static void send_too_large(relay *r) {
  char req[128 + sizeof r->front->token];
  int n = snprintf(req, sizeof req, "GET / HTTP/1.1\r\n%s: %s\r\n\r\n",
                   SERVE_TOO_LARGE_HEADER, r->front ? r->front->token : "");
  relay_send(r, 0, req, (size_t)n);
  r->state = DROP;
}

/* Passes the client's bytes on to lws, a request head at a time. */
static void feed(relay *r, const char *p, size_t n) {
  while (n > 0 && !r->closing) {
    if (r->state == RAW) { relay_send(r, 0, p, n); return; }
    if (r->state == DROP) return;
    if (r->state == BODY) {
      size_t k = r->body_left < n ? (size_t)r->body_left : n;
      relay_send(r, 0, p, k);
      p += k;
      n -= k;
      r->body_left -= k;
      if (r->body_left == 0 && r->state == BODY) r->state = HEAD;
      continue;
    }
    if (r->head_len == 0)  /* blank lines between requests are allowed */
      while (n > 0 && (*p == '\r' || *p == '\n')) { p++; n--; }
    if (n == 0) return;
    if (r->head == NULL && (r->head = malloc(SERVE_MAX_HEADERS + 1)) == NULL) {
      relay_close(r);
      return;
    }
    size_t room = SERVE_MAX_HEADERS + 1 - r->head_len;
    size_t k = n < room ? n : room, from = r->head_len;
    memcpy(r->head + r->head_len, p, k);
    r->head_len += k;
    size_t e = head_end(r->head, r->head_len, from > 2 ? from - 2 : 0);
    if ((e == 0 && r->head_len > SERVE_MAX_HEADERS) || e > SERVE_MAX_HEADERS) {
      send_too_large(r);
      return;
    }
    if (e == 0) return;  /* k == n: everything was taken */
    size_t used = k - (r->head_len - e);
    relay_send(r, 0, r->head, e);
    if (r->state == DROP) return;  /* lws has gone */
    after_head(r, r->head, e);
    r->head_len = 0;
    p += used;
    n -= used;
  }
}

/* -------------------------------------------------------------- reading */

static void alloc_chunk(uv_handle_t *h, size_t hint, uv_buf_t *buf) {
  (void)h;
  (void)hint;
  char *p = malloc(RELAY_CHUNK);
  *buf = uv_buf_init(p, p ? RELAY_CHUNK : 0);
}

static void linger_over(uv_timer_t *t) {
  relay_close(t->data);
}

/* lws closed its end: the client gets what is queued, then a FIN. */
static void client_shut(uv_shutdown_t *req, int status) {
  relay *r = req->data;
  free(req);
  if (r->closing) return;
  r->fin_sent = 1;
  if (status < 0 || r->client_eof) { relay_close(r); return; }
  r->state = DROP;
  if (r->client_paused) {
    r->client_paused = 0;
    uv_read_start((uv_stream_t *)&r->client, alloc_chunk, client_read);
  }
  uv_timer_start(&r->linger, linger_over, RELAY_LINGER_MS, 0);
}

/* The client closed its sending side: so does the relay towards lws.  A
 * failure means lws has gone, which reading its end's EOF handles. */
static void inner_shut(uv_shutdown_t *req, int status) {
  (void)status;
  free(req);
}

static void shut(relay *r, int to_client) {
  uv_shutdown_t *req = malloc(sizeof *req);
  if (req == NULL) { relay_close(r); return; }
  req->data = r;
  if (uv_shutdown(req, side(r, to_client),
                  to_client ? client_shut : inner_shut) != 0) {
    free(req);
    relay_close(r);
  }
}

static void client_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  relay *r = s->data;
  if (n > 0) feed(r, buf->base, (size_t)n);
  free(buf->base);
  if (n >= 0 || r->closing) return;
  if (n != UV_EOF) { relay_close(r); return; }
  r->client_eof = 1;
  uv_read_stop(s);
  if (!r->inner_eof) shut(r, 0);
  else if (r->fin_sent) relay_close(r);  /* else client_shut closes */
}

static void inner_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  relay *r = s->data;
  if (n > 0) relay_send(r, 1, buf->base, (size_t)n);
  free(buf->base);
  if (n >= 0 || r->closing) return;
  if (n != UV_EOF) { relay_close(r); return; }
  r->inner_eof = 1;
  uv_read_stop(s);
  shut(r, 1);
}

/* ------------------------------------------------------------ accepting */

/* Accepts one client and hands lws its relay's other end. */
static void on_connection(uv_stream_t *server, int status) {
  serve_front *f = server->data;
  int fds[2];
  if (status < 0) return;
  relay *r = calloc(1, sizeof *r);
  if (r == NULL) return;
  uv_loop_t *uv = server->loop;
  uv_tcp_init(uv, &r->client);
  uv_pipe_init(uv, &r->inner, 0);
  uv_timer_init(uv, &r->linger);
  r->client.data = r->inner.data = r->linger.data = r;
  r->handles = 3;
  r->front = f;
  r->next = f->relays;
  if (f->relays) f->relays->prev = r;
  f->relays = r;
  if (uv_accept(server, (uv_stream_t *)&r->client) != 0 ||
      socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
                 fds) != 0) {
    relay_close(r);
    return;
  }
  if (uv_pipe_open(&r->inner, fds[0]) != 0) {
    close(fds[0]);
    close(fds[1]);
    relay_close(r);
    return;
  }
  lws_sock_file_fd_type fd = {.sockfd = fds[1]};
  if (lws_adopt_descriptor_vhost(f->vh, LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP, fd,
                                 NULL, NULL) == NULL) {
    relay_close(r);  /* lws closed fds[1] itself */
    return;
  }
  uv_tcp_nodelay(&r->client, 1);
  uv_read_start((uv_stream_t *)&r->client, alloc_chunk, client_read);
  uv_read_start((uv_stream_t *)&r->inner, alloc_chunk, inner_read);
}

/*
 * Listens on iface:port (port 0: one the system picks) and relays to vh.
 * On success sets *out and *bound_port and returns NULL; else a message.
 */
const char *vdx__serve_front_start(uv_loop_t *uv, struct lws_vhost *vh,
                                   const char *token, const char *iface,
                                   int ipv6, int port, serve_front **out,
                                   int *bound_port) {
  struct sockaddr_storage addr;
  int len = sizeof addr;
  serve_front *f = calloc(1, sizeof *f);
  if (f == NULL) return "out of memory";
  f->vh = vh;
  snprintf(f->token, sizeof f->token, "%s", token);
  uv_tcp_init(uv, &f->listener);
  f->listener.data = f;
  int rc = ipv6 ? uv_ip6_addr(iface, port, (struct sockaddr_in6 *)&addr)
                : uv_ip4_addr(iface, port, (struct sockaddr_in *)&addr);
  if (rc == 0)
    rc = uv_tcp_bind(&f->listener, (struct sockaddr *)&addr,
                     ipv6 ? UV_TCP_IPV6ONLY : 0);
  if (rc == 0) rc = uv_listen((uv_stream_t *)&f->listener, 128, on_connection);
  if (rc == 0)
    rc = uv_tcp_getsockname(&f->listener, (struct sockaddr *)&addr, &len);
  if (rc != 0) {
    vdx__serve_front_close(f);
    return "cannot listen there (address in use?)";
  }
  *bound_port = ntohs(ipv6 ? ((struct sockaddr_in6 *)&addr)->sin6_port
                           : ((struct sockaddr_in *)&addr)->sin_port);
  *out = f;
  return NULL;
}
