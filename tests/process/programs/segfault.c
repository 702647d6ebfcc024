/* Writes through a null pointer: the run must end with SIGSEGV. */
int main(void) {
  volatile int* p = 0;
  *p = 1;
  return 0;
}
