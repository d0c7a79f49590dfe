/*
 * proc.c -- starting Chromium and ending its whole process tree.
 *
 * The browser runs in its own session and process group (setsid through
 * UV_PROCESS_DETACHED), so one kill(-pgid) reaches the zygote and the
 * renderers; descendants that left the group are found through /proc.
 * Every live group is also recorded in a process-wide table that the
 * signal handlers and atexit() use, because Chromium does not exit when
 * its client dies (and, in a session of its own, gets no SIGHUP when the
 * terminal goes); with it the profile folder the group owns, so that those
 * paths remove it too (with async-signal-safe calls only).
 *
 * The signals whose default action ends the process (SIGHUP, SIGINT,
 * SIGQUIT, SIGTERM) get a handler at the first launch only when their
 * disposition is still the default: it ends the browsers, removes their
 * profiles, and dies of the same signal, so the exit status is the one the
 * signal gives.  A signal the process ignores (nohup, a shell's background
 * job) stays ignored and a signal the host handles stays the host's: its
 * handler, or the exit it leads to (atexit), closes the browsers.
 *
 * Ending a browser on the user's profile is staged (vdx__proc_stop): the
 * owner asks it to close (Browser.close), then after a grace period the
 * group gets SIGTERM, and only after a second one SIGKILL.  A browser on a
 * temporary profile is killed at once (vdx__proc_kill): its profile is
 * removed anyway.  A browser that was killed leaves its
 * ProcessSingleton folder (org.chromium.Chromium.*, the target of the
 * profile's SingletonSocket link) behind; it is removed with the profile.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vdx.h"
#include "proc.h"
#include "task.h"

#define MAX_GROUPS 256
#define ERR_TAIL 4096
#define DIR_MAX 512
#define MAX_TREE 4096
/* How long an exit waits at most for the group's stragglers. */
#define WAIT_MS 2000

static volatile sig_atomic_t groups[MAX_GROUPS];
static char group_dirs[MAX_GROUPS][DIR_MAX];   /* owned profile, or "" */
static int handlers_installed;
/* The signals that end a process by default and so would leave the
 * browsers and their profiles behind. */
static const int ending_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM};

/* -------------------------------------------------------- user data */

/* Removes name (in folder dfd) and everything under it.  Async-signal-safe:
 * openat, getdents64, unlinkat and close only, no allocation. */
static void remove_at(int dfd, const char *name, int depth) {
  if (unlinkat(dfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  if (depth > 24) return;
  int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  /* Entries are removed while the folder is read: read it again until a
   * pass finds nothing left (bounded). */
  for (int pass = 0; pass < 8; pass++) {
    char buf[2048];
    int removed = 0;
    long n;
    lseek(fd, 0, SEEK_SET);
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
      for (long off = 0; off < n;) {
        struct { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[]; }
          *d = (void *)(buf + off);
        if (strcmp(d->name, ".") != 0 && strcmp(d->name, "..") != 0) {
          remove_at(fd, d->name, depth + 1);
          removed++;
        }
        off += d->reclen;
      }
    }
    if (removed == 0) break;
  }
  close(fd);
  unlinkat(dfd, name, AT_REMOVEDIR);
}

/* Removes a profile folder and the ProcessSingleton folder its
 * SingletonSocket link points to (left behind when Chromium was killed).
 * `seen` (DIR_MAX bytes, or NULL) keeps the ProcessSingleton folder's path
 * for a later pass.  On a first pass (while the killed processes may still
 * be going away) a missing link, or a ProcessSingleton folder that could
 * not be removed, keeps the profile, and so the link, for the pass after
 * the exit: the folder is named only by that link.  Async-signal-safe. */
static void remove_profile(const char *dir, int first_pass, char *seen) {
  char link[DIR_MAX + 32], target[DIR_MAX];
  if (dir == NULL || *dir == '\0' || strlen(dir) >= DIR_MAX) return;
  strcpy(link, dir);
  strcat(link, "/SingletonSocket");
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0 && first_pass) return;
  if (n > 0) {
    target[n] = '\0';
    char *slash = strrchr(target, '/');
    if (slash) {
      *slash = '\0';
      char *base = strrchr(target, '/');
      if (base && strncmp(base + 1, "org.chromium.Chromium.", 22) == 0) {
        if (seen) strcpy(seen, target);
        remove_at(AT_FDCWD, target, 0);
        if (first_pass && access(target, F_OK) == 0) return;
      }
    }
  }
  remove_at(AT_FDCWD, dir, 0);
}

