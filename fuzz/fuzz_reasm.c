/*
 * fuzz_reasm.c -- libFuzzer target for the WebSocket message reassembly of
 * the C core (src/cdp/reasm.c, which ws.c feeds with what libwebsockets hands
 * over).  The input is a sequence of pieces, each with the two facts lws
 * reports with it: how much of its frame is still to come (`remaining`,
 * from zero to far beyond the size limit) and whether its frame ends the
 * message.  A simple model keeps the bytes the message should hold.
 *
 * Guarantees checked: no crash, no sanitizer report, no leak; a message is
 * complete exactly when its last frame's last piece arrives, and then holds
 * every byte of its pieces in order; a message announced beyond the limit
 * is refused without allocating it, and the next piece starts afresh; a
 * large announcement alone never allocates more than r.ahead beyond what
 * has arrived.
 *
 * Input layout, repeated: one flags byte (bit 0: the frame is final;
 * bits 1-2: remaining is 0, one byte, two bytes, or around the limit), the
 * remaining bytes it asks for, one length byte, then that many payload
 * bytes (fewer at the end of the input).
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/cdp/reasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vdx_reasm r = { .keep = 4096, .ahead = 8192 };
  uint8_t *model = malloc(size + 1);
  size_t mlen = 0, i = 0;
  assert(model != NULL);
  while (i < size) {
    uint8_t flags = data[i++];
    int final = flags & 1;
    size_t remaining = 0;
    switch ((flags >> 1) & 3) {
    case 1:
      if (i < size) remaining = data[i++];
      break;
    case 2:
      for (int k = 0; k < 2 && i < size; k++) remaining = (remaining << 8) | data[i++];
      break;
    case 3:
      /* Around the limit: both sides of it. */
      remaining = VDX_REASM_MAX - 128 + (i < size ? data[i++] : 0);
      break;
    }
    size_t len = i < size ? data[i++] : 0;
    if (len > size - i) len = size - i;
    const char *msg = NULL;
    size_t n = 0;
    int rc = vdx__reasm_take(&r, data + i, len, remaining, final, &msg, &n);
    memcpy(model + mlen, data + i, len);
    mlen += len;
    i += len;
    if (remaining > VDX_REASM_MAX - (mlen - len) - len || mlen > VDX_REASM_MAX) {
      assert(rc == -1);                 /* refused, nothing allocated for it */
      assert(r.cap <= r.keep);
      mlen = 0;
      continue;
    }
    assert(rc != -1);                   /* anything within the limit fits */
    /* Announced bytes alone never grow the buffer beyond r.ahead. */
    assert(r.cap <= 2 * (mlen + r.ahead) + 4096);
    if (remaining > 0 || !final) {
      assert(rc == 0);
      continue;
    }
    assert(rc == 1);
    assert(n == mlen);
    assert(n == 0 || memcmp(msg, model, n) == 0);
    mlen = 0;
    vdx__reasm_trim(&r);
    assert(r.len == 0 && r.cap <= r.keep);
  }
  vdx__reasm_free(&r);
  free(model);
  return 0;
}
