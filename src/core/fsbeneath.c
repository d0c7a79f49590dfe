/*
 * fsbeneath.c -- vdx.open_dir and vdx.Dir: files read and written beneath
 * a folder opened once, so that neither a symbolic link, a "..", nor a
 * name swapped while the call runs can lead a read or a write elsewhere.
 *
 * Guarantees (Linux):
 * - The folder is opened once; every later path is resolved from its
 *   descriptor, one component at a time, never following a symbolic link
 *   (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS; where the kernel
 *   lacks openat2, openat with O_NOFOLLOW at each step, which is the same
 *   rule).  VDX_NO_OPENAT2=1 forces the second way (for the tests).
 * - A read opens with O_NONBLOCK (a FIFO never waits for a writer), then
 *   reads only a regular file with exactly one hard link, of bounded size,
 *   through libuv (fsread.c).
 * - A write creates missing folders (or refuses), writes a temporary file
 *   created with O_EXCL in the target folder, fsyncs it and renames it to
 *   its name with RENAME_NOREPLACE: an existing file (or a link planted at
 *   the name) is never replaced nor followed.  On any failure the
 *   temporary file is removed, so nothing partial is left under the name.
 * - vdx__write_replace is the by-name write of page:screenshot{path} and
 *   vdx.write_base64 (a path the script chose): a temporary file beside it,
 *   renamed over it, removed on any failure.
 * Failures the world caused return nil, message, code; code is "Symlink",
 * "Exists", "NotFolder", "NotRegular", "HardLink", "TooLarge", "Timeout"
 * or the errno name ("ENOENT", "ENOSPC").
 */

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "vdx.h"

#define DIR_MT "vdx.Dir"
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

typedef struct vdx_dir {
  int fd;        /* -1 once closed */
  char *path;    /* the folder's absolute path, for messages and answers */
} vdx_dir;

/* ------------------------------------------------------------ failures */

/* stack: -> nil, message, code.  Returns 3. */
static int push_fail(lua_State *L, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int push_fail(lua_State *L, const char *code, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  lua_pushnil(L);
  lua_pushstring(L, msg);
  lua_pushstring(L, code);
  return 3;
}

/* Names errno e as a code: the kinds of refusal this file gives, else the
 * errno name libuv uses ("ENOENT"). */
static const char *code_of(int e) {
  switch (e) {
    case ELOOP: return "Symlink";
    case EXDEV: return "Symlink";
    case EEXIST: return "Exists";
    case ENOTDIR: return "NotFolder";
    case EDQUOT: return "ENOSPC";
    default: return uv_err_name(-e);
  }
}

static const char *why_of(int e) {
  switch (e) {
    case ELOOP: case EXDEV:
      return "a symbolic link is in the way (links are never followed here)";
    case EEXIST: return "it exists already (files are never replaced)";
    case ENOTDIR: return "a part of the path is not a folder";
    case ENOSPC: case EDQUOT: return "the disk is full";
    default: return strerror(e);
  }
}

static int fail_errno(lua_State *L, int e, const char *what, const char *dir,
                      const char *rel) {
  return push_fail(L, code_of(e), "cannot %s %s/%s: %s", what, dir, rel, why_of(e));
}

/* ---------------------------------------------------------- resolving */

/* Raises unless rel is a relative path of plain names: no leading '/',
 * no empty, "." or ".." part, no NUL. */
static void check_rel(lua_State *L, const char *rel, size_t len) {
  if (len == 0 || len >= PATH_MAX || strlen(rel) != len || rel[0] == '/')
    vdx__misuse(L, "the path must be a non-empty relative path (got '%s')", rel);
  const char *p = rel;
  while (*p) {
    const char *e = strchr(p, '/');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
      vdx__misuse(L, "the path '%s' has an empty, '.' or '..' part", rel);
    p += n + (e != NULL);
    if (e && *p == '\0') vdx__misuse(L, "the path '%s' ends with '/'", rel);
  }
}

/* Opens one name in folder at, never following a link; ENOTDIR for a
 * link given O_DIRECTORY becomes ELOOP. */
static int open_step(int at, const char *name, int flags, mode_t mode) {
  int fd = openat(at, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0 && errno == ENOTDIR) {
    struct stat st;
    if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
      errno = ELOOP;
    else
      errno = ENOTDIR;
  }
  return fd;
}

/* Opens rel beneath folder at, walking it one name at a time.  Each
 * folder of the walk is opened with O_NOFOLLOW | O_DIRECTORY; with mkdirs,
 * a missing one (and the last name, when flags ask for a folder) is made.  Returns the descriptor or -1 (errno). */
static int walk(int at, const char *rel, int flags, mode_t mode, int mkdirs) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", rel);
  int cur = at;
  char *name = buf;
  for (char *slash; (slash = strchr(name, '/')) != NULL; name = slash + 1) {
    *slash = '\0';
    int next = open_step(cur, name, O_RDONLY | O_DIRECTORY, 0);
    if (next < 0 && errno == ENOENT && mkdirs) {
      if (mkdirat(cur, name, 0777) < 0 && errno != EEXIST) next = -1;
      else next = open_step(cur, name, O_RDONLY | O_DIRECTORY, 0);
    }
    int e = errno;
    if (cur != at) close(cur);
    if (next < 0) { errno = e; return -1; }
    cur = next;
  }
  int fd = open_step(cur, name, flags, mode);
  if (fd < 0 && errno == ENOENT && mkdirs && (flags & O_DIRECTORY)) {
    if (mkdirat(cur, name, 0777) == 0 || errno == EEXIST)
      fd = open_step(cur, name, flags, mode);
  }
  int e = errno;
  if (cur != at) close(cur);
  errno = e;
  return fd;
}

