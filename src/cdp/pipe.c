/*
 * pipe.c -- the pipe transport: --remote-debugging-pipe, where the browser
 * reads NUL-terminated JSON messages on its fd 3 and writes them on fd 4.
 *
 * Guarantees: every complete message is delivered once, in order, whatever
 * its size; end of file or a read error reports the loss once; close()
 * stops all callbacks into the connection and frees the transport after
 * libuv has closed both handles.
 */
#include <stdlib.h>
#include <string.h>

#include "vdx.h"

#define RX_CHUNK (64 * 1024)

typedef struct pipe_transport {
  vdx_transport base;       /* must be first */
  uv_pipe_t *out;           /* we write: the browser's fd 3 */
  uv_pipe_t *in;            /* we read: the browser's fd 4 */
  char *buf;
  size_t len, cap, scanned;
  int closing, open_handles, in_read;
} pipe_transport;

typedef struct write_req {
  uv_write_t req;
  char *data;
} write_req;

static void write_cb(uv_write_t *req, int status) {
  write_req *wr = (write_req *)req;
  (void)status;  /* a failed write shows up as EOF on the read side */
  free(wr->data);
  free(wr);
}

static int pipe_send(vdx_transport *t, const char *data, size_t len) {
  pipe_transport *p = (pipe_transport *)t;
  if (p->closing) return UV_EPIPE;
  write_req *wr = malloc(sizeof *wr);
  char *copy = malloc(len + 1);
  if (wr == NULL || copy == NULL) {
    free(wr);
    free(copy);
    return UV_ENOMEM;
  }
  memcpy(copy, data, len);
  copy[len] = '\0';
  wr->data = copy;
  uv_buf_t b = uv_buf_init(copy, (unsigned)(len + 1));
  int rc = uv_write(&wr->req, (uv_stream_t *)p->out, &b, 1, write_cb);
  if (rc < 0) {
    free(copy);
    free(wr);
  }
  return rc;
}

static void handle_closed(uv_handle_t *h) {
  pipe_transport *p = h->data;
  free(h);
  if (--p->open_handles == 0) {
    free(p->buf);
    free(p);
  }
}

static void pipe_close(vdx_transport *t) {
  pipe_transport *p = (pipe_transport *)t;
  if (p->closing) return;
  p->closing = 1;
  p->base.conn = NULL;
  uv_close((uv_handle_t *)p->out, handle_closed);
  uv_close((uv_handle_t *)p->in, handle_closed);
}

static void alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b) {
  pipe_transport *p = h->data;
  (void)hint;
  if (p->cap - p->len < RX_CHUNK) {
    size_t cap = p->cap ? p->cap : RX_CHUNK * 4;
    while (cap - p->len < RX_CHUNK) cap *= 2;
    char *nb = realloc(p->buf, cap);
    if (nb == NULL) {
      *b = uv_buf_init(NULL, 0);
      return;
    }
    p->buf = nb;
    p->cap = cap;
  }
  *b = uv_buf_init(p->buf + p->len, (unsigned)(p->cap - p->len));
}

static void lost(pipe_transport *p, const char *why) {
  vdx_conn *c = p->base.conn;
  if (c) vdx__conn_lost(c, why);  /* calls pipe_close */
  else pipe_close(&p->base);
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  pipe_transport *p = s->data;
  (void)b;
  if (p->closing) return;
  if (n < 0) {
    lost(p, n == UV_EOF ? "the browser closed the pipe"
                        : uv_strerror((int)n));
    return;
  }
  if (n == 0) return;
  p->len += (size_t)n;
  size_t start = 0;
  char *nul;
  while (!p->closing &&
         (nul = memchr(p->buf + p->scanned, '\0', p->len - p->scanned))) {
    size_t end = (size_t)(nul - p->buf);
    if (p->base.conn) vdx__conn_receive(p->base.conn, p->buf + start, end - start);
    start = p->scanned = end + 1;
  }
  if (p->closing) return;
  if (start > 0) {
    memmove(p->buf, p->buf + start, p->len - start);
    p->len -= start;
    p->scanned -= start;
  }
  p->scanned = p->len;
  /* Give memory back after a very large message. */
  if (p->len == 0 && p->cap > (size_t)RX_CHUNK * 64) {
    free(p->buf);
    p->buf = NULL;
    p->cap = 0;
  }
}

vdx_transport *vdx__pipe_transport(uv_loop_t *loop, uv_pipe_t *to_browser,
                                   uv_pipe_t *from_browser) {
  (void)loop;
  pipe_transport *p = calloc(1, sizeof *p);
  if (p == NULL) return NULL;
  p->base.send = pipe_send;
  p->base.close = pipe_close;
  p->out = to_browser;
  p->in = from_browser;
  p->out->data = p;
  p->in->data = p;
  p->open_handles = 2;
  uv_read_start((uv_stream_t *)p->in, alloc_cb, read_cb);
  return &p->base;
}
