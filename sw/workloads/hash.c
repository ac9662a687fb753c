/* Hashing: splits a text into words, counts them in an open-addressing hash
 * table keyed by FNV-1a, and prints the most frequent word. */
#include <stdio.h>
#include <string.h>

#include "soc.h"

static const char text[] =
    "the quick brown fox jumps over the lazy dog and the dog sleeps while the fox "
    "runs around the field where a farmer grows corn and beans and the farmer sees "
    "the fox and the dog and he laughs because the fox is quick and the dog is lazy "
    "so the day goes on and on until the sun sets over the field and the farm";

#define SLOTS 128
struct slot {
  const char *word;
  int len;
  int count;
};
static struct slot table[SLOTS];

static unsigned fnv1a(const char *s, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

static struct slot *lookup(const char *w, int n) {
  unsigned i = fnv1a(w, n) & (SLOTS - 1);
  for (;;) {
    struct slot *s = &table[i];
    if (!s->word) {
      s->word = w;
      s->len = n;
      return s;
    }
    if (s->len == n && memcmp(s->word, w, (size_t)n) == 0) return s;
    i = (i + 1) & (SLOTS - 1);
  }
}

int main(void) {
  int words = 0, distinct = 0;
  for (int rep = 0; rep < 3; rep++) {
    const char *p = text;
    while (*p) {
      while (*p == ' ') p++;
      const char *w = p;
      while (*p && *p != ' ') p++;
      if (p > w) {
        struct slot *s = lookup(w, (int)(p - w));
        if (s->count++ == 0) distinct++;
        words++;
      }
    }
  }
  struct slot *best = 0;
  for (int i = 0; i < SLOTS; i++)
    if (table[i].word && (!best || table[i].count > best->count)) best = &table[i];
  printf("hash: %d words, %d distinct, most frequent '%.*s' x%d\n", words, distinct, best->len, best->word,
         best->count);
  return 0;
}
