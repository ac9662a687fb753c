/* CRC-32 (IEEE, reflected) computed bit by bit and with a 256-entry table
 * over the same buffer; both must agree. */
#include <stdio.h>

#include "soc.h"

#define LEN 1024

static unsigned char buf[LEN];
static unsigned table[256];

static unsigned crc_bitwise(const unsigned char *p, int n) {
  unsigned c = 0xffffffffu;
  while (n--) {
    c ^= *p++;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
  }
  return ~c;
}

static void make_table(void) {
  for (unsigned i = 0; i < 256; i++) {
    unsigned c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
    table[i] = c;
  }
}

static unsigned crc_table(const unsigned char *p, int n) {
  unsigned c = 0xffffffffu;
  while (n--) c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
  return ~c;
}

int main(void) {
  unsigned x = 1;
  for (int i = 0; i < LEN; i++) {
    x = x * 1103515245u + 12345u;
    buf[i] = (unsigned char)(x >> 16);
  }
  make_table();
  unsigned a = crc_bitwise(buf, LEN), b = 0;
  for (int r = 0; r < 4; r++) b = crc_table(buf, LEN - r);
  if (crc_table(buf, LEN) != a) {
    printf("crc: bitwise %08x != table\n", a);
    return 1;
  }
  printf("crc: %d bytes, crc32 %08x, short %08x\n", LEN, a, b);
  return 0;
}