static int use_openat2(void) {
  const char *v = getenv("VDX_NO_OPENAT2");
  return v == NULL || *v == '\0' || strcmp(v, "0") == 0;
}

/* Opens rel beneath folder at for reading: openat2 when the kernel has
 * it, else the walk.  Returns the descriptor or -1 (errno). */
static int open_beneath(int at, const char *rel, int flags) {
  if (use_openat2()) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, at, rel, &how, sizeof how);
    if (fd >= 0 || errno != ENOSYS) return (int)fd;
  }
  return walk(at, rel, flags, 0, 0);
}

/* ------------------------------------------------------------- vdx.Dir */

static vdx_dir *check_dir(lua_State *L, int idx) {
  vdx_dir *d = luaL_checkudata(L, idx, DIR_MT);
  if (d->fd < 0) vdx__misuse(L, "the folder %s is closed", d->path ? d->path : "?");
  return d;
}

/*
 * dir:read(rel[, {max_bytes=, timeout=}]) -> text | nil, message, code.
 * Reads the regular file rel beneath the folder without blocking the loop;
 * a link anywhere on the way, a FIFO, a device, a folder, a file with more
 * than one hard link or one over max_bytes (16 MiB) is refused.
 */
static int dir_read(lua_State *L) {
  static const char *const known[] = {"max_bytes", "timeout", NULL};
  vdx_dir *d = check_dir(L, 1);
  size_t len;
  const char *rel = luaL_checklstring(L, 2, &len);
  check_rel(L, rel, len);
  vdx__check_opts(L, 3, known);
  lua_Integer max, timeout;
  vdx__read_opts(L, 3, &max, &timeout);
  int fd = open_beneath(d->fd, rel, O_RDONLY | O_NONBLOCK);
  if (fd < 0) return fail_errno(L, errno, "read", d->path, rel);
  return vdx__read_fd(L, fd, max, timeout, 1);
}

/* Writes all of data to fd; 0 or -1 (errno). */
static int write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    data += n;
    len -= (size_t)n;
  }
  return 0;
}

/* Moves tmp to name in folder at unless name exists (RENAME_NOREPLACE, or
 * link + unlink where the file system lacks it).  0 or -1 (errno). */
static int move_noreplace(int at, const char *tmp, const char *name) {
  if (syscall(SYS_renameat2, at, tmp, at, name, RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  if (linkat(at, tmp, at, name, 0) < 0) return -1;
  unlinkat(at, tmp, 0);
  return 0;
}

/* Moves tmp over name in folder at, when name is a regular file (or
 * absent): the entry is replaced, never followed.  0 or -1 (errno:
 * ELOOP for a link there, EISDIR for a folder, EINVAL for another kind). */
static int move_replace(int at, const char *tmp, const char *name) {
  struct stat st;
  if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(st.st_mode)) { errno = ELOOP; return -1; }
    if (S_ISDIR(st.st_mode)) { errno = EISDIR; return -1; }
    if (!S_ISREG(st.st_mode)) { errno = EINVAL; return -1; }
  } else if (errno != ENOENT) {
    return -1;
  }
  return renameat(at, tmp, at, name);
}

/* Writes data as the new file name in folder at through a temporary
 * file (over a regular file of that name when replace is set); 0, or -1
 * with errno (the temporary file removed). */
