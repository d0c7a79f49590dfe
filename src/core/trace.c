/*
 * trace.c -- the start-up timeline.  With VDX_TRACE_START=1 in the
 * environment, each step of a start (the Lua state, the browser's spawn,
 * every CDP command, reply and event, marks the Lua layer sets with
 * vdx.trace, the exit) writes one line to stderr:
 *
 *   vdx-trace   123.4 ms  cdp > Page.navigate #7 (page)
 *
 * The time counts from the process's start as the kernel recorded it
 * (/proc/self/stat, so to the 10 ms clock tick), on the monotonic clock.
 * Off, each call costs one test of a cached flag.  A leaf: it uses nothing
 * of the core but Lua.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vdx.h"

static int state = -1;          /* -1: not read yet, 0: off, 1: on */
static double origin_ms;        /* the process start, CLOCK_MONOTONIC ms */

static double clock_ms(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The process start on the monotonic clock: its start time since boot
 * (field 22 of /proc/self/stat, in clock ticks) carried over from the
 * boot-time clock; the present moment when /proc cannot be read. */
static double process_start_ms(void) {
  double mono = clock_ms(CLOCK_MONOTONIC), boot = clock_ms(CLOCK_BOOTTIME);
  char buf[1024];
  FILE *f = fopen("/proc/self/stat", "r");
  if (f == NULL) return mono;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *at = strrchr(buf, ')');
  for (int field = 2; at && field < 22; field++) at = strchr(at + 1, ' ');
  if (at == NULL) return mono;
  double ticks = strtod(at + 1, NULL);
  return mono - (boot - ticks * 1e3 / (double)sysconf(_SC_CLK_TCK));
}

int vdx__trace_on(void) {
  if (state < 0) {
    const char *v = getenv("VDX_TRACE_START");
    state = v && *v && strcmp(v, "0") != 0;
    if (state) origin_ms = process_start_ms();
  }
  return state;
}

void vdx__trace(const char *fmt, ...) {
  char line[256];
  va_list ap;
  if (!vdx__trace_on()) return;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "vdx-trace %7.1f ms  %s\n", clock_ms(CLOCK_MONOTONIC) - origin_ms, line);
}

/* vdx.trace(text): one line of the start-up timeline (a no-op unless
 * VDX_TRACE_START is set). */
int vdx__l_trace(lua_State *L) {
  if (vdx__trace_on()) vdx__trace("%s", luaL_checkstring(L, 1));
  return 0;
}
