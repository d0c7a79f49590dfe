/*
 * serve_head.c -- the framing rules of RFC 9112 for a request head, checked
 * by the front (serve_front.c) before libwebsockets sees the head.
 *
 * The front and lws each parse the head; a request they read differently
 * is how one request hides another (request smuggling).  So the front
 * passes on only heads that both read the same way, and answers the rest
 * itself, then closes (RFC 9112 §6.3, §9.6):
 *
 *   400  a malformed request line or field line (whitespace before the
 *        colon, a folded line, a bare CR, NUL or another control byte in a
 *        value), a Content-Length that is not one number (signed, negative,
 *        junk, or two that differ), Transfer-Encoding together with
 *        Content-Length, on HTTP/1.0 or without chunked as the final
 *        coding, an HTTP/1.1 request with no Host or more than one;
 *   411  a chunked request body (lws 4.1 cannot read one);
 *   431  more fields than lws can index;
 *   501  a method the server does not implement, a transfer coding it does
 *        not know;
 *   505  an HTTP version other than 1.x (a later 1.x is read as 1.1).
 *
 * A bare LF ends a line as CRLF does (RFC 9112 §2.2 allows it; lws does
 * too).  Upgrade and HTTP2-Settings lines are dropped: the server speaks
 * HTTP/1.1 only and ignores an upgrade, as RFC 9110 §7.8 allows, where
 * lws would otherwise stall the connection.  The fields are otherwise
 * passed on as they came, but for one moved to the end (indexed_last).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "serve.h"

/* lws indexes every field of a name it knows, and every query parameter,
 * in one table of WSI_TOKEN_COUNT entries (about 92 free); past it lws
 * closes the connection without a reply.  The front keeps a margin. */
#define MAX_INDEXED 80

static const char *const methods[] = {
  "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", NULL};

/* RFC 9110 §5.6.2: tchar. */
static int is_tchar(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z') || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* RFC 9110 §5.5: a field value byte (VCHAR, obs-text, SP, HTAB). */
static int is_value_byte(unsigned char c) {
  return c == ' ' || c == '\t' || (c >= 0x21 && c != 0x7f);
}

/* Does lws index fields named n[0..len)?  Its names end in ':'. */
static int is_indexed(const char *n, size_t len) {
  for (int t = 0; t < WSI_TOKEN_COUNT; t++) {
    const char *s = (const char *)lws_token_to_string((enum lws_token_indexes)t);
    if (s && strlen(s) == len + 1 && s[len] == ':' && strncasecmp(s, n, len) == 0)
      return 1;
  }
  return 0;
}

/* One field line: name [0, nlen), value [v, v + vlen) without its OWS. */
typedef struct line {
  const char *name, *v;
  size_t nlen, vlen;
} line;

static int named(const line *l, const char *name) {
  return l->nlen == strlen(name) && strncasecmp(l->name, name, l->nlen) == 0;
}

/* Parses a Content-Length value: one or more equal decimal numbers,
 * comma separated (RFC 9110 §8.6).  Returns 0, or -1 when it is not. */
static int parse_length(const char *s, size_t n, unsigned long long *out,
                        int *seen) {
  size_t i = 0;
  for (;;) {
    unsigned long long v = 0;
    size_t digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
      if (v > (~0ull - 9) / 10) return -1;  /* overflow */
      v = v * 10 + (unsigned long long)(s[i++] - '0');
      digits++;
    }
    if (digits == 0 || v > (unsigned long long)9223372036854775807ll)
      return -1;
    if (*seen && v != *out) return -1;
    *out = v;
    *seen = 1;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i == n) return 0;
    if (s[i++] != ',') return -1;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  }
}

/* Reads a Transfer-Encoding list: sets *chunked_last when chunked is
 * the last coding, *others when another coding is named.  Returns 0, or
 * 400 for a coding after chunked or one that is not a token. */
static int check_codings(const char *s, size_t n, int *chunked_last,
                         int *others) {
  size_t i = 0;
  while (i < n) {
    size_t b = i;
    while (i < n && s[i] != ',') i++;
    size_t e = i;
    if (i < n) i++;
    while (b < e && (s[b] == ' ' || s[b] == '\t')) b++;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) e--;
    if (b == e) continue;  /* empty list elements are allowed */
    if (*chunked_last) return 400;  /* a coding after chunked */
    if (e - b == 7 && strncasecmp(s + b, "chunked", 7) == 0) {
      *chunked_last = 1;
    } else {
      for (size_t k = b; k < e; k++)
        if (!is_tchar((unsigned char)s[k]) && s[k] != ';' && s[k] != '=' &&
            s[k] != ' ' && s[k] != '"')
          return 400;
      *others = 1;
    }
  }
  return 0;
}

