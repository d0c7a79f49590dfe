/*
 * serve_static.c -- the static files of vdx.serve: what a GET or HEAD that
 * no route takes answers from the server's root.  No path leaves the root
 * (".." segments and symlinks that resolve outside it answer 403), missing
 * files answer 404, a directory answers its index.html, and lws streams
 * the file itself, with a MIME type from its extension.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "serve.h"

static const char *mime_type(const char *path) {
  static const char *const types[][2] = {
    {"html", "text/html; charset=utf-8"}, {"htm", "text/html; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"css", "text/css; charset=utf-8"}, {"json", "application/json"},
    {"map", "application/json"}, {"png", "image/png"},
    {"jpg", "image/jpeg"}, {"jpeg", "image/jpeg"}, {"gif", "image/gif"},
    {"webp", "image/webp"}, {"svg", "image/svg+xml"},
    {"txt", "text/plain; charset=utf-8"}, {"wasm", "application/wasm"},
    {"ico", "image/x-icon"}, {"woff2", "font/woff2"}, {"woff", "font/woff"},
    {"xml", "application/xml"}, {"pdf", "application/pdf"}};
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  if (dot && (!slash || dot > slash))
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
      if (strcasecmp(dot + 1, types[i][0]) == 0) return types[i][1];
  return "application/octet-stream";
}

/* True when a segment of path is "..". */
static int has_dotdot(const char *path) {
  for (const char *s = path; (s = strstr(s, "..")) != NULL; s += 2)
    if ((s == path || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
      return 1;
  return 0;
}

/*
 * Answers a HEAD of a file: its headers, no body.  (lws_serve_http_file
 * answers a HEAD too, but leaves the connection unable to read the next
 * request.)
 */
static int head_answer(struct lws *wsi, serve_pss *ps, const char *type,
                       const struct stat *st) {
  static const char cache[] = "cache-control:\0no-store";
  serve_resp r = {0};
  r.status = 200;
  r.ctype = strdup(type);
  r.hdrs = malloc(sizeof cache);
  if (r.ctype == NULL || r.hdrs == NULL) {
    vdx__serve_resp_free(&r);
    return -1;
  }
  memcpy(r.hdrs, cache, sizeof cache);
  r.hdrs_len = r.hdrs_cap = sizeof cache;
  r.body_len = (size_t)st->st_size;  /* the length a GET would get */
  return vdx__serve_send_resp(wsi, ps, &r, 0);
}

/*
 * Serves path (decoded, from the request line) from the root.  Answers
 * 403 for paths that leave the root, 404 for what is not a regular file,
 * a redirect for a directory named without its trailing slash.
 */
int vdx__serve_static(struct lws *wsi, serve_pss *ps, vdx_server *srv,
                      const char *path) {
  char full[PATH_MAX], real[PATH_MAX];
  struct stat st;
  if (srv->root == NULL)
    return vdx__serve_send_text(wsi, ps, 404, "not found\n", NULL);
  if (path[0] != '/' || has_dotdot(path))
    return vdx__serve_send_text(wsi, ps, 403, "forbidden\n", NULL);
  int n = snprintf(full, sizeof full, "%s%s", srv->root, path);
  if (n < 0 || (size_t)n >= sizeof full - 16)
    return vdx__serve_send_text(wsi, ps, 404, "not found\n", NULL);
  if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (full[n - 1] != '/') {
      /* The path arrives decoded: encode it again for the Location. */
      char loc[PATH_MAX];
      size_t k = 0;
      for (const char *q = path; *q && k + 4 < sizeof loc; q++) {
        unsigned char ch = (unsigned char)*q;
        if (isalnum(ch) || strchr("/-_.~", ch)) loc[k++] = (char)ch;
        else k += (size_t)snprintf(loc + k, 4, "%%%02X", ch);
      }
      memcpy(loc + k, "/", 2);
      return vdx__serve_send_text(wsi, ps, 301, "moved\n", loc);
    }
    memcpy(full + n, "index.html", 11);
  }
  if (realpath(full, real) == NULL)
    return vdx__serve_send_text(wsi, ps, errno == EACCES ? 403 : 404,
                                errno == EACCES ? "forbidden\n"
                                                : "not found\n", NULL);
  if (strncmp(real, srv->root, srv->root_len) != 0 ||
      (real[srv->root_len] != '/' && real[srv->root_len] != '\0'))
    return vdx__serve_send_text(wsi, ps, 403, "forbidden\n", NULL);
  if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
    return vdx__serve_send_text(wsi, ps, 404, "not found\n", NULL);
  if (ps->head_only) return head_answer(wsi, ps, mime_type(full), &st);
  unsigned char extra[128], *p = extra;
  if (lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                  (const unsigned char *)"no-store", 8, &p,
                                  extra + sizeof extra))
    return -1;
  n = lws_serve_http_file(wsi, real, mime_type(full), (const char *)extra,
                          (int)(p - extra));
  if (n < 0) return -1;
  /* Else the transaction ends at LWS_CALLBACK_HTTP_FILE_COMPLETION. */
  return n > 0 ? vdx__serve_finish(wsi, ps) : 0;
}
