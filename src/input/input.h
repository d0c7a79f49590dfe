/*
 * input.h -- real input for the page: key definitions, mouse and key event
 * lists, the runner that sends such a list in order, and base64 files.
 * Used by input_api.c, frame_offset.c and capture.c.
 */
#ifndef VDX_INPUT_H
#define VDX_INPUT_H

#include "vdx.h"
#include "objects.h"

/* Modifier bits of Input.dispatch*Event. */
#define VDX_MOD_ALT   1
#define VDX_MOD_CTRL  2
#define VDX_MOD_META  4
#define VDX_MOD_SHIFT 8

/*
 * Sends the calls of the list at list_idx in order on the page's main
 * session: each item is { method, params } or { sleep = ms }.  Calls go out
 * in batches without waiting for each answer; a sleep, or a second mouse
 * move, waits for the answers to the batch before it.  The waiter resolves
 * with the last answer once every call has been answered, or rejects with
 * the first error.  NULL (error pushed) when nothing could be sent.
 */
vdx_waiter *vdx__input_run(lua_State *L, vdx_page *p, int list_idx,
                           int timeout_ms);

/* Appends one Input.dispatchMouseEvent to the list at list_idx. */
void vdx__input_mouse(lua_State *L, int list_idx, const char *type, double x,
                      double y, const char *button, int click_count,
                      int modifiers);
/* Appends the events of pressing and releasing a key combination such as
 * "Enter", "Control+A" or "Shift+Tab".  Raises on an unknown key name. */
void vdx__input_press(lua_State *L, int list_idx, const char *combo);
/* Appends the events of typing text key by key (keydown, keypress, input,
 * keyup); characters without a key are inserted as text. */
void vdx__input_type(lua_State *L, int list_idx, const char *text,
                     size_t len);
/* Modifier bits from a string ("Shift+Control") or a list of names at idx
 * (nil: 0).  Raises InvalidArgument on an unknown name. */
int vdx__input_modifiers(lua_State *L, int idx);
/* The `buttons` bit of a mouse button name; 0 for an unknown one. */
int vdx__input_button_bit(const char *button);
/* Push the list of modifier names / button names the core accepts (the one
 * source the tool schemas are built from). */
void vdx__input_push_modifier_names(lua_State *L);
void vdx__input_push_button_names(lua_State *L);

/* Decodes base64 (RFC 4648, padding optional); returns the decoded length
 * or -1 on a bad character.  out must hold len * 3 / 4 + 3 bytes. */
long vdx__b64_decode(const char *in, size_t len, unsigned char *out);
/* Writes the base64 data to path through a temporary file beside it,
 * renamed over path, so a failure leaves nothing partial (DiskFull for a
 * full disk, else IOError); pushes { path =, size = } or raises. */
void vdx__b64_write_file(lua_State *L, const char *path, const char *b64,
                         size_t len);

/*
 * frame_offset.c: where the point (x, y) of child frame f's viewport lies
 * in the main frame's viewport.  Resolves { x=, y= }, or { covered = {tag=,
 * id=, class=, text=} } when an element of an ancestor frame is over it.
 */
vdx_waiter *vdx__frame_offset(lua_State *L, vdx_page *p, vdx_frame *f,
                              double x, double y, int timeout);

/* The same; reveal != 0 only brings f into view, level by level (the
 * bridge's frameOrigin scrolls an owner element none of which is in its
 * parent's viewport), and reports nothing of what covers it. */
vdx_waiter *vdx__frame_offset_opts(lua_State *L, vdx_page *p, vdx_frame *f,
                                   double x, double y, int timeout,
                                   int reveal);

#endif
