/*
 * reasm.c -- WebSocket message reassembly (see reasm.h): pieces are
 * appended to one buffer that grows geometrically, sized ahead (within a
 * bound) from what the frame header announces, and a complete message is
 * handed out in place.  A buffer grown for a large message is freed once that message
 * is out, so a single 50 MiB reply does not pin 50 MiB for the life of
 * the connection.
 */
#include <stdlib.h>
#include <string.h>

#include "reasm.h"

/* Grows r->buf to hold at least want bytes. */
static int grow(vdx_reasm *r, size_t want) {
  if (want <= r->cap) return 0;
  size_t cap = r->cap ? r->cap : 4096;
  while (cap < want) cap = cap > VDX_REASM_MAX / 2 ? want : cap * 2;
  char *nb = realloc(r->buf, cap);
  if (nb == NULL) return -1;
  r->buf = nb;
  r->cap = cap;
  return 0;
}

/* Starts afresh after a dropped message. */
static void reset(vdx_reasm *r) {
  r->len = 0;
  vdx__reasm_trim(r);
}

int vdx__reasm_take(vdx_reasm *r, const void *in, size_t len, size_t remaining,
                    int final, const char **msg, size_t *n) {
  /* Checked one term at a time so that no sum can overflow. */
  if (len > VDX_REASM_MAX - r->len || remaining > VDX_REASM_MAX - r->len - len) {
    *n = len > VDX_REASM_MAX - r->len ? VDX_REASM_MAX : r->len + len + remaining;
    reset(r);
    return -1;
  }
  if (grow(r, r->len + len + (remaining < r->ahead ? remaining : r->ahead)) < 0) {
    *n = r->len + len + remaining;
    reset(r);
    return -1;
  }
  if (len) memcpy(r->buf + r->len, in, len);
  r->len += len;
  if (remaining > 0 || !final) return 0;
  /* Complete: handed out in place until the next call or trim. */
  *msg = r->buf ? r->buf : "";
  *n = r->len;
  r->len = 0;
  return 1;
}

void vdx__reasm_trim(vdx_reasm *r) {
  if (r->len == 0 && r->cap > r->keep) {
    free(r->buf);
    r->buf = NULL;
    r->cap = 0;
  }
}

void vdx__reasm_free(vdx_reasm *r) {
  free(r->buf);
  r->buf = NULL;
  r->len = r->cap = 0;
}
