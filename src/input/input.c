/*
 * input.c -- key definitions (a US keyboard), the mouse and key events of
 * Input.dispatchMouseEvent / Input.dispatchKeyEvent, the runner that sends
 * a list of such calls in order, and base64 files for screenshots and PDFs.
 *
 * The runner sends the calls of a list in order, in batches that do not
 * wait for each answer (see the runner below): the page sees press after
 * move and release after press, as from a person.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "task.h"

/* ------------------------------------------------------------- keys */

typedef struct keydef {
  const char *name;      /* what press_key accepts */
  const char *key;       /* KeyboardEvent.key */
  const char *code;      /* KeyboardEvent.code */
  int keycode;           /* windowsVirtualKeyCode */
  const char *text;      /* text the key types, or NULL */
  int location;
} keydef;

static const keydef NAMED[] = {
  {"Enter", "Enter", "Enter", 13, "\r", 0},
  {"Tab", "Tab", "Tab", 9, NULL, 0},
  {"Backspace", "Backspace", "Backspace", 8, NULL, 0},
  {"Delete", "Delete", "Delete", 46, NULL, 0},
  {"Escape", "Escape", "Escape", 27, NULL, 0},
  {"ArrowUp", "ArrowUp", "ArrowUp", 38, NULL, 0},
  {"ArrowDown", "ArrowDown", "ArrowDown", 40, NULL, 0},
  {"ArrowLeft", "ArrowLeft", "ArrowLeft", 37, NULL, 0},
  {"ArrowRight", "ArrowRight", "ArrowRight", 39, NULL, 0},
  {"Home", "Home", "Home", 36, NULL, 0},
  {"End", "End", "End", 35, NULL, 0},
  {"PageUp", "PageUp", "PageUp", 33, NULL, 0},
  {"PageDown", "PageDown", "PageDown", 34, NULL, 0},
  {"Insert", "Insert", "Insert", 45, NULL, 0},
  {"Space", " ", "Space", 32, " ", 0},
  {"Shift", "Shift", "ShiftLeft", 16, NULL, 1},
  {"Control", "Control", "ControlLeft", 17, NULL, 1},
  {"Alt", "Alt", "AltLeft", 18, NULL, 1},
  {"Meta", "Meta", "MetaLeft", 91, NULL, 1},
  {"F1", "F1", "F1", 112, NULL, 0}, {"F2", "F2", "F2", 113, NULL, 0},
  {"F3", "F3", "F3", 114, NULL, 0}, {"F4", "F4", "F4", 115, NULL, 0},
  {"F5", "F5", "F5", 116, NULL, 0}, {"F6", "F6", "F6", 117, NULL, 0},
  {"F7", "F7", "F7", 118, NULL, 0}, {"F8", "F8", "F8", 119, NULL, 0},
  {"F9", "F9", "F9", 120, NULL, 0}, {"F10", "F10", "F10", 121, NULL, 0},
  {"F11", "F11", "F11", 122, NULL, 0}, {"F12", "F12", "F12", 123, NULL, 0},
};

static const struct { const char *alias, *name; } ALIASES[] = {
  /* ControlOrMeta is Control here, as for the modifiers (below): the
   * browser runs on Linux, and Playwright means Meta only on macOS. */
  {"Ctrl", "Control"}, {"Control", "Control"}, {"ControlOrMeta", "Control"}, {"Cmd", "Meta"},
  {"Command", "Meta"}, {"Esc", "Escape"}, {"Return", "Enter"},
  {"Del", "Delete"}, {"Up", "ArrowUp"}, {"Down", "ArrowDown"},
  {"Left", "ArrowLeft"}, {"Right", "ArrowRight"}, {"Option", "Alt"},
};

/* US punctuation: the character, its code, key code, and whether it
 * needs Shift. */
