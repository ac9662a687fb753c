/* Sorting: a recursive quicksort (median of three, insertion sort below 8
 * elements) and a bottom-up merge sort over pseudo-random keys; checks both
 * and prints a checksum. */
#include <stdio.h>

#include "soc.h"

#define N 300

static unsigned a[N], b[N], tmp[N];
static unsigned seed = 12345;

static unsigned rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

static void insertion(unsigned *v, int lo, int hi) {
  for (int i = lo + 1; i <= hi; i++) {
    unsigned x = v[i];
    int j = i - 1;
    while (j >= lo && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
}

static void swap(unsigned *v, int i, int j) {
  unsigned t = v[i];
  v[i] = v[j];
  v[j] = t;
}

static void quicksort(unsigned *v, int lo, int hi) {
  if (hi - lo < 8) {
    insertion(v, lo, hi);
    return;
  }
  int mid = lo + (hi - lo) / 2;
  if (v[mid] < v[lo]) swap(v, mid, lo);
  if (v[hi] < v[lo]) swap(v, hi, lo);
  if (v[hi] < v[mid]) swap(v, hi, mid);
  unsigned p = v[mid];
  int i = lo, j = hi;
  while (i <= j) {
    while (v[i] < p) i++;
    while (v[j] > p) j--;
    if (i <= j) swap(v, i++, j--);
  }
  quicksort(v, lo, j);
  quicksort(v, i, hi);
}

static void mergesort(unsigned *v, int n) {
  for (int w = 1; w < n; w *= 2) {
    for (int lo = 0; lo < n; lo += 2 * w) {
      int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = v[i] <= v[j] ? v[i++] : v[j++];
      while (i < mid) tmp[k++] = v[i++];
      while (j < hi) tmp[k++] = v[j++];
    }
    for (int i = 0; i < n; i++) v[i] = tmp[i];
  }
}

int main(void) {
  for (int i = 0; i < N; i++) a[i] = b[i] = rnd() % 10000;
  quicksort(a, 0, N - 1);
  mergesort(b, N);
  unsigned sum = 0;
  for (int i = 0; i < N; i++) {
    if (a[i] != b[i] || (i && a[i - 1] > a[i])) {
      printf("sort: mismatch at %d\n", i);
      return 1;
    }
    sum = sum * 31 + a[i];
  }
  printf("sort: %d keys sorted, checksum %08x\n", N, sum);
  return 0;
}
