/*
 * serve_front.c -- the front door of vdx.serve: the listening socket and a
 * relay between each client and libwebsockets, which frames and checks
 * every request before lws sees it.
 *
 * lws 4.1 cannot tell how large a request's headers are (it cannot list
 * the headers it does not know by name), closes a connection without a
 * reply when they outgrow its header buffer, and loses or misreads
 * requests pipelined behind a static file.  So the server accepts
 * connections itself and hands lws one end of a socketpair; the relay
 * copies bytes both ways and frames the requests going in (head, then a
 * Content-Length body), one request at a time: the next head goes to lws
 * only once lws has finished answering the one before (serve_http.c says
 * so through vdx__serve_front_answered), and until then the client's
 * bytes wait in the relay, which stops reading from the client.
 *
 * Every head is checked against RFC 9112's framing rules (serve_head.c).
 * A head over SERVE_MAX_HEADERS, or one the rules reject, is not passed
 * on: in its place lws gets a small request marked with the server's
 * secret token and the status to answer, which serve_http.c answers
 * (431, 400, 411, 501, 505) before closing.  The marked request takes the
 * rejected one's place in the stream, so its answer comes after the
 * answers to the requests before it on a keep-alive or pipelined
 * connection.
 *
 * Guarantees:
 *   - every head lws parses is at most SERVE_MAX_HEADERS bytes and frames
 *     its body the way the relay does;
 *   - memory per connection is bounded: a relay stops reading one side
 *     while more than RELAY_QUEUE_MAX bytes wait to be written to the other,
 *     and holds at most one read of the client's bytes while lws answers;
 *   - a client that half-closes (shutdown(SHUT_WR)) gets the answers to
 *     every request it sent whole, then a FIN: the relay passes its EOF on
 *     only once lws has nothing left to answer;
 *   - when lws closes a connection, the client gets every byte lws wrote,
 *     then a FIN; what the client still sends is read and dropped for a
 *     moment, so its unread bytes do not turn the close into a reset;
 *   - vdx__serve_front_close stops listening and closes every relay; the
 *     memory is freed by the close callbacks, never touched after.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  int closing;              /* vdx__serve_front_close runs */
};

enum { HEAD, BODY, DROP };

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
  struct lws *wsi;          /* lws's side, until either side closes */
  unsigned long passed;     /* requests passed on to lws */
  unsigned long answered;   /* of them, answered with the connection kept */
  char *pend;               /* a read of the client's bytes, held while lws
                             * answers: pend[pend_off..pend_len) */
  size_t pend_off, pend_len;
  int client_paused, inner_paused, client_eof, inner_eof;
  int client_reading;       /* reading from the client is started */
  int inner_shut;           /* the client's EOF has been passed on */
  int fin_sent;             /* the FIN to the client has been sent */
  int streaming;            /* lws's answer is a stream: EOF ends it */
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
  free(r->pend);
  free(r);
}

/* Closes both sides of r; its memory goes with the last close callback. */
static void relay_close(relay *r) {
  if (r->closing) return;
  r->closing = 1;
  /* A stream's client has gone (a reset): lws, reading nothing meanwhile,
   * closes its side now.  Not while the server closes. */
  if (r->wsi && r->streaming && r->front && !r->front->closing) {
    struct lws *wsi = r->wsi;
    lws_set_opaque_user_data(wsi, NULL);
    r->wsi = NULL;
    lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
  }
  if (r->wsi) lws_set_opaque_user_data(r->wsi, NULL);
  r->wsi = NULL;
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
  f->closing = 1;
  while (f->relays) relay_close(f->relays);
  uv_close((uv_handle_t *)&f->listener, front_closed);
}

/* -------------------------------------------------------------- writing */

static uv_stream_t *side(relay *r, int to_client) {
  return to_client ? (uv_stream_t *)&r->client : (uv_stream_t *)&r->inner;
}

/* Reads from the client exactly while it is wanted: not after its EOF,
 * not while bytes are held for lws, not while lws's side is full. */