static const struct { char ch; const char *code; int keycode, shift; } PUNCT[] = {
  {'-', "Minus", 189, 0}, {'_', "Minus", 189, 1}, {'=', "Equal", 187, 0},
  {'+', "Equal", 187, 1}, {'[', "BracketLeft", 219, 0},
  {'{', "BracketLeft", 219, 1}, {']', "BracketRight", 221, 0},
  {'}', "BracketRight", 221, 1}, {'\\', "Backslash", 220, 0},
  {'|', "Backslash", 220, 1}, {';', "Semicolon", 186, 0},
  {':', "Semicolon", 186, 1}, {'\'', "Quote", 222, 0}, {'"', "Quote", 222, 1},
  {',', "Comma", 188, 0}, {'<', "Comma", 188, 1}, {'.', "Period", 190, 0},
  {'>', "Period", 190, 1}, {'/', "Slash", 191, 0}, {'?', "Slash", 191, 1},
  {'`', "Backquote", 192, 0}, {'~', "Backquote", 192, 1},
  {'!', "Digit1", 49, 1}, {'@', "Digit2", 50, 1}, {'#', "Digit3", 51, 1},
  {'$', "Digit4", 52, 1}, {'%', "Digit5", 53, 1}, {'^', "Digit6", 54, 1},
  {'&', "Digit7", 55, 1}, {'*', "Digit8", 56, 1}, {'(', "Digit9", 57, 1},
  {')', "Digit0", 48, 1},
};

/* Fills *k for one printable ASCII character; *shift says whether the
 * character needs Shift.  Returns 0 when the keyboard has no such key. */
static int char_key(char c, keydef *k, char *keybuf, char *codebuf,
                    int *shift) {
  memset(k, 0, sizeof *k);
  *shift = 0;
  keybuf[0] = c;
  keybuf[1] = '\0';
  k->key = keybuf;
  k->text = keybuf;
  k->code = codebuf;
  if (c >= 'a' && c <= 'z') {
    snprintf(codebuf, 16, "Key%c", c - 'a' + 'A');
    k->keycode = c - 'a' + 'A';
  } else if (c >= 'A' && c <= 'Z') {
    snprintf(codebuf, 16, "Key%c", c);
    k->keycode = c;
    *shift = 1;
  } else if (c >= '0' && c <= '9') {
    snprintf(codebuf, 16, "Digit%c", c);
    k->keycode = c;
  } else if (c == ' ') {
    *k = NAMED[14];
  } else if (c == '\n' || c == '\r') {
    *k = NAMED[0];
  } else if (c == '\t') {
    *k = NAMED[1];
  } else {
    for (size_t i = 0; i < sizeof PUNCT / sizeof PUNCT[0]; i++)
      if (PUNCT[i].ch == c) {
        snprintf(codebuf, 16, "%s", PUNCT[i].code);
        k->keycode = PUNCT[i].keycode;
        *shift = PUNCT[i].shift;
        return 1;
      }
    return 0;
  }
  return 1;
}

/* Looks up a key name of a combination: a named key or one character. */
static int find_key(const char *name, keydef *k, char *keybuf, char *codebuf,
                    int *shift) {
  *shift = 0;
  for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
    if (strcmp(name, ALIASES[i].alias) == 0) { name = ALIASES[i].name; break; }
  for (size_t i = 0; i < sizeof NAMED / sizeof NAMED[0]; i++)
    if (strcmp(name, NAMED[i].name) == 0) { *k = NAMED[i]; return 1; }
  if (name[0] && name[1] == '\0') return char_key(name[0], k, keybuf, codebuf, shift);
  return 0;
}

/* The modifier names the core accepts, in the order tool schemas list
 * them, with their Input.dispatch*Event bits.  ControlOrMeta is Control:
 * the browser runs on Linux (Playwright's meaning: Meta only on macOS). */
typedef struct named_bit { const char *name; int bit; } named_bit;

/* Pushes the list of the names of table t (n entries). */
static void push_names(lua_State *L, const named_bit *t, int n) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushstring(L, t[i].name);
    lua_rawseti(L, -2, i + 1);
  }
}