static int write_new(int at, const char *name, const char *data, size_t len, int replace) {
  static unsigned counter;
  char tmp[NAME_MAX + 1];
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 100; tries++) {
    snprintf(tmp, sizeof tmp, ".vdx-%ld-%u.tmp", (long)getpid(), ++counter);
    fd = openat(at, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) return -1;
  }
  if (fd < 0) return -1;
  int rc = write_all(fd, data, len);
  if (rc == 0) rc = fsync(fd);
  int e = errno;
  if (close(fd) < 0 && rc == 0) { rc = -1; e = errno; }
  if (rc == 0) rc = replace ? move_replace(at, tmp, name) : move_noreplace(at, tmp, name), e = errno;
  if (rc < 0) {
    unlinkat(at, tmp, 0);
    errno = e;
    return -1;
  }
  fsync(at);
  return 0;
}

/*
 * dir:write(rel, data[, {mkdirs=true, replace=false}]) -> absolute path
 *   | nil, message, code.
 * Writes data as the new file rel beneath the folder.  Missing folders on
 * the way are made (with mkdirs=false the write fails with ENOENT); a link
 * on the way is refused ("Symlink"); an existing rel is never replaced
 * ("Exists") unless replace is true and it is a regular file (a link there
 * is refused, never followed); a full disk fails with "ENOSPC" and leaves
 * nothing behind.
 */
static int dir_write(lua_State *L) {
  static const char *const known[] = {"mkdirs", "replace", NULL};
  vdx_dir *d = check_dir(L, 1);
  size_t len, dlen;
  const char *rel = luaL_checklstring(L, 2, &len);
  const char *data = luaL_checklstring(L, 3, &dlen);
  check_rel(L, rel, len);
  vdx__check_opts(L, 4, known);
  vdx__opt_type(L, 4, "mkdirs", LUA_TBOOLEAN);
  vdx__opt_type(L, 4, "replace", LUA_TBOOLEAN);
  int mkdirs = 1, replace = 0;
  if (lua_istable(L, 4)) {
    lua_getfield(L, 4, "mkdirs");
    if (!lua_isnil(L, -1)) mkdirs = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, 4, "replace");
    replace = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  const char *base = strrchr(rel, '/');
  int parent = d->fd;
  if (base != NULL) {
    char prefix[PATH_MAX];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(base - rel), rel);
    parent = walk(d->fd, prefix, O_RDONLY | O_DIRECTORY, 0, mkdirs);
    if (parent < 0) return fail_errno(L, errno, "write", d->path, rel);
    base++;
  } else {
    base = rel;
  }
  int rc = write_new(parent, base, data, dlen, replace);
  int e = errno;
  if (parent != d->fd) close(parent);
  if (rc < 0) return fail_errno(L, e, "write", d->path, rel);
  lua_pushfstring(L, "%s/%s", d->path, rel);
  return 1;
}

/*
 * dir:kind(rel) -> "file" | "folder" | "link" | "fifo" | "socket" |
 *   "device" | nil, message, code.
 * What stands at rel beneath the folder, without following a link or
 * opening it (no FIFO is waited on); the folders on the way may not be
 * links either.
 */
static int dir_kind(lua_State *L) {
  vdx_dir *d = check_dir(L, 1);
  size_t len;
  const char *rel = luaL_checklstring(L, 2, &len);
  check_rel(L, rel, len);
  const char *base = strrchr(rel, '/');
  int parent = d->fd;
  if (base != NULL) {
    char prefix[PATH_MAX];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(base - rel), rel);
    parent = walk(d->fd, prefix, O_RDONLY | O_DIRECTORY, 0, 0);
    if (parent < 0) return fail_errno(L, errno, "inspect", d->path, rel);
    base++;
  } else {
    base = rel;
  }
  struct stat st;
  int rc = fstatat(parent, base, &st, AT_SYMLINK_NOFOLLOW);
  int e = errno;
  if (parent != d->fd) close(parent);
  if (rc < 0) return fail_errno(L, e, "inspect", d->path, rel);
  lua_pushstring(L, S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "folder"
                 : S_ISLNK(st.st_mode) ? "link" : S_ISFIFO(st.st_mode) ? "fifo"
                 : S_ISSOCK(st.st_mode) ? "socket" : "device");
  return 1;
}

/* dir:path() -> the folder's absolute path (as it was when opened). */
static int dir_path(lua_State *L) {
  vdx_dir *d = luaL_checkudata(L, 1, DIR_MT);
  lua_pushstring(L, d->path ? d->path : "");
  return 1;
}