static void reject(serve_head *out, int status, const char *why) {
  if (out->status == 0) {
    out->status = status;
    out->why = why;
  }
}

/* Checks the request line [h, e): method SP target SP version. */
static void check_request_line(char *h, char *e, serve_head *out,
                               int *http10, size_t *nargs) {
  char *sp1 = memchr(h, ' ', (size_t)(e - h));
  char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(e - sp1 - 1)) : NULL;
  if (sp1 == NULL || sp2 == NULL || sp1 == h || sp2 == sp1 + 1 ||
      memchr(sp2 + 1, ' ', (size_t)(e - sp2 - 1))) {
    reject(out, 400, "bad request line (expected METHOD SP TARGET SP "
                     "HTTP/1.1)");
    return;
  }
  for (const char *p = h; p < sp1; p++)
    if (!is_tchar((unsigned char)*p)) {
      reject(out, 400, "bad request method");
      return;
    }
  for (const char *p = sp1 + 1; p < sp2; p++)
    if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f) {
      reject(out, 400, "bad request target (control, space or non-ASCII "
                       "byte)");
      return;
    }
  if (sp1[1] != '/' && !(sp2 - sp1 == 2 && sp1[1] == '*') &&
      strncasecmp(sp1 + 1, "http://", 7) != 0) {
    reject(out, 400, "bad request target (expected a path)");
    return;
  }
  char *v = sp2 + 1;
  size_t vl = (size_t)(e - v);
  if (vl != 8 || strncmp(v, "HTTP/", 5) != 0 || v[6] != '.' ||
      v[5] < '0' || v[5] > '9' || v[7] < '0' || v[7] > '9') {
    reject(out, 400, "bad HTTP version in the request line");
    return;
  }
  if (v[5] != '1') {
    reject(out, 505, "HTTP version not supported (use HTTP/1.1)");
    return;
  }
  /* A later 1.x is read as 1.1, the highest this server implements
   * (RFC 9110 §2.5); lws knows only 1.0 and 1.1. */
  if (v[7] > '1') v[7] = '1';
  *http10 = v[7] == '0';
  int known = 0;
  for (int i = 0; methods[i]; i++)
    if ((size_t)(sp1 - h) == strlen(methods[i]) &&
        strncmp(h, methods[i], (size_t)(sp1 - h)) == 0)
      known = 1;
  if (!known) reject(out, 501, "method not implemented");
  const char *q = memchr(sp1 + 1, '?', (size_t)(sp2 - sp1 - 1));
  if (q) {
    *nargs = 1;
    for (q++; q < sp2; q++) *nargs += *q == '&' || *q == ';';
  }
}

/* Splits field line [s, e) into l; returns 0 or 400's reason. */
static const char *split_line(const char *s, const char *e, line *l) {
  const char *c = s;
  while (c < e && is_tchar((unsigned char)*c)) c++;
  if (c == s || c == e || *c != ':')
    return c > s && c < e && (*c == ' ' || *c == '\t')
               ? "whitespace between a field name and its colon"
               : "bad field line (expected name: value)";
  l->name = s;
  l->nlen = (size_t)(c - s);
  const char *v = c + 1;
  for (const char *p = v; p < e; p++)
    if (!is_value_byte((unsigned char)*p))
      return "control byte (NUL, CR, ...) in a field value";
  while (v < e && (*v == ' ' || *v == '\t')) v++;
  while (e > v && (e[-1] == ' ' || e[-1] == '\t')) e--;
  l->v = v;
  l->vlen = (size_t)(e - v);
  return NULL;
}

/*
 * lws 4.1 stalls on a head whose last field has a name it does not index
 * ("X-Token: 1") when the head is not the connection's first.  Field
 * order between names does not matter (RFC 9110 §5.3), so the last
 * indexed field line of h[0..len) moves to the end; a head with none
 * stays as it is.
 */
