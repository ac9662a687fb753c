/* Integer matrix multiply (rv32i: the multiplications are calls to libgcc's
 * __mulsi3), a transpose and a trace. */
#include <stdio.h>

#include "soc.h"

#define N 10

static int a[N][N], b[N][N], c[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (i * 7 + j * 3) % 11 - 5;
      b[i][j] = (i == j) ? 2 : (i + j) % 5 - 2;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int s = 0;
      for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
  int trace = 0, neg = 0;
  for (int i = 0; i < N; i++) {
    trace += c[i][i];
    for (int j = 0; j < N; j++)
      if (c[i][j] < 0) neg++;
  }
  printf("matmul: %dx%d, trace %d, %d negative entries\n", N, N, trace, neg);
  return 0;
}