static const named_bit MODIFIERS[] = {
  {"Alt", VDX_MOD_ALT}, {"Control", VDX_MOD_CTRL},
  {"ControlOrMeta", VDX_MOD_CTRL}, {"Meta", VDX_MOD_META},
  {"Shift", VDX_MOD_SHIFT},
};

static int modifier_bit(const char *name) {
  if (strcmp(name, "Ctrl") == 0) name = "Control";
  for (size_t i = 0; i < sizeof MODIFIERS / sizeof MODIFIERS[0]; i++)
    if (strcmp(name, MODIFIERS[i].name) == 0) return MODIFIERS[i].bit;
  return 0;
}

void vdx__input_push_modifier_names(lua_State *L) {
  push_names(L, MODIFIERS, (int)(sizeof MODIFIERS / sizeof MODIFIERS[0]));
}

static void append(lua_State *L, int list_idx) {
  /* stack: item -> */
  lua_rawseti(L, list_idx, (lua_Integer)luaL_len(L, list_idx) + 1);
}

/* Appends a key event; text only when no command modifier is held. */
static void key_event(lua_State *L, int list_idx, const char *type,
                      const keydef *k, int modifiers) {
  luaL_checkstack(L, 6, "vdx: key event");
  lua_createtable(L, 2, 0);
  lua_pushliteral(L, "Input.dispatchKeyEvent");
  lua_rawseti(L, -2, 1);
  lua_createtable(L, 0, 9);
  int command = modifiers & (VDX_MOD_CTRL | VDX_MOD_ALT | VDX_MOD_META);
  int with_text = strcmp(type, "keyUp") != 0 && k->text && !command;
  lua_pushstring(L, strcmp(type, "keyUp") == 0 ? "keyUp"
                    : with_text ? "keyDown" : "rawKeyDown");
  lua_setfield(L, -2, "type");
  lua_pushstring(L, k->key);
  lua_setfield(L, -2, "key");
  lua_pushstring(L, k->code);
  lua_setfield(L, -2, "code");
  lua_pushinteger(L, k->keycode);
  lua_setfield(L, -2, "windowsVirtualKeyCode");
  lua_pushinteger(L, k->keycode);
  lua_setfield(L, -2, "nativeVirtualKeyCode");
  lua_pushinteger(L, modifiers);
  lua_setfield(L, -2, "modifiers");
  if (k->location) {
    lua_pushinteger(L, k->location);
    lua_setfield(L, -2, "location");
  }
  if (with_text) {
    lua_pushstring(L, k->text);
    lua_setfield(L, -2, "text");
    lua_pushstring(L, k->text);
    lua_setfield(L, -2, "unmodifiedText");
  }
  lua_rawseti(L, -2, 2);
  append(L, list_idx);
}

void vdx__input_press(lua_State *L, int list_idx, const char *combo) {
  char parts[8][32];
  int n = 0;
  list_idx = lua_absindex(L, list_idx);
  const char *s = combo;
  while (*s && n < 8) {
    /* "+" alone, or a trailing "+" after a separator, is the plus key. */
    const char *e = strchr(s + 1, '+');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len >= sizeof parts[0])
      vdx__error_raise(L, "InvalidArgument", "unknown key '%s' in '%s'", s, combo);
    memcpy(parts[n], s, len);
    parts[n++][len] = '\0';
    s = e ? e + 1 : s + len;
  }
  if (n == 0) vdx__error_raise(L, "InvalidArgument", "press_key: empty key");
  keydef keys[8];
  char keybuf[8][2], codebuf[8][16];
  int shift[8], mods = 0;
  for (int i = 0; i < n; i++)
    if (!find_key(parts[i], &keys[i], keybuf[i], codebuf[i], &shift[i]))
      vdx__error_raise(L, "InvalidArgument", "unknown key '%s' in '%s' (keys are names such as Enter, "
                 "Tab, Escape, ArrowDown, Control, Shift, or one character)",
                 parts[i], combo);
  /* "Control+A" means the A key with Control, not Control+Shift+a. */
  if (n > 1 && shift[n - 1] && parts[n - 1][0] >= 'A' && parts[n - 1][0] <= 'Z' &&
      parts[n - 1][1] == '\0') {
    keybuf[n - 1][0] = (char)(parts[n - 1][0] - 'A' + 'a');
    shift[n - 1] = 0;
  }
  for (int i = 0; i < n; i++) {
    if (i < n - 1 && !modifier_bit(keys[i].key))
      vdx__error_raise(L, "InvalidArgument", "'%s' in '%s' is not a modifier (only the last key of a "
                 "combination may be one)", parts[i], combo);
    mods |= modifier_bit(keys[i].key);
    key_event(L, list_idx, "keyDown", &keys[i],
              mods | (i == n - 1 && shift[i] ? VDX_MOD_SHIFT : 0));
  }
  for (int i = n - 1; i >= 0; i--) {
    key_event(L, list_idx, "keyUp", &keys[i],
              mods | (i == n - 1 && shift[i] ? VDX_MOD_SHIFT : 0));
    mods &= ~modifier_bit(keys[i].key);
  }
}

