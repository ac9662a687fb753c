/* hwprof symbols test program: one hot loop in hot_loop(). */
static volatile unsigned sink;

__attribute__((noinline)) unsigned hot_loop(unsigned n) { /* HOT_BEGIN */
  unsigned s = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (i % 3 == 0)
      s += i;
    else
      s ^= i;
  }
  return s;
} /* HOT_END */

#ifdef BARE
void _start(void) {
  sink = hot_loop(20000);
  register long a0 __asm__("a0") = 0;
  register long a7 __asm__("a7") = 93; /* exit */
  __asm__ volatile("ecall" : : "r"(a0), "r"(a7));
  for (;;) {
  }
}
#else
int main(void) {
  sink = hot_loop(100000);
  return 0;
}
#endif
