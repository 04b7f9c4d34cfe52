#!/usr/bin/env python3
"""Writes the meshes of the examples (run from this folder): cam.obj, a disc cam of radius 0.05 m
whose centre is 0.015 m off its axis of rotation (the y axis through the origin), 0.03 m thick,
as a prism on a regular 72-gon; part.obj, a hexagonal prism 0.06 m across the flats (the flats facing x) and
0.08 m tall, its base at z = -0.04. Vertices in metres; faces counter-clockwise seen from outside."""
import math


def prism(path, outline, y_or_z, lo, hi, comment):
    """The prism over the convex polygon `outline` (counter-clockwise about +axis) between lo and hi
    along the axis 'y' (outline in (z, x)) or 'z' (outline in (x, y))."""
    n = len(outline)

    def point(a, b, h):
        return (b, h, a) if y_or_z == 'y' else (a, b, h)

    with open(path, 'w') as f:
        f.write(comment)
        for h in (lo, hi):
            for a, b in outline:
                f.write('v %.9f %.9f %.9f\n' % point(a, b, h))
        # The end at lo faces -axis (clockwise about +axis), the end at hi faces +axis.
        f.write('f ' + ' '.join(str(k + 1) for k in reversed(range(n))) + '\n')
        f.write('f ' + ' '.join(str(n + k + 1) for k in range(n)) + '\n')
        for k in range(n):
            j = (k + 1) % n
            f.write('f %d %d %d %d\n' % (k + 1, j + 1, n + j + 1, n + k + 1))


R, e, N = 0.05, 0.015, 72
# In the (z, x) plane, counter-clockwise about +y: vertex k at angle 2 pi k / N from +z towards +x.
cam = [(e + R * math.cos(2 * math.pi * k / N), R * math.sin(2 * math.pi * k / N)) for k in range(N)]
prism('cam.obj', cam, 'y', -0.015, 0.015,
      '# Disc cam: radius 0.05 m, centre 0.015 m from the y axis along +z, 0.03 m thick, a 72-gon prism\n'
      '# (make_meshes.py).\n')
a = 0.03 / math.cos(math.pi / 6)  # circumradius of a hexagon 0.06 m across the flats
hexagon = [(a * math.cos(math.pi / 3 * k + math.pi / 6), a * math.sin(math.pi / 3 * k + math.pi / 6)) for k in range(6)]
prism('part.obj', hexagon, 'z', -0.04, 0.04,
      '# Hexagonal prism 0.06 m across the flats (flats facing x; corners on y), 0.08 m tall (make_meshes.py).\n')
