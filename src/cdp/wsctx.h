/*
 * wsctx.h -- the libwebsockets context of one vdx_loop (made on first use,
 * destroyed with the loop), the vhosts whose client TLS trusts a given CA
 * file, and the certificate failure lws logged last.  Kept apart from
 * ws.c, which owns the connections that run on them.
 */
#ifndef VDX_WSCTX_H
#define VDX_WSCTX_H

#include <stddef.h>

#include <libwebsockets.h>

#include "vdx.h"

typedef struct ca_vhost ca_vhost;

/* The lws context of one vdx_loop. */
typedef struct ws_ctx {
  vdx_loop *lp;
  struct lws_context *lws;   /* set to NULL by lws when fully destroyed */
  int destroying;
  const struct lws_protocols *protocols;  /* every vhost's */
  ca_vhost *cas;             /* vhosts made for a CA file, one per file */
} ws_ctx;

/* The lws context of lp (kept in the loop), made on first use with the
 * given protocols; NULL when it cannot be made. */
ws_ctx *vdx__ws_ctx_of(vdx_loop *lp, const struct lws_protocols *protocols);

/* The vhost whose client TLS trusts the CA file at path (made on first
 * use), or NULL: then err holds a message, or is empty when memory ran
 * out. */
struct lws_vhost *vdx__ws_ca_vhost(ws_ctx *x, const char *path, char *err,
                                   size_t errlen);

/* Starts watching lws's log for a certificate failure (forgetting the
 * last one): before a TLS connection. */
void vdx__ws_tls_watch(void);

/* The certificate failure lws logged since the last watch or take
 * ("self-signed certificate"), or NULL; taking it forgets it. */
const char *vdx__ws_tls_take(char *buf, size_t len);

#endif
