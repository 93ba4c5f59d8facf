#!/usr/bin/env python3
"""svg_contrast.py FILE.svg FILE.png TEXT — for t_export_svg.sh: the <text> element holding
TEXT in the SVG meshcast exported, and its place in the PNG rsvg-convert rendered from it.
Prints "ok ..." or "bad ..." lines: the page rect and the text differ in colour, and in the
rendered picture the text's box holds pixels that stand out from the page."""
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib


def png_pixels(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    i, idat, w = 8, b'', 0
    while i < len(data):
        n, kind = struct.unpack('>I4s', data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, inter = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and ctype in (2, 6) and inter == 0, 'PNG kind %d/%d' % (depth, ctype)
            bpp = 4 if ctype == 6 else 3
        elif kind == b'IDAT':
            idat += body
        i += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, o = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[o], bytearray(raw[o + 1:o + 1 + stride])
        o += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[k:k + 3]) for k in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def lum(c):
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def hexrgb(s):
    s = s.lstrip('#')
    if len(s) == 3:
        s = ''.join(ch * 2 for ch in s)
    return tuple(int(s[k:k + 2], 16) for k in (0, 2, 4))


svg, png, want = sys.argv[1:4]
root = ET.parse(svg).getroot()
ns = '{http://www.w3.org/2000/svg}'
page = hexrgb(root.find(ns + 'rect').get('fill'))
el = next((t for t in root.iter(ns + 'text') if want in (t.text or '')), None)
if el is None:
    print('bad no <text> holding %r' % want)
    sys.exit(0)
fg = hexrgb(el.get('fill'))
d = abs(lum(fg) - lum(page))
print(('ok' if d >= 100 else 'bad') + ' the text (%s) stands out from the page (%s): luminance %d apart'
      % (el.get('fill'), root.find(ns + 'rect').get('fill'), d))
w, h, px = png_pixels(png)
x0, y0 = int(el.get('x')), int(el.get('y'))
x1 = x0 + 9 * len(el.text.rstrip())
box = [px[y][x] for y in range(max(0, y0 - 13), min(h, y0 + 4)) for x in range(x0, min(w, x1))]
from collections import Counter
pg = Counter(c for row in px for c in row).most_common(1)[0][0]   # the page, as rendered
ink = sum(1 for c in box if abs(lum(c) - lum(pg)) >= 80)
print(('ok' if box and ink >= 0.05 * len(box) else 'bad') +
      ' rendered: %d of %d pixels of the text stand out from the page' % (ink, len(box)))
