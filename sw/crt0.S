/* crt0 of the hwprof SoC (docs/soc.md): stack, global pointer, .bss cleared,
 * main(), then the exit register (qemu virt's sifive_test at 0x100000:
 * 0x5555 = exit 0, (code << 16) | 0x3333 = exit code). The program is loaded
 * into RAM as a whole (no .data copy). */
  .section .text.init, "ax"
  .globl _start
_start:
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la sp, __stack_top
  la t0, __bss_start
  la t1, __bss_end
1:
  bgeu t0, t1, 2f
  sw zero, 0(t0)
  addi t0, t0, 4
  j 1b
2:
  li a0, 0
  li a1, 0
  call main
  call soc_exit
3:
  j 3b