static void insert_text(lua_State *L, int list_idx, const char *s, size_t n) {
  lua_createtable(L, 2, 0);
  lua_pushliteral(L, "Input.insertText");
  lua_rawseti(L, -2, 1);
  lua_createtable(L, 0, 1);
  lua_pushlstring(L, s, n);
  lua_setfield(L, -2, "text");
  lua_rawseti(L, -2, 2);
  append(L, list_idx);
}

void vdx__input_type(lua_State *L, int list_idx, const char *text,
                     size_t len) {
  list_idx = lua_absindex(L, list_idx);
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)text[i];
    keydef k;
    char keybuf[2], codebuf[16];
    int shift;
    if (c < 0x80 && char_key((char)c, &k, keybuf, codebuf, &shift)) {
      key_event(L, list_idx, "keyDown", &k, shift ? VDX_MOD_SHIFT : 0);
      key_event(L, list_idx, "keyUp", &k, shift ? VDX_MOD_SHIFT : 0);
      i++;
      continue;
    }
    size_t n = 1;              /* one UTF-8 sequence, inserted as text */
    while (i + n < len && ((unsigned char)text[i + n] & 0xC0) == 0x80) n++;
    insert_text(L, list_idx, text + i, n);
    i += n;
  }
}

static int modifier_or_raise(lua_State *L, const char *name) {
  int bit = modifier_bit(name);
  if (!bit)
    vdx__error_raise(L, "InvalidArgument", "unknown modifier '%s' (Alt, "
                     "Control, ControlOrMeta, Meta, Shift)", name);
  return bit;
}

int vdx__input_modifiers(lua_State *L, int idx) {
  int mods = 0;
  idx = lua_absindex(L, idx);
  if (lua_isnoneornil(L, idx)) return 0;
  if (lua_type(L, idx) == LUA_TSTRING) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", lua_tostring(L, idx));
    for (char *save = NULL, *t = strtok_r(buf, "+", &save); t;
         t = strtok_r(NULL, "+", &save))
      mods |= modifier_or_raise(L, t);
    return mods;
  }
  luaL_checktype(L, idx, LUA_TTABLE);
  for (lua_Integer i = 1; i <= luaL_len(L, idx); i++) {
    lua_rawgeti(L, idx, i);
    mods |= modifier_or_raise(L, luaL_checkstring(L, -1));
    lua_pop(L, 1);
  }
  return mods;
}

/* ------------------------------------------------------------ mouse */

/* The mouse buttons the core accepts, with their `buttons` bits. */
static const named_bit BUTTONS[] = {
  {"left", 1}, {"right", 2}, {"middle", 4},
};

int vdx__input_button_bit(const char *button) {
  for (size_t i = 0; i < sizeof BUTTONS / sizeof BUTTONS[0]; i++)
    if (strcmp(button, BUTTONS[i].name) == 0) return BUTTONS[i].bit;
  return 0;
}

void vdx__input_push_button_names(lua_State *L) {
  push_names(L, BUTTONS, (int)(sizeof BUTTONS / sizeof BUTTONS[0]));
}