/* ----------------------------------------------------- process table */

static void groups_add(pid_t pgid, const char *owned_dir) {
  for (int i = 0; i < MAX_GROUPS; i++)
    if (groups[i] == 0) {
      group_dirs[i][0] = '\0';
      if (owned_dir && strlen(owned_dir) < DIR_MAX) strcpy(group_dirs[i], owned_dir);
      groups[i] = pgid;
      return;
    }
}

static void groups_remove(pid_t pgid) {
  for (int i = 0; i < MAX_GROUPS; i++)
    if (groups[i] == pgid) groups[i] = 0;
}

/* Kills every recorded group, waits (bounded) for each leader to be gone,
 * then removes the profiles they owned.  Async-signal-safe: kill, waitpid,
 * nanosleep and remove_profile only. */
static void end_all_groups(void) {
  int any = 0;
  for (int i = 0; i < MAX_GROUPS; i++)
    if (groups[i] > 0) { kill(-(pid_t)groups[i], SIGKILL); any = 1; }
  if (!any) return;
  struct timespec tick = {0, 10 * 1000 * 1000};
  for (int i = 0; i < MAX_GROUPS; i++) {
    pid_t pid = (pid_t)groups[i];
    if (pid <= 0) continue;
    for (int t = 0; t < 200; t++) {
      pid_t r = waitpid(pid, NULL, WNOHANG);
      if (r == pid || (r < 0 && errno == ECHILD && kill(pid, 0) < 0)) break;
      nanosleep(&tick, NULL);
    }
  }
  nanosleep(&tick, NULL);   /* the group's renderers die a moment later */
  for (int i = 0; i < MAX_GROUPS; i++)
    if (groups[i] > 0) {
      remove_profile(group_dirs[i], 0, NULL);
      groups[i] = 0;
    }
}

/* Ends the browsers, then the process by the same signal (its default
 * action, so the status says which signal it was).  The signal is blocked
 * while its handler runs, so the raise takes effect when it returns. */
static void on_fatal_signal(int sig) {
  int saved = errno;
  end_all_groups();
  signal(sig, SIG_DFL);
  raise(sig);
  errno = saved;
}

/* Installs on_fatal_signal for each ending signal still at its default
 * disposition (see the head of this file), once per process. */
static void install_handlers(void) {
  struct sigaction sa, old;
  if (handlers_installed) return;
  handlers_installed = 1;
  signal(SIGPIPE, SIG_IGN);
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof ending_signals / sizeof ending_signals[0]; i++) {
    int sig = ending_signals[i];
    if (sigaction(sig, NULL, &old) != 0) continue;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
      sigaction(sig, &sa, NULL);
  }
  atexit(end_all_groups);
}

/* The live processes of root's tree, root apart, into out (at most max):
 * those of its session or group, and those whose parent chain leads to it
 * (via /proc).  Zombies are left out: they have ended. */
static int find_tree(pid_t root, pid_t *out, int max) {
  enum { N = 4096 };
  pid_t pids[N], ppids[N];
  int n = 0, nt = 0;
  DIR *d = opendir("/proc");
  struct dirent *e;
  if (d == NULL) return 0;
  while ((e = readdir(d)) && n < N) {
    char path[64], buf[512];
    pid_t pid = (pid_t)atoi(e->d_name);
    if (pid <= 0 || pid == root) continue;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) continue;
    size_t got = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[got] = '\0';
    char *rp = strrchr(buf, ')');
    int ppid, pgrp, session;
    char state;
    if (rp == NULL || sscanf(rp + 1, " %c %d %d %d", &state, &ppid, &pgrp,
                             &session) != 4 || state == 'Z')
      continue;
    if ((pgrp == root || session == root) && nt < max) out[nt++] = pid;
    else { pids[n] = pid; ppids[n++] = (pid_t)ppid; }
  }
  closedir(d);
  /* Breadth-first over the parent links from root and the members found. */
  for (int i = -1; i < nt; i++) {
    pid_t parent = i < 0 ? root : out[i];
    for (int j = 0; j < n; j++)
      if (ppids[j] == parent && nt < max) {
        out[nt++] = pids[j];
        ppids[j] = 0;
      }
  }
  return nt;
}

