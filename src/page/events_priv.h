/*
 * events_priv.h -- the record store of a page's events, shared by the
 * file that fills it (events.c) and the one that reads it for the page's
 * methods (logs.c).  Private to those two files.
 */
#ifndef VDX_EVENTS_PRIV_H
#define VDX_EVENTS_PRIV_H

#include "vdx.h"
#include "objects.h"

#define CONSOLE_CAP 500
#define REQUEST_CAP 1000
#define LIST_CAP 100

typedef struct events {
  vdx_page *p;
  vdx_loop *lp;
  int ref;                /* { console, requests, byid, dialogs, popups, downloads } */
  lua_Integer console_seq, console_seen, errors;
  lua_Integer req_seq, dialogs, popups, downloads;
  int next_set, next_accept;
  char *next_prompt;
  uint64_t dialog_at;     /* loop time of the latest dialog */
  int dialog_run;         /* dialogs in a row, each soon after the one before */
  lua_Integer dialog_stops;  /* storms whose script was stopped */
  double px, py;
} events;

/* The record store of p, created on first use. */
events *vdx__events_of(lua_State *L, vdx_page *p);
/* Pushes the list `name` of ev's record table. */
void vdx__events_list(lua_State *L, events *ev, const char *name);
/* The rank of a console level (debug 0 … error 3), -1 for an unknown one. */
int vdx__events_level_rank(const char *level);

#endif
