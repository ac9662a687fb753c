/* The hwprof SoC's UART output and exit (docs/soc.md), and picolibc's
 * stdout on the UART so that printf works. */
#include "soc.h"

#include <stdio.h>

void soc_putc(char c) {
  while (!(*SOC_UART_LSR & 0x20)) {
  }
  *SOC_UART_THR = (unsigned char)c;
}

void soc_puts(const char *s) {
  while (*s) soc_putc(*s++);
}

void soc_putu(unsigned v) {
  char b[12];
  int n = 0;
  do {
    b[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) soc_putc(b[--n]);
}

void soc_putx(unsigned v) {
  for (int i = 28; i >= 0; i -= 4) soc_putc("0123456789abcdef"[(v >> i) & 15]);
}

void soc_exit(int code) {
  *SOC_EXIT = code ? (((unsigned)code << 16) | 0x3333u) : 0x5555u;
  for (;;) {
  }
}

static int uart_put(char c, FILE *f) {
  (void)f;
  soc_putc(c);
  return (unsigned char)c;
}

static FILE soc_stdout = FDEV_SETUP_STREAM(uart_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &soc_stdout;
