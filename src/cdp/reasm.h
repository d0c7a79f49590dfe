/*
 * reasm.h -- reassembly of WebSocket messages from the pieces libwebsockets
 * hands over (a frame may come in several pieces, a message in several
 * frames).  Kept apart from ws.c, with no lws calls, so the fuzzer can drive
 * it with any sequence of pieces.
 */
#ifndef VDX_REASM_H
#define VDX_REASM_H

#include <stddef.h>

/* The largest incoming message taken (a frame header that announces more
 * is refused, not allocated). */
#define VDX_REASM_MAX ((size_t)512 * 1024 * 1024)

typedef struct vdx_reasm {
  char *buf;
  size_t len, cap;
  size_t keep;   /* a buffer larger than this is freed after each message */
  size_t ahead;  /* at most this much room is made for bytes only announced */
} vdx_reasm;

/*
 * Takes one piece of len bytes.  `remaining` is what the current frame
 * still has to come after it (lws_remaining_packet_payload) and `final`
 * says the frame ends its message (lws_is_final_fragment).  The buffer is
 * sized for the announced bytes up to r->ahead beyond what has arrived, so
 * a frame header alone cannot make it allocate a large message.  Returns 1 when
 * the message is complete (*msg, *n then hold it until the next call),
 * 0 when more is to come, -1 when it cannot be held (over VDX_REASM_MAX or
 * out of memory; *n then says how large it would have been).  After -1 the
 * partial message is dropped, so the next piece starts a new one.
 */
int vdx__reasm_take(vdx_reasm *r, const void *in, size_t len, size_t remaining,
                    int final, const char **msg, size_t *n);
/* Between messages: frees a buffer larger than r->keep (call it once a
 * complete message has been used). */
void vdx__reasm_trim(vdx_reasm *r);
/* Frees the buffer. */
void vdx__reasm_free(vdx_reasm *r);

#endif