void vdx__input_mouse(lua_State *L, int list_idx, const char *type, double x,
                      double y, const char *button, int click_count,
                      int modifiers) {
  luaL_checkstack(L, 6, "vdx: mouse event");
  list_idx = lua_absindex(L, list_idx);
  lua_createtable(L, 2, 0);
  lua_pushliteral(L, "Input.dispatchMouseEvent");
  lua_rawseti(L, -2, 1);
  lua_createtable(L, 0, 7);
  lua_pushstring(L, type);
  lua_setfield(L, -2, "type");
  lua_pushnumber(L, x);
  lua_setfield(L, -2, "x");
  lua_pushnumber(L, y);
  lua_setfield(L, -2, "y");
  lua_pushstring(L, button ? button : "none");
  lua_setfield(L, -2, "button");
  /* buttons held: during a press (and a move while pressed) */
  lua_pushinteger(L, button && strcmp(type, "mouseReleased") != 0
                         ? vdx__input_button_bit(button) : 0);
  lua_setfield(L, -2, "buttons");
  lua_pushinteger(L, click_count);
  lua_setfield(L, -2, "clickCount");
  lua_pushinteger(L, modifiers);
  lua_setfield(L, -2, "modifiers");
  lua_rawseti(L, -2, 2);
  append(L, list_idx);
}

/* ------------------------------------------------------------ runner */

/* The runner sends the calls in batches: every call up to the next sleep
 * goes out at once, without waiting for the answer of the one before, and
 * the next batch (or the end) waits for all of them.  The browser hands one
 * session's input to the page in the order it was sent, so the page still
 * sees press after move and release after press; what the batch saves is
 * the round trip per call, which a mouse move makes a whole frame long (the
 * renderer delivers moves with the next animation frame).  Two moves never
 * share a batch: the renderer would merge them into one, and a drag's
 * steps must each reach the page. */

typedef struct run {
  vdx_page *p;
  vdx_loop *lp;
  char sid[64];
  int list_ref;
  lua_Integer next, n;
  vdx_waiter *out;       /* NULL once the caller's waiter completed */
  int inflight;          /* calls (or a sleep) sent and not answered */
} run;

static void run_step(lua_State *L, run *r);

static void run_release(run *r) {
  if (r->out || r->inflight) return;
  if (!vdx__loop_closed(r->lp))
    luaL_unref(vdx__main_state(r->lp), LUA_REGISTRYINDEX, r->list_ref);
  free(r);
}

static void run_out_done(vdx_waiter *w, void *data) {
  run *r = data;
  (void)w;
  r->out = NULL;
  run_release(r);
}

static void run_reply(void *data, lua_State *L, int ok) {
  run *r = data;
  r->inflight--;
  if (r->out == NULL) { run_release(r); return; }
  if (!ok) {                             /* the first error fails the run */
    lua_pushvalue(L, 1);
    vdx__waiter_reject(r->out, L);
    return;
  }
  if (r->inflight > 0) return;           /* the batch is not all answered */
  if (r->next > r->n) {                  /* the last answer */
    lua_pushvalue(L, 1);
    vdx__waiter_resolve(r->out, L);
    return;
  }
  lua_settop(L, 0);
  run_step(L, r);
}

