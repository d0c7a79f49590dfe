/*
 * task.h -- tasks: coroutines that the loop resumes when what they wait
 * for completes.  Used by loop.c (the ready queue) and module.c.
 */
#ifndef VDX_TASK_H
#define VDX_TASK_H

#include "vdx.h"

typedef struct vdx_task vdx_task;

/* The task whose coroutine is L, or NULL (main thread, plain coroutine). */
vdx_task *vdx__task_of(lua_State *L);

/* Ready-queue links (owned by loop.c). */
vdx_task *vdx__task_next(vdx_task *t);
void vdx__task_set_next(vdx_task *t, vdx_task *next);
int vdx__task_queued(vdx_task *t);
void vdx__task_mark_queued(vdx_task *t);
void vdx__ready(vdx_loop *lp, vdx_task *t);

/* Records what t waits for and how to continue after it. */
void vdx__task_set_continuation(vdx_task *t, vdx_waiter *w, lua_KFunction k,
                                lua_KContext ctx);
void vdx__task_continuation(vdx_task *t, lua_KFunction *k, lua_KContext *ctx);
/* Called by loop.c when the waiter t waits for has completed. */
void vdx__task_wake(vdx_task *t, vdx_waiter *w);
/* Runs t until it yields or ends (from the ready queue only). */
void vdx__task_resume(vdx_task *t);

/* loop.c internals used by task.c */
int vdx__waiter_take(vdx_waiter *w, lua_State *L);
vdx_waiter *vdx__waiter_sleep(vdx_loop *lp, int ms);
void vdx__report_error(lua_State *L, const char *what);
void vdx__loop_open(lua_State *L);
int vdx__loop_depth(vdx_loop *lp);
/* poll.c and loop.c: the loop seen by a host that polls it. */
vdx_loop *vdx__loop_quiet(lua_State *L);
int vdx__loop_touched(vdx_loop *lp);
void **vdx__loop_pollable(vdx_loop *lp);
/* The count of the loop's tasks that were spawned and have not ended. */
int *vdx__loop_live_tasks(vdx_loop *lp);
int vdx__loop_step(vdx_loop *lp);
/* Waits for w in a coroutine of a host scheduler, in the host's way (the
 * adapter set by vdx.set_host); raises naming the adapters when none is. */
int vdx__host_wait(lua_State *L, vdx_waiter *w, lua_KContext ctx,
                   lua_KFunction k);
int vdx__poll_open(lua_State *L);
void vdx__off_teardown(vdx_loop *lp, vdx_teardown_fn fn, void *data);

/* Lua functions: vdx.spawn, vdx.wait, vdx.sleep, vdx.run. */
int vdx__task_open(lua_State *L);
int vdx__l_spawn(lua_State *L);
int vdx__l_wait(lua_State *L);
int vdx__l_sleep(lua_State *L);
int vdx__l_run(lua_State *L);
int vdx__l_current(lua_State *L);

#endif
