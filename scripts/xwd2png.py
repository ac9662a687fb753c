#!/usr/bin/env python3
"""xwd2png.py IN.xwd OUT.png: a 24/32-bit ZPixmap X window dump (xwd -root)
as an RGB PNG, with the standard library only (make wave-shot)."""

import struct
import sys
import zlib


def main():
    data = open(sys.argv[1], "rb").read()
    hdr = struct.unpack(">25I", data[:100])
    header_size, _, fmt, depth, width, height = hdr[0], hdr[1], hdr[2], hdr[3], hdr[4], hdr[5]
    byte_order, bpp, bpl, ncolors = hdr[7], hdr[11], hdr[12], hdr[19]
    red_mask, green_mask, blue_mask = hdr[15], hdr[16], hdr[17]
    if fmt != 2 or bpp not in (24, 32):
        sys.exit(f"xwd2png: only 24/32-bit ZPixmap dumps (format {fmt}, {bpp} bpp)")
    off = header_size + ncolors * 12
    step = bpp // 8
    shift = lambda m: (m & -m).bit_length() - 1  # noqa: E731
    rs, gs, bs = shift(red_mask), shift(green_mask), shift(blue_mask)
    rows = []
    for y in range(height):
        row = data[off + y * bpl: off + y * bpl + width * step]
        out = bytearray(b"\0")
        for x in range(width):
            px = row[x * step: x * step + step]
            v = int.from_bytes(px, "little" if byte_order == 0 else "big")
            out += bytes(((v & red_mask) >> rs, (v & green_mask) >> gs, (v & blue_mask) >> bs))
        rows.append(bytes(out))
    raw = b"".join(rows)

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(sys.argv[2], "wb").write(png)


if __name__ == "__main__":
    main()