static void indexed_last(char *h, size_t len) {
  char *end = h + len, *s = memchr(h, '\n', len), *ls = NULL, *le = NULL;
  if (s == NULL) return;
  for (s++; s < end;) {
    char *nl = memchr(s, '\n', (size_t)(end - s));
    char *next = nl ? nl + 1 : end;
    const char *c = memchr(s, ':', (size_t)(next - s));
    if (*s == '\r' || *s == '\n' || c == NULL) break;  /* the blank line */
    if (is_indexed(s, (size_t)(c - s))) { ls = s; le = next; }
    s = next;
  }
  if (ls == NULL || le == s) return;  /* none, or already last */
  size_t n = (size_t)(le - ls);
  char *tmp = malloc(n);
  if (tmp == NULL) return;
  memcpy(tmp, ls, n);
  memmove(ls, le, (size_t)(s - le));
  memcpy(s - n, tmp, n);
  free(tmp);
}

void vdx__serve_head_check(char *h, size_t len, serve_head *out) {
  char *end = h + len, *w = NULL, *s = h;
  int http10 = 0, hosts = 0, has_len = 0, te = 0, chunked_last = 0;
  int others = 0, te_status = 0;
  size_t indexed = 0;
  memset(out, 0, sizeof *out);
  out->len = len;
  /* A CR must end a line (CRLF): a bare CR is invalid (RFC 9112 §2.2). */
  for (char *p = memchr(h, '\r', len); p; p = memchr(p + 1, '\r',
                                                      (size_t)(end - p - 1)))
    if (p + 1 == end || p[1] != '\n') {
      reject(out, 400, "bare CR in the request head");
      return;
    }
  for (int first = 1; s < end; first = 0) {
    char *nl = memchr(s, '\n', (size_t)(end - s));
    char *next = nl ? nl + 1 : end;
    char *e = nl && nl > s && nl[-1] == '\r' ? nl - 1 : (nl ? nl : end);
    if (e == s) break;  /* the blank line */
    if (first) {
      check_request_line(s, e, out, &http10, &indexed);
      if (out->status) return;
      s = next;
      continue;
    }
    line l;
    const char *bad = *s == ' ' || *s == '\t'
                          ? "folded or indented field line (obs-fold)"
                          : split_line(s, e, &l);
    if (bad) { reject(out, 400, bad); return; }
    if (named(&l, "upgrade") || named(&l, "http2-settings")) {
      if (w == NULL) w = s;  /* dropped: the lines after it move up */
      s = next;
      continue;
    }
    if (named(&l, "host")) {
      hosts++;
      for (size_t i = 0; i < l.vlen; i++)
        if (strchr(" \t/\\@?#", l.v[i])) {
          reject(out, 400, "bad Host field value");
          return;
        }
    } else if (named(&l, "content-length")) {
      if (parse_length(l.v, l.vlen, &out->body, &has_len) != 0) {
        reject(out, 400, "bad Content-Length (one unsigned decimal number, "
                         "the same in every field)");
        return;
      }
    } else if (named(&l, "transfer-encoding")) {
      te = 1;
      int st = check_codings(l.v, l.vlen, &chunked_last, &others);
      if (st && !te_status) te_status = st;
    }
    if (is_indexed(l.name, l.nlen)) indexed++;
    if (w) {
      memmove(w, s, (size_t)(next - s));
      w += next - s;
    }
    s = next;
  }
  if (w) {  /* the blank line, after the lines that moved */
    memmove(w, s, (size_t)(end - s));
    out->len = (size_t)(w - h) + (size_t)(end - s);
  }
  if (!http10 && hosts != 1)
    reject(out, 400, hosts ? "more than one Host field" : "no Host field");
  else if (hosts > 1)
    reject(out, 400, "more than one Host field");
  if (te && http10)
    reject(out, 400, "Transfer-Encoding in an HTTP/1.0 request");
  if (te && has_len)
    reject(out, 400, "both Transfer-Encoding and Content-Length");
  if (te && (te_status == 400 || !chunked_last))
    reject(out, 400, "Transfer-Encoding without chunked as the final coding");
  if (te && others)
    reject(out, 501, "transfer coding not implemented (only chunked)");
  if (te)
    reject(out, 411, "chunked request bodies are not supported: send a "
                     "Content-Length");
  if (indexed > MAX_INDEXED)
    reject(out, 431, "request header fields too large (at most 80 fields of "
                     "common names and query parameters together)");
  if (out->status == 0) indexed_last(h, out->len);
}
