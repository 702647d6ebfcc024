/* Forks children that wait forever until fork fails; reports how many it made.
   Bounded only by the process-count limit. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  for (int i = 0; i < 1000; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      for (;;) pause();
    }
    if (pid < 0) {
      printf("fork refused after %d children: %s\n", i, strerror(errno));
      fflush(stdout);
      return 3;
    }
  }
  printf("never refused\n");
  return 0;
}