/* 1 when item (a list entry) is an Input.dispatchMouseEvent mouseMoved. */
static int is_move(lua_State *L, int item) {
  int move = 0;
  if (lua_rawgeti(L, item, 2) == LUA_TTABLE) {
    lua_getfield(L, -1, "type");
    const char *t = lua_tostring(L, -1);
    move = t != NULL && strcmp(t, "mouseMoved") == 0;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return move;
}

/* Sends the next batch, from item r->next (called with nothing in
 * flight); on a synchronous failure rejects out. */
static void run_step(lua_State *L, run *r) {
  luaL_checkstack(L, 8, "vdx: input");
  vdx_conn *c = r->p->b->conn;
  int base = lua_gettop(L);
  int moved = 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->list_ref);
  int list = lua_gettop(L);
  while (r->next <= r->n) {
    lua_rawgeti(L, list, r->next);
    int item = lua_gettop(L);
    vdx_waiter *w;
    if (lua_getfield(L, item, "sleep") == LUA_TNUMBER) {
      if (r->inflight > 0) break;        /* after the batch before it */
      w = vdx__waiter_sleep(r->lp, (int)lua_tointeger(L, -1));
      r->next++;
      r->inflight++;
      vdx__waiter_then(w, run_reply, r);
      break;                             /* a sleep is a batch of its own */
    }
    lua_pop(L, 1);
    int move = is_move(L, item);
    if (move && moved) break;            /* one move per batch */
    moved |= move;
    if (c == NULL || r->p->closed) {
      lua_settop(L, base);
      vdx__error_push(L, "PageClosed", "the page closed during the input");
      vdx__waiter_reject(r->out, L);
      return;
    }
    lua_rawgeti(L, item, 1);
    lua_rawgeti(L, item, 2);
    w = vdx__conn_call(L, c, r->sid, lua_tostring(L, -2), -1, 0);
    if (w == NULL) {
      vdx__waiter_reject(r->out, L);
      lua_settop(L, base);
      return;
    }
    r->next++;
    r->inflight++;
    vdx__waiter_then(w, run_reply, r);
    lua_settop(L, item - 1);
  }
  lua_settop(L, base);
}

vdx_waiter *vdx__input_run(lua_State *L, vdx_page *p, int list_idx,
                           int timeout_ms) {
  list_idx = lua_absindex(L, list_idx);
  run *r = calloc(1, sizeof *r);
  if (r == NULL) {
    vdx__error_push(L, "OutOfMemory", "out of memory");
    return NULL;
  }
  r->p = p;
  r->lp = p->b->lp;
  snprintf(r->sid, sizeof r->sid, "%s", p->session_id);
  r->n = (lua_Integer)luaL_len(L, list_idx);
  r->next = 1;
  lua_pushvalue(L, list_idx);
  r->list_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  r->out = vdx__waiter_new(r->lp, timeout_ms > 0 ? timeout_ms
                           : vdx__conn_default_timeout(p->b->conn), "input");
  vdx_waiter *out = r->out;
  vdx__waiter_on_done(out, run_out_done, r);
  if (r->n == 0) {
    lua_pushboolean(L, 1);
    vdx__waiter_resolve(out, L);
    return out;
  }
  run_step(L, r);
  return out;
}

/* ----------------------------------------------------------- base64 */

static int b64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

long vdx__b64_decode(const char *in, size_t len, unsigned char *out) {
  unsigned long acc = 0;
  int bits = 0;
  long n = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)in[i];
    if (c == '=') break;
    if (c == '\n' || c == '\r' || c == ' ') continue;
    int v = b64_value(c);
    if (v < 0) return -1;
    acc = (acc << 6) | (unsigned long)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (unsigned char)((acc >> bits) & 0xFF);
    }
  }
  return n;
}

void vdx__b64_write_file(lua_State *L, const char *path, const char *b64,
                         size_t len) {
  unsigned char *buf = malloc(len / 4 * 3 + 4);
  if (buf == NULL) luaL_error(L, "out of memory");
  long n = vdx__b64_decode(b64, len, buf);
  if (n < 0) {
    free(buf);
    luaL_error(L, "the browser sent data that is not base64");
  }
  int e = vdx__write_replace(path, buf, (size_t)n);
  free(buf);
  if (e == ENOSPC || e == EDQUOT)
    vdx__error_raise(L, "DiskFull", "cannot write %s: the disk is full; nothing was "
                     "left behind.  Free space on that disk or write elsewhere", path);
  if (e != 0)
    vdx__error_raise(L, "IOError", "cannot write %s: %s", path, strerror(e));
  lua_createtable(L, 0, 2);
  lua_pushstring(L, path);
  lua_setfield(L, -2, "path");
  lua_pushinteger(L, n);
  lua_setfield(L, -2, "size");
}
