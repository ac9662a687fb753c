/* A memory-bound workload for the memory-dependence study (docs/analyses.md,
 * "Memory aliasing"; scripts/bench_alias.py): values that travel through
 * memory on the program's critical recurrences.
 *   - a linked list in shuffled order (pointer chasing: load -> load);
 *   - per node, a counter, a histogram bin and a running total updated
 *     through pointers by a function the compiler may not inline: the total
 *     is a recurrence through memory (one store -> load per node, about 30
 *     instructions apart), the bins come back every few dozen nodes;
 *   - an open-addressing hash table: insert-or-increment of the node keys
 *     (loads of slots that recent iterations stored).
 *   - a running sum kept in memory by a loop the compiler cannot keep in a
 *     register (a store through another pointer may alias it): a tight
 *     recurrence through memory, one store -> load every 6 instructions,
 *     through the same address expression;
 *   - a byte histogram over data with long runs of equal bytes: the same
 *     bin incremented back to back (a recurrence through memory whose
 *     address comes from the data: [base + byte * 4], a new index each time).
 * Deterministic (own LCG), about 1.5 M instructions; prints a checksum.
 * Build: gcc -O2 -o memchase memchase.c */
#include <stdint.h>
#include <stdio.h>

#define N 2048
#define ROUNDS 8
#define TABLE 1024

struct node {
  struct node *next;
  uint32_t key;
  uint32_t count;
};

static struct node nodes[N];
static uint32_t hist[32];
static uint64_t keys[TABLE];
static uint32_t vals[TABLE];
static uint32_t lcg = 12345u;

static uint32_t rnd(void) {
  lcg = lcg * 1103515245u + 12345u;
  return lcg >> 8;
}

__attribute__((noinline)) static void bump(uint32_t *c, uint32_t *h, uint64_t *t) {
  *c += 1;
  *h += *c;
  *t += *h; /* a running total through memory: a recurrence of one store -> load per node */
}

__attribute__((noinline)) static void insert(uint64_t k) {
  uint32_t i = (uint32_t)(k * 0x9e3779b97f4a7c15ull >> 54) & (TABLE - 1);
  while (keys[i] != 0 && keys[i] != k) i = (i + 1) & (TABLE - 1);
  keys[i] = k;
  vals[i] += 1;
}

__attribute__((noinline)) static void accumulate(uint32_t *t, const uint32_t *v, uint32_t *out, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) {
    *t += v[i];
    out[i] = *t;
  }
}

__attribute__((noinline)) static void histo(const uint8_t *d, uint32_t n, uint32_t *h) {
  for (uint32_t i = 0; i < n; ++i) h[d[i] & 7]++;
}

static uint32_t acc_in[N], acc_out[N], bins[8];
static uint8_t runs[4 * N];

int main(void) {
  static uint32_t order[N];
  for (uint32_t i = 0; i < N; ++i) order[i] = i;
  for (uint32_t i = N - 1; i > 0; --i) {
    uint32_t j = rnd() % (i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (uint32_t i = 0; i < N; ++i) {
    nodes[order[i]].next = &nodes[order[(i + 1) % N]];
    nodes[order[i]].key = rnd() % 700 + 1;
  }
  static uint64_t totals[2];
  uint64_t sum = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    struct node *p = &nodes[order[0]];
    for (uint32_t i = 0; i < N; ++i) {
      bump(&p->count, &hist[p->key & 31], &totals[r & 1]);
      insert(p->key);
      sum += p->count;
      p = p->next;
    }
  }
  for (uint32_t i = 0; i < N; ++i) acc_in[i] = rnd() & 0xff;
  uint32_t acc = 0;
  for (int r = 0; r < 8; ++r) accumulate(&acc, acc_in, acc_out, N);
  for (uint32_t i = 0; i < 4 * N;) { /* runs of 8 to 71 equal bytes */
    const uint32_t len = 8 + rnd() % 64, b = rnd() & 7;
    for (uint32_t k = 0; k < len && i < 4 * N; ++k) runs[i++] = (uint8_t)b;
  }
  for (int r = 0; r < 4; ++r) histo(runs, 4 * N, bins);
  sum += acc + acc_out[N - 1];
  for (int i = 0; i < 8; ++i) sum += bins[i] * (uint64_t)(i + 1);
  sum += totals[0] + totals[1];
  for (int i = 0; i < 32; ++i) sum += hist[i];
  for (int i = 0; i < TABLE; ++i) sum += vals[i] * (uint64_t)i;
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
