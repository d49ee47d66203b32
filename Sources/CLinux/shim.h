#ifndef PROSPECTS_CLINUX_SHIM_H
#define PROSPECTS_CLINUX_SHIM_H

// Linux calls that Swift's Glibc module does not import (glibc declares them only under _GNU_SOURCE).

#include <malloc.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Declared by glibc 2.34+ under _GNU_SOURCE only, which Swift's Glibc module is not built with.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// rename(2) that fails with EEXIST instead of replacing an existing destination, atomically.
/// The corresponding C function is `renameat2` with `RENAME_NOREPLACE` (Linux 3.15+, ext4, xfs, btrfs, tmpfs).
static inline int prospects_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, 1u /* RENAME_NOREPLACE */);
}

/// Takes a read lease on `fd` (opened read-only) and drops it at once: 0 when it was granted, else -1 with errno
/// set (EAGAIN: some process has the file open for writing; EACCES: only the file's owner, or a process with
/// CAP_LEASE, may take one). The C function is `fcntl` with `F_SETLEASE`, which glibc declares under _GNU_SOURCE
/// only; called through syscall(2), since including <fcntl.h> here would move `struct stat` into this module.
static inline int prospects_probe_read_lease(int fd) {
    long result = syscall(SYS_fcntl, fd, 1024 /* F_SETLEASE */, 0 /* F_RDLCK */);
    if (result == 0) syscall(SYS_fcntl, fd, 1024 /* F_SETLEASE */, 2 /* F_UNLCK */);
    return (int)result;
}

/// pipe(2) with flags (O_CLOEXEC, O_NONBLOCK) set atomically at creation. The corresponding C function is `pipe2`.
static inline int prospects_pipe2(int fds[2], int flags) {
    return (int)syscall(SYS_pipe2, fds, flags);
}

/// Fixes glibc's mmap threshold at `bytes` (allocations this large or larger are mmapped and unmapped on free).
/// The corresponding C function is `mallopt` with `M_MMAP_THRESHOLD`; 1 on success.
static inline int prospects_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// Keeps up to `bytes` free at the top of the heap instead of handing it back to the kernel at once.
/// The corresponding C function is `mallopt` with `M_TRIM_THRESHOLD`; 1 on success.
static inline int prospects_set_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }

#endif