static void client_reading(relay *r) {
  int want = !r->closing && !r->client_eof && r->pend == NULL &&
             !r->client_paused;
  if (want == r->client_reading) return;
  r->client_reading = want;
  if (want) uv_read_start(side(r, 1), alloc_chunk, client_read);
  else uv_read_stop(side(r, 1));
}

/* Reading resumes on the side that feeds `to` once its queue drains. */
static void resume_feeder(relay *r, int to_client) {
  uv_stream_t *to = side(r, to_client);
  int *paused = to_client ? &r->inner_paused : &r->client_paused;
  if (r->closing || !*paused || to->write_queue_size > RELAY_QUEUE_MAX / 2)
    return;
  *paused = 0;
  if (to_client) uv_read_start(side(r, 0), alloc_chunk, inner_read);
  else client_reading(r);
}

/* From now on the client's bytes are read and dropped. */
static void drop_input(relay *r) {
  r->state = DROP;
  free(r->pend);
  r->pend = NULL;
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
    drop_input(r);
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
    else drop_input(r);  /* as in chunk_written */
    return;
  }
  if (to->write_queue_size > RELAY_QUEUE_MAX) {
    if (to_client && !r->inner_paused && !r->inner_eof) {
      r->inner_paused = 1;
      uv_read_stop(side(r, 0));
    } else if (!to_client && !r->client_paused) {
      r->client_paused = 1;
      client_reading(r);
    }
  }
}

/* -------------------------------------------------------------- framing */

/* Length of the head in h[0..len) up to its blank line, or 0. */
static size_t head_end(const char *h, size_t len, size_t from) {
  for (size_t i = from; i < len; i++) {
    if (h[i] != '\n') continue;
    if (i >= 1 && h[i - 1] == '\n') return i + 1;
    if (i >= 2 && h[i - 1] == '\r' && h[i - 2] == '\n') return i + 1;
  }
  return 0;
}

/* In place of a head not passed on, lws gets a request marked with the
 * server's token, the status to answer and why; then nothing more. */
static void send_reject(relay *r, int status, const char *why) {
  char req[320 + sizeof r->front->token];
  int n = snprintf(req, sizeof req, "GET / HTTP/1.1\r\n%s: %s %d %s\r\n\r\n",
                   SERVE_REJECT_HEADER, r->front ? r->front->token : "",
                   status, why);
  if (n < 0 || (size_t)n >= sizeof req) n = 0;
  r->passed++;
  relay_send(r, 0, req, (size_t)n);
  drop_input(r);
}

/* A whole head: passes it on, or its stand-in, and frames what follows. */
static void pass_head(relay *r, size_t len) {
  serve_head hd;
  vdx__serve_head_check(r->head, len, &hd);
  if (hd.status) { send_reject(r, hd.status, hd.why); return; }
  r->passed++;
  relay_send(r, 0, r->head, hd.len);
  if (r->state == DROP) return;  /* lws has gone */
  r->state = hd.body > 0 ? BODY : HEAD;
  r->body_left = hd.body;
}

/*
 * Passes the client's bytes on to lws, a request at a time.  Returns how
 * many of the n bytes it took: a new head waits while lws still answers
 * the request before it.
 */