/* dir:close() -> true; safe to call twice (also __gc and __close). */
static int dir_close(lua_State *L) {
  vdx_dir *d = luaL_checkudata(L, 1, DIR_MT);
  if (d->fd >= 0) close(d->fd);
  d->fd = -1;
  lua_pushboolean(L, 1);
  return 1;
}

static int dir_gc(lua_State *L) {
  vdx_dir *d = luaL_checkudata(L, 1, DIR_MT);
  if (d->fd >= 0) close(d->fd);
  d->fd = -1;
  free(d->path);
  d->path = NULL;
  return 0;
}

static int dir_tostring(lua_State *L) {
  vdx_dir *d = luaL_checkudata(L, 1, DIR_MT);
  lua_pushfstring(L, "vdx.Dir %s%s", d->path ? d->path : "?", d->fd < 0 ? " (closed)" : "");
  return 1;
}

/* ------------------------------------------------------ by-name writes */

/* Writes n bytes of data to a new temporary file beside path, syncs it
 * and renames it over path; on any failure removes it (nothing partial is
 * left under path) and returns the errno, else 0. */
int vdx__write_replace(const char *path, const void *data, size_t n) {
  const char *buf = data;
  static unsigned counter;
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.vdx-%ld-%u.tmp", path, (long)getpid(), ++counter)
      >= (int)sizeof tmp)
    return ENAMETOOLONG;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  int e = 0;
  for (size_t off = 0; off < n && e == 0;) {
    ssize_t w = write(fd, buf + off, n - off);
    if (w < 0 && errno != EINTR) e = errno;
    else if (w > 0) off += (size_t)w;
  }
  if (e == 0 && fsync(fd) < 0) e = errno;
  if (close(fd) < 0 && e == 0) e = errno;
  if (e == 0 && rename(tmp, path) < 0) e = errno;
  if (e != 0) unlink(tmp);
  return e;
}

/* ------------------------------------------------------------ open_dir */

/* Makes path and its missing parents, like mkdir -p; 0 or -1 (errno). */
static int mkdir_p(const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0777) < 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

/*
 * vdx.open_dir(path[, {follow=true, create=false}]) -> vdx.Dir
 *   | nil, message, code.
 * Opens the folder path once; reads and writes through the vdx.Dir stay
 * beneath it.  With follow=false the folder itself may not be a symbolic
 * link (code "Symlink"); with create, a missing folder is made first.
 */
static int l_open_dir(lua_State *L) {
  static const char *const known[] = {"follow", "create", NULL};
  const char *path = luaL_checkstring(L, 1);
  vdx__check_opts(L, 2, known);
  vdx__opt_type(L, 2, "follow", LUA_TBOOLEAN);
  vdx__opt_type(L, 2, "create", LUA_TBOOLEAN);
  int follow = 1, create = 0;
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "follow");
    if (!lua_isnil(L, -1)) follow = lua_toboolean(L, -1);
    lua_getfield(L, 2, "create");
    create = lua_toboolean(L, -1);
    lua_pop(L, 2);
  }
  int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW);
  int fd = open(path, flags);
  if (fd < 0 && errno == ENOENT && create) {
    if (mkdir_p(path) == 0) fd = open(path, flags);
  }
  if (fd < 0) {
    int e = errno;
    struct stat st;
    if (!follow && (e == ELOOP || e == ENOTDIR) && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
      return push_fail(L, "Symlink", "the folder %s is a symbolic link", path);
    return push_fail(L, code_of(e), "cannot open the folder %s: %s", path, why_of(e));
  }
  vdx_dir *d = lua_newuserdatauv(L, sizeof *d, 0);
  d->fd = fd;
  d->path = NULL;
  luaL_setmetatable(L, DIR_MT);
  char link[64], real[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, real, sizeof real - 1);
  if (n > 0) real[n] = '\0';
  d->path = strdup(n > 0 ? real : path);
  if (d->path == NULL) return luaL_error(L, "out of memory");
  return 1;
}

void vdx__fsbeneath_open(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"read", dir_read},
    {"write", dir_write},
    {"kind", dir_kind},
    {"path", dir_path},
    {"close", dir_close},
    {NULL, NULL}};
  if (luaL_newmetatable(L, DIR_MT)) {
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, dir_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, dir_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, dir_tostring);
    lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  lua_pushcfunction(L, l_open_dir);
  lua_setfield(L, -2, "open_dir");
}
