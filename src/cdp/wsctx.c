/*
 * wsctx.c -- the libwebsockets context of a vdx_loop, its CA vhosts, and
 * the certificate failures lws reports only in its log (see wsctx.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wsctx.h"

#define WS_HANDSHAKE_SECS 120   /* lws's own bound on a handshake */

struct ca_vhost {
  struct ca_vhost *next;
  struct lws_vhost *vh;
  char path[];               /* the CA file its client TLS trusts */
};

/* ------------------------------------------------- certificate failures */

/* The last certificate failure lws logged ("self-signed certificate"),
 * which the connection error it reports next does not carry. */
static char tls_why[160];

/* lws's log: certificate failures are kept for that error, not printed. */
static void ws_log(int level, const char *line) {
  const char *at = strstr(line, "SSL error: ");
  if (at == NULL) {
    lwsl_emit_stderr(level, line);
    return;
  }
  at += strlen("SSL error: ");
  size_t n = strcspn(at, "(\r\n");
  while (n > 0 && at[n - 1] == ' ') n--;
  if (n >= sizeof tls_why) n = sizeof tls_why - 1;
  memcpy(tls_why, at, n);
  tls_why[n] = '\0';
}

void vdx__ws_tls_watch(void) {
  lws_set_log_level(LLL_ERR, ws_log);   /* vdx.serve may have reset it */
  tls_why[0] = '\0';
}

const char *vdx__ws_tls_take(char *buf, size_t len) {
  if (tls_why[0] == '\0') return NULL;
  snprintf(buf, len, "%s", tls_why);
  tls_why[0] = '\0';
  return buf;
}

/* ------------------------------------------------------- the context */

static void count_closing(uv_handle_t *h, void *arg) {
  if (uv_is_closing(h)) ++*(int *)arg;
}

/*
 * Destroys the lws context of a loop being torn down.  With a foreign loop
 * lws 4.1 closes its uv handles in stages, from close callbacks, and frees
 * the context only on a second lws_context_destroy; so the loop is turned
 * (without blocking) until no handle is closing any more.  This must end
 * before the loop closes the remaining handles itself.
 */
static void ctx_teardown(void *data) {
  ws_ctx *x = data;
  uv_loop_t *loop = vdx__uv_of(x->lp);
  *vdx__loop_ws(x->lp) = NULL;
  x->destroying = 1;
  if (x->lws) lws_context_destroy(x->lws);
  for (int i = 0, closing = 1; x->lws && closing > 0 && i < 100; i++) {
    uv_run(loop, UV_RUN_NOWAIT);
    closing = 0;
    uv_walk(loop, count_closing, &closing);
  }
  if (x->lws) lws_context_destroy(x->lws);
  while (x->cas) {
    ca_vhost *v = x->cas;
    x->cas = v->next;
    free(v);
  }
  free(x);
}

ws_ctx *vdx__ws_ctx_of(vdx_loop *lp, const struct lws_protocols *protocols) {
  void **slot = vdx__loop_ws(lp);
  if (*slot) return *slot;
  ws_ctx *x = calloc(1, sizeof *x);
  if (x == NULL) return NULL;
  x->lp = lp;
  x->protocols = protocols;
  lws_set_log_level(LLL_ERR, ws_log);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  void *loops[1] = { vdx__uv_of(lp) };
  /* The default vhost's client TLS trusts the system's CA store. */
  info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
  info.foreign_loops = loops;
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = protocols;
  /* lws gives up on a handshake after 5 s by default; a farm launches a
   * browser before it answers the upgrade, which takes longer on a busy
   * machine.  The caller's waiter (timeout_ms) is the bound that counts. */
  info.timeout_secs = WS_HANDSHAKE_SECS;
  info.pcontext = &x->lws;
  info.gid = (gid_t)-1;
  info.uid = (uid_t)-1;
  x->lws = lws_create_context(&info);
  if (x->lws == NULL) {
    free(x);
    return NULL;
  }
  *slot = x;
  vdx__on_teardown(lp, ctx_teardown, x);
  return x;
}

struct lws_vhost *vdx__ws_ca_vhost(ws_ctx *x, const char *path, char *err,
                                   size_t errlen) {
  for (ca_vhost *v = x->cas; v; v = v->next)
    if (strcmp(v->path, path) == 0) return v->vh;
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(err, errlen, "cannot read the CA file %s", path);
    return NULL;
  }
  fclose(f);
  ca_vhost *v = calloc(1, sizeof *v + strlen(path) + 1);
  if (v == NULL) return NULL;
  strcpy(v->path, path);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  char name[32];
  snprintf(name, sizeof name, "ca%p", (void *)v);
  info.vhost_name = name;
  info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = x->protocols;
  info.client_ssl_ca_filepath = v->path;
  info.timeout_secs = WS_HANDSHAKE_SECS;
  v->vh = lws_create_vhost(x->lws, &info);
  if (v->vh == NULL) {
    snprintf(err, errlen, "cannot use the CA file %s (not a PEM "
             "certificate?)", path);
    free(v);
    return NULL;
  }
  v->next = x->cas;
  x->cas = v;
  return v->vh;
}