static size_t feed(relay *r, const char *p, size_t n) {
  size_t taken = 0;
  while (taken < n && !r->closing) {
    if (r->state == DROP) return n;
    if (r->state == BODY) {
      size_t k = r->body_left < n - taken ? (size_t)r->body_left : n - taken;
      relay_send(r, 0, p + taken, k);
      taken += k;
      r->body_left -= k;
      if (r->body_left == 0 && r->state == BODY) r->state = HEAD;
      continue;
    }
    if (r->head_len == 0) {
      /* blank lines between requests are allowed */
      while (taken < n && (p[taken] == '\r' || p[taken] == '\n')) taken++;
      if (taken == n || r->answered < r->passed) return taken;
    }
    if (r->head == NULL && (r->head = malloc(SERVE_MAX_HEADERS + 1)) == NULL) {
      relay_close(r);
      return n;
    }
    size_t room = SERVE_MAX_HEADERS + 1 - r->head_len;
    size_t k = n - taken < room ? n - taken : room, from = r->head_len;
    memcpy(r->head + r->head_len, p + taken, k);
    r->head_len += k;
    size_t e = head_end(r->head, r->head_len, from > 2 ? from - 2 : 0);
    if ((e == 0 && r->head_len > SERVE_MAX_HEADERS) || e > SERVE_MAX_HEADERS) {
      send_reject(r, 431, "request header fields too large (the limit is "
                          "16 KiB)");
      return n;
    }
    if (e == 0) return n;  /* k == n - taken: everything was taken */
    taken += k - (r->head_len - e);
    r->head_len = 0;
    pass_head(r, e);
  }
  return n;
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
  drop_input(r);
  r->client_paused = 0;
  client_reading(r);
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

/*
 * After the client's EOF: passes it on to lws once lws has answered every
 * request it got whole (lws closes a connection whose EOF it reads, even
 * in the middle of an answer).  A request cut short in its body will never
 * be answered, so its EOF goes at once.
 */
static void input_done(relay *r) {
  if (!r->client_eof || r->pend || r->inner_shut || r->closing) return;
  if (r->inner_eof) {
    if (r->fin_sent) relay_close(r);  /* else client_shut closes */
    return;
  }
  if (r->state == DROP) return;  /* lws answers, then closes */
  if (r->streaming) {
    /* lws reads nothing while it answers, so it would not see this EOF:
     * the client of a stream has gone, and its connection closes now
     * (this runs in a libuv callback, outside lws's service). */
    struct lws *wsi = r->wsi;
    r->streaming = 0;
    if (wsi) lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
    return;
  }
  if (r->state == HEAD && r->answered < r->passed) return;
  r->inner_shut = 1;
  shut(r, 0);
}

static void client_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  relay *r = s->data;
  if (n > 0) {
    size_t used = feed(r, buf->base, (size_t)n);
    if (used < (size_t)n && !r->closing && r->state != DROP) {
      r->pend = buf->base;  /* held until lws has answered */
      r->pend_off = used;
      r->pend_len = (size_t)n;
      client_reading(r);
      return;
    }
  }
  free(buf->base);
  if (n >= 0 || r->closing) return;
  if (n != UV_EOF) { relay_close(r); return; }
  r->client_eof = 1;
  client_reading(r);
  input_done(r);
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

/* ------------------------------------------------- what serve_http says */

void vdx__serve_front_answered(struct lws *wsi) {
  relay *r = lws_get_opaque_user_data(wsi);
  if (r == NULL || r->closing) return;
  r->answered++;
  r->streaming = 0;
  if (r->pend) {
    r->pend_off += feed(r, r->pend + r->pend_off, r->pend_len - r->pend_off);
    if (r->closing) return;
    if (r->pend_off == r->pend_len || r->state == DROP) {
      free(r->pend);
      r->pend = NULL;
      client_reading(r);
    }
  }
  input_done(r);
}

int vdx__serve_front_streaming(struct lws *wsi) {
  relay *r = lws_get_opaque_user_data(wsi);
  if (r == NULL || r->closing) return 1;
  r->streaming = 1;
  return r->client_eof;  /* gone already: the caller closes */
}

void vdx__serve_front_detach(struct lws *wsi) {
  relay *r = lws_get_opaque_user_data(wsi);
  if (r == NULL) return;
  lws_set_opaque_user_data(wsi, NULL);
  r->wsi = NULL;
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
  r->wsi = lws_adopt_descriptor_vhost(f->vh, LWS_ADOPT_SOCKET | LWS_ADOPT_HTTP,
                                      fd, NULL, NULL);
  if (r->wsi == NULL) {
    relay_close(r);  /* lws closed fds[1] itself */
    return;
  }
  lws_set_opaque_user_data(r->wsi, r);
  uv_tcp_nodelay(&r->client, 1);
  client_reading(r);
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
