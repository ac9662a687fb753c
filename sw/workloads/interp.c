/* A small stack-machine bytecode interpreter (switch dispatch: an indirect
 * jump through a table) running an iterative Fibonacci and a loop, and a
 * recursive Fibonacci and Ackermann for call/return depth. */
#include <stdio.h>

#include "soc.h"

enum { PUSH, LOAD, STORE, ADD, SUB, JNZ, JMP, DUP, POP, HALT };

static int run(const int *code, int *vars) {
  int stack[16], sp = 0, pc = 0;
  for (;;) {
    switch (code[pc++]) {
      case PUSH: stack[sp++] = code[pc++]; break;
      case LOAD: stack[sp++] = vars[code[pc++]]; break;
      case STORE: vars[code[pc++]] = stack[--sp]; break;
      case ADD: sp--; stack[sp - 1] += stack[sp]; break;
      case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
      case JNZ: { int t = code[pc++]; if (stack[--sp]) pc = t; break; }
      case JMP: pc = code[pc]; break;
      case DUP: stack[sp] = stack[sp - 1]; sp++; break;
      case POP: sp--; break;
      case HALT: return sp ? stack[sp - 1] : 0;
    }
  }
}

/* vars: 0 = a, 1 = b, 2 = n. fib(n) iteratively. */
static const int fib_code[] = {
    PUSH, 0, STORE, 0, PUSH, 1, STORE, 1, PUSH, 24, STORE, 2,
    /* 12: loop */
    LOAD, 0, LOAD, 1, ADD, LOAD, 1, STORE, 0, STORE, 1,
    LOAD, 2, PUSH, 1, SUB, DUP, STORE, 2, JNZ, 12,
    LOAD, 0, HALT};

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

int main(void) {
  int vars[3];
  int r = 0;
  for (int i = 0; i < 8; i++) r = run(fib_code, vars);
  int f = fib(15);
  int k = ack(2, 3);
  printf("interp: bytecode fib(24) = %d, fib(15) = %d, ack(2,3) = %d\n", r, f, k);
  return (r == 46368 && f == 610 && k == 9) ? 0 : 1;
}
