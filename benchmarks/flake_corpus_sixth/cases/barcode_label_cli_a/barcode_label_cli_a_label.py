"""Shipping-label CLI: 'python barcode_label_cli_a_label.py ORDER OUT' renders the label bitmap and writes a greyscale PGM preview."""
import sys


def downscale(pixels, w, h, f):
    out = []
    for y in range(0, h, f):
        for x in range(0, w, f):
            out.append(sum(pixels[(y + dy) * w + x + dx] for dy in range(f) for dx in range(f)) // (f * f))
    return out


def main(src, dst):
    w = h = 384
    pixels = [(x * y) % 256 for y in range(h) for x in range(w)]
    small = downscale(pixels, w, h, 4)
    with open(dst + ".part", "wb") as fh:
        fh.write(b"P5 96 96 255\n" + bytes(small))
    import os
    os.replace(dst + ".part", dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