/* Kills every process of root's tree (find_tree). */
static void kill_descendants(pid_t root) {
  pid_t tree[MAX_TREE];
  int nt = find_tree(root, tree, MAX_TREE);
  for (int i = 0; i < nt; i++) kill(tree[i], SIGKILL);
}

/* ---------------------------------------------------------- process */

static void stderr_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b) {
  vdx_proc *p = h->data;
  (void)hint;
  *b = uv_buf_init(p->rdbuf, sizeof p->rdbuf);
}

static void stderr_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  vdx_proc *p = s->data;
  if (n <= 0) {
    if (n < 0 && !uv_is_closing((uv_handle_t *)s)) uv_read_stop(s);
    return;
  }
  if (p->echo_stderr) fwrite(b->base, 1, (size_t)n, stderr);
  /* Keep the last ERR_TAIL bytes. */
  size_t add = (size_t)n;
  if (add >= sizeof p->err) {
    memcpy(p->err, b->base + add - (sizeof p->err - 1), sizeof p->err - 1);
    p->errlen = sizeof p->err - 1;
  } else {
    if (p->errlen + add >= sizeof p->err) {
      size_t drop = p->errlen + add - (sizeof p->err - 1);
      memmove(p->err, p->err + drop, p->errlen - drop);
      p->errlen -= drop;
    }
    memcpy(p->err + p->errlen, b->base, add);
    p->errlen += add;
  }
  p->err[p->errlen] = '\0';
  if (p->on_stderr) p->on_stderr(p->cb_data, p->err);
}

static void proc_teardown(void *data);

static void maybe_free(vdx_proc *p) {
  if (p->handles == 0 && p->released) {
    if (p->lp) vdx__off_teardown(p->lp, proc_teardown, p);
    free(p->user_data_dir);
    free(p);
  }
}

static void free_handle(uv_handle_t *h) { free(h); }

static void handle_closed(uv_handle_t *h) {
  vdx_proc *p = h->data;
  p->handles--;
  maybe_free(p);
}

static void close_stop_timer(vdx_proc *p) {
  if (p->stop_stage > 0 && !uv_is_closing((uv_handle_t *)&p->stop_timer))
    uv_close((uv_handle_t *)&p->stop_timer, handle_closed);
}

/* The exit is complete: the group's processes are gone (or the wait for
 * them gave up), so the profile is removed and the owner told. */
static void exit_finish(vdx_proc *p) {
  if (p->finished) return;
  p->finished = 1;
  groups_remove(p->pid);
  if (p->owns_dir) {
    remove_profile(p->user_data_dir, 0, NULL);
    /* What a dying process still made in the folder a kill's first pass
     * removed (the profile, and so the link, may be gone by now). */
    if (p->singleton[0]) remove_at(AT_FDCWD, p->singleton, 0);
  }
  vdx__trace("browser's profile removed");
  if (p->on_exit) p->on_exit(p->cb_data, p);
}

static void straggler_closed(uv_handle_t *h) {
  vdx_proc *p = h->data;
  int fd;
  if (uv_fileno(h, &fd) == 0) close(fd);
  for (int i = 0; i < p->nwait; i++)
    if (p->wait[i] == (uv_poll_t *)h) p->wait[i] = NULL;
  free(h);
  p->handles--;
  if (--p->waits == 0 && !p->finished) {
    uv_close((uv_handle_t *)&p->wait_timer, handle_closed);
    exit_finish(p);
  }
  maybe_free(p);
}

static void straggler_gone(uv_poll_t *h, int status, int events) {
  (void)status; (void)events;
  if (!uv_is_closing((uv_handle_t *)h)) uv_close((uv_handle_t *)h, straggler_closed);
}

/* Stops waiting for the stragglers (time is up, or the loop ends). */
static void stop_waits(vdx_proc *p) {
  for (int i = 0; i < p->nwait; i++)
    if (p->wait[i] && !uv_is_closing((uv_handle_t *)p->wait[i]))
      uv_close((uv_handle_t *)p->wait[i], straggler_closed);
}

static void wait_timeout(uv_timer_t *t) {
  vdx_proc *p = t->data;
  vdx__trace("browser's stragglers outlived the wait");
  uv_close((uv_handle_t *)t, handle_closed);
  exit_finish(p);
  stop_waits(p);
}

/* Waits, without blocking the loop, until the processes left of the tree
 * have ended: each is killed, and the first MAX_STRAGGLERS are watched
 * through a pidfd, which becomes readable when it exits.  Returns the number awaited (0: none left, or
 * pidfds are not available). */
