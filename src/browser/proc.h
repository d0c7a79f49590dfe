/*
 * proc.h -- the launched browser process (proc.c), used by browser.c.
 */
#ifndef VDX_PROC_H
#define VDX_PROC_H

#include "vdx.h"

/* The stragglers of a group an exit waits for; the rest are killed and
 * not awaited. */
#define MAX_STRAGGLERS 64

typedef struct vdx_proc_opts {
  char **argv;            /* argv[0] is the executable path */
  char **env;             /* NULL: inherit */
  const char *user_data_dir;
  int owns_dir;           /* remove user_data_dir when the process ends */
  int use_pipe;           /* fds 3 and 4 for --remote-debugging-pipe */
  int echo_stderr;        /* copy the browser's stderr to ours */
} vdx_proc_opts;

struct vdx_proc {
  vdx_loop *lp;
  uv_process_t proc;
  uv_pipe_t err_pipe;
  int pid;
  int handles;            /* libuv handles not yet closed */
  int exited, killed, released, owns_dir, echo_stderr;
  int finished;           /* the exit is complete: profile removed, owner told */
  int waits, nwait;       /* stragglers awaited now, and slots of wait used */
  uv_poll_t *wait[MAX_STRAGGLERS];
  uv_timer_t wait_timer;  /* gives up on the stragglers (WAIT_MS) */
  int stop_stage;         /* vdx__proc_stop: 0 none, 1 waiting, 2 SIGTERM sent */
  int stop_grace_ms;
  uv_timer_t stop_timer;
  int64_t exit_status;
  int term_signal;
  char *user_data_dir;
  char singleton[512];    /* the ProcessSingleton folder seen at a kill */
  char rdbuf[16384];
  char err[4096];         /* the tail of the browser's stderr */
  size_t errlen;
  void (*on_exit)(void *data, vdx_proc *p);
  void (*on_stderr)(void *data, const char *tail);
  void *cb_data;
};

/* Starts the process; on failure returns NULL with a message in errbuf. */
vdx_proc *vdx__proc_spawn(uv_loop_t *loop, const vdx_proc_opts *o,
                          uv_pipe_t **to_browser, uv_pipe_t **from_browser,
                          char *errbuf, size_t errsize);
/*
 * Ends the process gently: the owner has asked the browser to close
 * (Browser.close); if it still runs after grace_ms its group gets SIGTERM,
 * and after grace_ms more SIGKILL.  Does nothing once it exited or was
 * killed.
 */
void vdx__proc_stop(vdx_proc *p, int grace_ms);
/* The owner lets go; memory is freed once libuv has closed the handles. */
void vdx__proc_release(vdx_proc *p);
/* Kills and reaps synchronously, bounded; for teardown only. */
void vdx__proc_finish(vdx_proc *p);
const char *vdx__proc_stderr(const vdx_proc *p);
/* Ties p to the loop, so it is ended and freed when the Lua state closes. */
void vdx__proc_adopt(vdx_proc *p, vdx_loop *lp);

#endif
