/* The hwprof SoC's devices for programs (docs/soc.md). */
#ifndef HWPROF_SOC_H
#define HWPROF_SOC_H

#define SOC_UART_THR ((volatile unsigned char *)0x10000000u)
#define SOC_UART_LSR ((volatile unsigned char *)0x10000005u)
#define SOC_EXIT ((volatile unsigned int *)0x00100000u)

/* One character to the UART (waits for the transmitter, as on a 16550). */
void soc_putc(char c);
/* A string, no newline added. */
void soc_puts(const char *s);
/* An unsigned number in decimal / hexadecimal. */
void soc_putu(unsigned v);
void soc_putx(unsigned v);
/* Ends the program with `code` (0 = success). */
void soc_exit(int code) __attribute__((noreturn));

#endif