static int wait_stragglers(vdx_proc *p) {
  pid_t tree[MAX_TREE];
  int nt = find_tree(p->pid, tree, MAX_TREE);
  uv_loop_t *loop = p->proc.loop;
  for (int i = 0; i < nt; i++) {
    kill(tree[i], SIGKILL);
    if (p->nwait == MAX_STRAGGLERS) continue;
    int fd = (int)syscall(SYS_pidfd_open, tree[i], 0);
    if (fd < 0) continue;
    uv_poll_t *h = calloc(1, sizeof *h);
    if (h == NULL || uv_poll_init(loop, h, fd) != 0) { free(h); close(fd); continue; }
    h->data = p;
    p->wait[p->nwait++] = h;
    p->handles++;
    p->waits++;
    uv_poll_start(h, UV_READABLE, straggler_gone);
  }
  if (p->waits == 0) return 0;
  vdx__trace("waiting for %d processes of the group", p->waits);
  uv_timer_init(loop, &p->wait_timer);
  p->wait_timer.data = p;
  p->handles++;
  uv_timer_start(&p->wait_timer, wait_timeout, WAIT_MS, 0);
  return p->waits;
}

static void exit_cb(uv_process_t *h, int64_t status, int sig) {
  vdx_proc *p = h->data;
  vdx__trace("browser exited");
  p->exited = 1;
  close_stop_timer(p);
  p->exit_status = status;
  p->term_signal = sig;
  uv_close((uv_handle_t *)h, handle_closed);
  if (!uv_is_closing((uv_handle_t *)&p->err_pipe))
    uv_close((uv_handle_t *)&p->err_pipe, handle_closed);
  /* Stragglers of the group must not keep the profile busy, nor outlive
   * browser:close(). */
  kill(-p->pid, SIGKILL);
  if (wait_stragglers(p) == 0) exit_finish(p);
}

/* Kills the tree.  A temporary profile is removed at once, while the
 * kernel tears the processes down (a killed process writes nothing more,
 * and exit_cb removes what one still had under way); waiting for the exit
 * first would put the two one after the other. */
void vdx__proc_kill(vdx_proc *p) {
  if (p == NULL || p->exited || p->killed) return;
  p->killed = 1;
  kill_descendants(p->pid);
  kill(-p->pid, SIGKILL);
  if (p->owns_dir) {
    remove_profile(p->user_data_dir, 1, p->singleton);
    vdx__trace("browser killed, its profile removed");
  }
}

static void stop_tick(uv_timer_t *t) {
  vdx_proc *p = t->data;
  if (p->exited) return;
  if (p->stop_stage == 1) {
    p->stop_stage = 2;
    kill(-p->pid, SIGTERM);
    uv_timer_start(&p->stop_timer, stop_tick, (uint64_t)p->stop_grace_ms, 0);
  } else {
    vdx__proc_kill(p);
  }
}

void vdx__proc_stop(vdx_proc *p, int grace_ms) {
  if (p == NULL || p->exited || p->killed || p->stop_stage > 0) return;
  if (uv_timer_init(p->proc.loop, &p->stop_timer) != 0) { vdx__proc_kill(p); return; }
  p->stop_timer.data = p;
  p->handles++;
  p->stop_stage = 1;
  p->stop_grace_ms = grace_ms > 0 ? grace_ms : 1;
  uv_timer_start(&p->stop_timer, stop_tick, (uint64_t)p->stop_grace_ms, 0);
}

void vdx__proc_release(vdx_proc *p) {
  if (p == NULL) return;
  p->on_exit = NULL;
  p->on_stderr = NULL;
  p->released = 1;
  maybe_free(p);
}

/* Teardown (the Lua state closes): kill and wait for the exit, bounded. */
void vdx__proc_finish(vdx_proc *p) {
  if (p == NULL || p->exited) return;
  vdx__proc_kill(p);
  for (int i = 0; i < 200 && !p->exited; i++) {
    int st;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid || (r < 0 && errno == ECHILD)) break;
    usleep(5000);
  }
  usleep(20000);  /* renderers die a moment after the group kill */
  groups_remove(p->pid);
  if (p->owns_dir) {
    remove_profile(p->user_data_dir, 0, NULL);
    if (p->singleton[0]) remove_at(AT_FDCWD, p->singleton, 0);
  }
}

