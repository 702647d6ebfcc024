/* Daemonises the classic way (fork, setsid, fork) and sleeps; the daemon writes its pid (as it
   sees it) to argv[1], then the original process exits 0 at once. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  pid_t first = fork();
  if (first < 0) return 1;
  if (first > 0) {
    sleep(1); /* let the daemon write its pid before the candidate ends */
    return 0;
  }
  setsid();
  if (fork() != 0) _exit(0);
  FILE* f = fopen(argv[1], "w");
  if (!f) _exit(1);
  fprintf(f, "%d\n", (int)getpid());
  fclose(f);
  for (;;) pause();
}
