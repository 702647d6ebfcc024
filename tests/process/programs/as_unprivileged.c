/* Runs a command as a grading service in an unprivileged container would run it: as uid/gid 65534
 * (or --uid N) with no supplementary groups and no capabilities (when started as root), and, with --no-namespaces,
 * under a system call filter that refuses every new namespace the way Docker's default profile
 * does: clone and unshare with a CLONE_NEW* flag fail with EPERM, setns with EPERM, clone3 with
 * ENOSYS (its flags cannot be inspected, so libc falls back to clone).
 *
 * usage: as_unprivileged [--uid N] [--no-namespaces] COMMAND [ARG...]          (cc ... -lseccomp) */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static int refuse_namespaces(void) {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return -1;
  const unsigned long flags[] = {CLONE_NEWNS,  CLONE_NEWUTS, CLONE_NEWIPC,   CLONE_NEWUSER,
                                 CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP};
  int rc = 0;
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; ++i) {
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flags[i], flags[i]));
    rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flags[i], flags[i]));
  }
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setns), 0);
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  return rc;
}

int main(int argc, char** argv) {
  int first = 1, no_namespaces = 0;
  unsigned long uid = 65534;
  for (; first < argc && argv[first][0] == '-'; ++first) {
    if (strcmp(argv[first], "--no-namespaces") == 0) {
      no_namespaces = 1;
    } else if (strcmp(argv[first], "--uid") == 0 && first + 1 < argc) {
      uid = strtoul(argv[++first], NULL, 10);
    } else {
      break;
    }
  }
  if (first >= argc) {
    fprintf(stderr, "usage: as_unprivileged [--uid N] [--no-namespaces] COMMAND [ARG...]\n");
    return 2;
  }
  if (geteuid() == 0) {
    if (setgroups(0, NULL) != 0 || setresgid(uid, uid, uid) != 0 || setresuid(uid, uid, uid) != 0) {
      fprintf(stderr, "as_unprivileged: dropping to uid %lu: %s\n", uid, strerror(errno));
      return 2;
    }
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    perror("as_unprivileged: no_new_privs");
    return 2;
  }
  if (no_namespaces && refuse_namespaces() != 0) {
    fprintf(stderr, "as_unprivileged: cannot install the namespace filter\n");
    return 2;
  }
  execvp(argv[first], argv + first);
  fprintf(stderr, "as_unprivileged: cannot execute %s: %s\n", argv[first], strerror(errno));
  return 127;
}
