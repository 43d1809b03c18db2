#!/usr/bin/env python3
"""Checks ms_memusage's graph against memusage's data file and memusagestat.

png_check.py --data DATA --ours OURS.png --ref REF.png --size WxH
             [--time] [--total] [--title S] [--svg OURS.svg] [--max-diff F]

Decodes both PNGs (its own decoder: zlib plus PNG's filters, palette or
truecolour, any bit depth, no interlace), then checks OURS on its own:
the size asked for, libgd's transparent background, the colours the
options call for (black only with --total), and the heap line where the
data file puts it, by memusagestat's arithmetic redone here. Then it
prints the share of pixels differing from REF and fails above --max-diff
(default 0: the same libgd calls on the same data give the same raster).
With --svg it checks that file: well-formed XML, the viewBox of the size,
and every record's heap point on a red polyline.
Prints one line per check; exits 1 on the first failure.
"""
import argparse
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

RED, GREEN, BLUE = (255, 0, 0), (0, 130, 0), (0, 0, 255)
YELLOW, BLACK, GREY = (154, 205, 50), (0, 0, 0), (224, 224, 224)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(ftype, line, prev, bpp):
    """Undoes PNG's filter of one scanline in place."""
    n = len(line)
    if ftype == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif ftype == 2:
        for i in range(n):
            line[i] = (line[i] + prev[i]) & 255
    elif ftype == 3:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (left + prev[i]) // 2) & 255
    elif ftype == 4:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            corner = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + paeth(left, prev[i], corner)) & 255
    elif ftype != 0:
        fail("unknown PNG filter type %d" % ftype)


def decode_png(path):
    """Returns (width, height, rows): rows[y][x] is an (r, g, b, a) tuple."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s: not a PNG file" % path)
    pos, idat, palette, trns = 8, b"", None, None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]:
            fail("%s: bad CRC in %s chunk" % (path, kind.decode("latin-1")))
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if interlace:
        fail("%s: interlaced PNGs are not supported" % path)
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    bits = depth * channels
    stride = (width * bits + 7) // 8
    bpp = max(1, bits // 8)
    raw = zlib.decompress(idat)
    if ctype == 3:
        trns = trns or b""
        colours = [palette[i] + ((trns[i] if i < len(trns) else 255),) for i in range(len(palette))]
    per_byte = 8 // depth if depth < 8 else 1
    # Each byte's samples, high bits first, for depths below 8.
    unpack = [[b >> s & ((1 << depth) - 1) for s in range(8 - depth, -1, -depth)]
              for b in range(256)] if depth < 8 else None
    prev, rows, at = bytearray(stride), [], 0
    for _ in range(height):
        ftype, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        unfilter(ftype, line, prev, bpp)
        prev = line
        if depth < 8:
            samples = [v for byte in line for v in unpack[byte]][:width * per_byte]
        elif depth == 8:
            samples = line
        else:
            samples = line[::2]  # the high bytes of 16-bit samples
        if ctype == 3:
            rows.append([colours[i] for i in samples[:width]])
            continue
        row = []
        for x in range(width):
            s = samples[x * channels:(x + 1) * channels]
            if ctype in (0, 4):
                row.append((s[0],) * 3 + ((s[1],) if ctype == 4 else (255,)))
            else:
                row.append(tuple(s[:3]) + ((s[3],) if ctype == 6 else (255,)))
        rows.append(row)
    return width, height, rows


def read_data(path, total_scale):
    """The data file's records and the peaks memusagestat scales by."""
    data = open(path, "rb").read()
    recs = [struct.unpack("<QQII", data[i:i + 24]) for i in range(0, len(data), 24)]
    recs = [(h, s, hi << 32 | lo) for h, s, lo, hi in recs]
    peak_heap, peak_stack = recs[1][0], recs[1][1]
    if total_scale:
        peak_heap = peak_stack = recs[0][1]
    return recs[2:], peak_heap, peak_stack, recs[0][2], recs[1][2]


M64 = 1 << 64


def gd_int(v):
    """memusagestat's size_t value as the int libgd gets."""
    v %= 1 << 32
    return v - (1 << 32) if v >= 1 << 31 else v


