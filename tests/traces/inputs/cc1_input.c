/* Input of the long cc1 trace (scripts/record_long_traces.sh): a small C
   file with loops, calls, a switch and a recursive function, so cc1 -O2
   runs its whole optimisation pipeline on real code. */
#include <stddef.h>

struct node { int key; struct node *left, *right; };

static struct node *insert(struct node *t, struct node *n) {
  if (!t) return n;
  if (n->key < t->key) t->left = insert(t->left, n);
  else t->right = insert(t->right, n);
  return t;
}

static int depth(const struct node *t) {
  if (!t) return 0;
  int l = depth(t->left), r = depth(t->right);
  return 1 + (l > r ? l : r);
}

int checksum(const unsigned char *p, size_t n) {
  unsigned a = 1, b = 0;
  for (size_t i = 0; i < n; ++i) { a = (a + p[i]) % 65521; b = (b + a) % 65521; }
  return (int)(b << 16 | a);
}

int classify(int c) {
  switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
    case ' ': case '\t': case '\n': return 2;
    default: return c >= '0' && c <= '9' ? 3 : 0;
  }
}

int tree_depth(struct node *pool, int n) {
  struct node *root = NULL;
  for (int i = 0; i < n; ++i) { pool[i].key = (i * 7919) % 1009; pool[i].left = pool[i].right = NULL; root = insert(root, &pool[i]); }
  return depth(root);
}