const char *vdx__proc_stderr(const vdx_proc *p) { return p->err; }

/*
 * The Lua state is closing: end the process if it still runs, and close
 * the handles with our callback so the memory is freed by the loop's last
 * turns (libuv would otherwise close them without telling us).
 */
static void proc_teardown(void *data) {
  vdx_proc *p = data;
  vdx__proc_finish(p);
  p->on_exit = NULL;
  if (p->waits > 0) {
    if (!uv_is_closing((uv_handle_t *)&p->wait_timer))
      uv_close((uv_handle_t *)&p->wait_timer, handle_closed);
    exit_finish(p);
    stop_waits(p);
  }
  p->on_stderr = NULL;
  p->released = 1;
  p->lp = NULL;               /* the hook list is being consumed */
  if (!uv_is_closing((uv_handle_t *)&p->proc))
    uv_close((uv_handle_t *)&p->proc, handle_closed);
  if (!uv_is_closing((uv_handle_t *)&p->err_pipe))
    uv_close((uv_handle_t *)&p->err_pipe, handle_closed);
  close_stop_timer(p);
}

/* Registers p for teardown; called once the owner knows the loop. */
void vdx__proc_adopt(vdx_proc *p, vdx_loop *lp) {
  p->lp = lp;
  vdx__on_teardown(lp, proc_teardown, p);
}

vdx_proc *vdx__proc_spawn(uv_loop_t *loop, const vdx_proc_opts *o,
                          uv_pipe_t **to_browser, uv_pipe_t **from_browser,
                          char *errbuf, size_t errsize) {
  vdx_proc *p = calloc(1, sizeof *p);
  uv_pipe_t *in = calloc(1, sizeof *in), *out = calloc(1, sizeof *out);
  uv_stdio_container_t stdio[5];
  uv_process_options_t po;
  int rc;
  if (p == NULL || in == NULL || out == NULL) {
    snprintf(errbuf, errsize, "out of memory");
    goto fail;
  }
  install_handlers();
  p->user_data_dir = strdup(o->user_data_dir);
  p->owns_dir = o->owns_dir;
  p->echo_stderr = o->echo_stderr;
  uv_pipe_init(loop, out, 0);
  uv_pipe_init(loop, in, 0);
  uv_pipe_init(loop, &p->err_pipe, 0);
  p->err_pipe.data = p;
  p->proc.data = p;
  memset(&po, 0, sizeof po);
  memset(stdio, 0, sizeof stdio);
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_IGNORE;
  stdio[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[2].data.stream = (uv_stream_t *)&p->err_pipe;
  stdio[3].flags = o->use_pipe ? UV_CREATE_PIPE | UV_READABLE_PIPE : UV_IGNORE;
  stdio[3].data.stream = (uv_stream_t *)out;
  stdio[4].flags = o->use_pipe ? UV_CREATE_PIPE | UV_WRITABLE_PIPE : UV_IGNORE;
  stdio[4].data.stream = (uv_stream_t *)in;
  po.file = o->argv[0];
  po.args = o->argv;
  po.env = o->env;
  po.exit_cb = exit_cb;
  po.stdio = stdio;
  po.stdio_count = 5;
  po.flags = UV_PROCESS_DETACHED;
  p->proc.data = p;
  rc = uv_spawn(loop, &p->proc, &po);
  if (rc < 0) {
    snprintf(errbuf, errsize, "cannot start %s: %s", o->argv[0],
             uv_strerror(rc));
    p->handles = 2;
    p->released = 1;
    uv_close((uv_handle_t *)&p->proc, handle_closed);
    uv_close((uv_handle_t *)&p->err_pipe, handle_closed);
    uv_close((uv_handle_t *)out, free_handle);
    uv_close((uv_handle_t *)in, free_handle);
    return NULL;
  }
  p->pid = p->proc.pid;
  groups_add(p->pid, p->owns_dir ? p->user_data_dir : NULL);
  p->handles = 2;
  uv_read_start((uv_stream_t *)&p->err_pipe, stderr_alloc, stderr_read);
  if (o->use_pipe) {
    *to_browser = out;
    *from_browser = in;
  } else {
    uv_close((uv_handle_t *)out, free_handle);
    uv_close((uv_handle_t *)in, free_handle);
  }
  return p;
fail:
  free(p);
  free(in);
  free(out);
  return NULL;
}