def plot_points(args, w, h):
    """Per record: (x, heap row, stack row or None, total row or None,
    heap); entry 0 is where every line starts."""
    recs, peak_heap, peak_stack, start, end = read_data(args.data, args.total)
    if peak_heap == 0 or end == start:
        fail("the data file has no heap peak or no time span")
    span = (end - start) % M64
    row = lambda value, peak: gd_int((h - 20) - ((h - 40) * value % M64) // peak)
    points = [(40, h - 20, h - 20, h - 20, 0)]
    for i, (heap, stack, t) in enumerate(recs, 1):
        if args.time:
            x = gd_int(40 + ((w - 80) * ((t - start) % M64) % M64) // span)
        else:
            x = 40 + ((w - 80) * i) // len(recs)
        points.append((x, row(heap, peak_heap), row(stack, peak_stack) if peak_stack else None,
                       row(heap + stack, peak_heap) if args.total else None, heap))
    return points


def check_heap_line(args, w, h, rows):
    """The last record ending in each column has a red pixel at its heap
    row unless a line drawn after it may cross there: memusagestat draws
    record j's total (black), heap (red) and stack (green) segments from
    point j-1 to point j, and a segment stays in the box of its ends."""
    points = plot_points(args, w, h)
    columns, last = {}, {}
    for j in range(1, len(points)):
        x0, x1 = sorted((points[j - 1][0], points[j][0]))
        for c in range(max(x0, 0), min(x1, w - 1) + 1):
            columns.setdefault(c, []).append(j)
        last[points[j][0]] = j
    checked, best = 0, None
    for x, k in sorted(last.items()):
        yh = points[k][1]
        if not (0 <= x < w and 0 <= yh < h - 21):
            continue
        covered = False
        for j in columns.get(x, []):
            # Red segment k+1 repaints the point after black segment k+1.
            for line, first in ((2, k), (3, k + 2)):
                a, b = points[j - 1][line], points[j][line]
                if j >= first and a is not None and min(a, b) <= yh <= max(a, b):
                    covered = True
        if covered:
            continue
        checked += 1
        if rows[yh][x][:3] != RED:
            fail("record %d: no heap line at (%d, %d), found %s" % (k, x, yh, rows[yh][x]))
        if best is None or points[k][4] > best[2]:
            best = (x, yh, points[k][4])
    if checked < len(last) // 4 or best is None:
        fail("only %d of %d columns have a heap point clear of other lines" % (checked, len(last)))
    peak = max(p[4] for p in points)
    print("heap line: red at %d record points; highest %d bytes at (%d, %d), peak %d bytes"
          % (checked, best[2], best[0], best[1], peak))


def check_svg(args, w, h):
    try:
        root = ET.parse(args.svg).getroot()
    except ET.ParseError as e:
        fail("SVG is not well-formed XML: %s" % e)
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        fail("SVG root is %s" % root.tag)
    if root.get("viewBox") != "0 0 %d %d" % (w, h):
        fail("SVG viewBox is %r, expected '0 0 %d %d'" % (root.get("viewBox"), w, h))
    points = set()
    for line in root.iter("{http://www.w3.org/2000/svg}polyline"):
        if line.get("stroke") == "#ff0000":
            for pair in line.get("points").split():
                x, y = pair.split(",")
                points.add((float(x), float(y)))
    want = [(p[0] + 0.5, p[1] + 0.5) for p in plot_points(args, w, h)[1:]]
    missing = [p for p in want if p not in points]
    if missing:
        fail("SVG: %d of %d heap points missing from red polylines, first %s"
             % (len(missing), len(want), missing[0]))
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    if args.title is not None and args.title not in texts:
        fail("SVG: no text element holds the title %r" % args.title)
    blacks = [l for l in root.iter("{http://www.w3.org/2000/svg}polyline") if l.get("stroke") == "#000000"]
    if bool(blacks) != args.total:
        fail("SVG: total line %s" % ("missing" if args.total else "drawn without --total"))
    print("svg: well-formed, viewBox 0 0 %d %d, all %d heap points on red polylines" % (w, h, len(want)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", required=True)
    p.add_argument("--ours", required=True)
    p.add_argument("--ref", required=True)
    p.add_argument("--size", required=True)
    p.add_argument("--time", action="store_true")
    p.add_argument("--total", action="store_true")
    p.add_argument("--title")
    p.add_argument("--svg")
    p.add_argument("--max-diff", type=float, default=0.0)
    args = p.parse_args()
    want_w, want_h = map(int, args.size.split("x"))

    w, h, ours = decode_png(args.ours)
    if (w, h) != (want_w, want_h):
        fail("our PNG is %dx%d, expected %dx%d" % (w, h, want_w, want_h))
    colours = {px for row in ours for px in row}
    if (GREY + (0,)) not in colours:
        fail("no transparent grey background")
    for name, rgb in (("red", RED), ("green", GREEN), ("blue", BLUE), ("yellow", YELLOW)):
        if rgb + (255,) not in colours:
            fail("colour %s %s missing" % (name, rgb))
    if ((BLACK + (255,)) in colours) != args.total:
        fail("total line (black) %s" % ("missing" if args.total else "drawn without --total"))
    unexpected = colours - {c + (255,) for c in (RED, GREEN, BLUE, YELLOW, BLACK)} - {GREY + (0,)}
    if unexpected:
        fail("unexpected colours %s" % sorted(unexpected))
    print("size %dx%d, colours ok%s" % (w, h, ", total line drawn" if args.total else ""))
    check_heap_line(args, w, h, ours)

    rw, rh, ref = decode_png(args.ref)
    if (rw, rh) != (w, h):
        fail("memusagestat's PNG is %dx%d, ours %dx%d" % (rw, rh, w, h))
    differing = sum(a != b for ra, rb in zip(ours, ref) for a, b in zip(ra, rb))
    share = differing / float(w * h)
    print("pixels differing from memusagestat: %d of %d (%.4f%%)" % (differing, w * h, 100 * share))
    if share > args.max_diff:
        fail("more than %.4f%% of the pixels differ" % (100 * args.max_diff))
    if args.svg:
        check_svg(args, w, h)


if __name__ == "__main__":
    main()
