#!/usr/bin/env python3
"""Writes the finite-element model of a straight 3-D Euler-Bernoulli beam along x (frame elements:
axial, torsion and two bending planes, consistent mass; Przemieniecki, Theory of Matrix Structural
Analysis, ch. 5 and 11) as Matrix Market files of its mass and stiffness matrices and a CSV of its
nodes, for a modal body (docs/flexible_modal.md). Nodes of 6 degrees of freedom: ux, uy, uz, rx, ry,
rz (ry = -dw/dx, rz = dv/dx). Pure Python (no numpy).

usage: beam_fe.py PREFIX --length L --elements N --E E --G G --rho RHO --area A --iy IY --iz IZ
                  --ip J [--x0 X0]
writes PREFIX_M.mtx, PREFIX_K.mtx, PREFIX_nodes.csv
"""
import argparse


def element(L, E, G, rho, A, Iy, Iz, Ip):
    k = [[0.0] * 12 for _ in range(12)]
    m = [[0.0] * 12 for _ in range(12)]

    def add(mat, dofs, blk, s):
        for a in range(len(dofs)):
            for b in range(len(dofs)):
                mat[dofs[a]][dofs[b]] += s * blk[a][b]

    bar = [[1, -1], [-1, 1]]
    bar_m = [[2, 1], [1, 2]]
    add(k, [0, 6], bar, E * A / L)
    add(m, [0, 6], bar_m, rho * A * L / 6)
    add(k, [3, 9], bar, G * Ip / L)
    add(m, [3, 9], bar_m, rho * Ip * L / 6)
    kb = [[12, 6 * L, -12, 6 * L], [6 * L, 4 * L * L, -6 * L, 2 * L * L],
          [-12, -6 * L, 12, -6 * L], [6 * L, 2 * L * L, -6 * L, 4 * L * L]]
    mb = [[156, 22 * L, 54, -13 * L], [22 * L, 4 * L * L, 13 * L, -3 * L * L],
          [54, 13 * L, 156, -22 * L], [-13 * L, -3 * L * L, -22 * L, 4 * L * L]]
    # xy plane: (uy, rz) with rz = v'
    add(k, [1, 5, 7, 11], kb, E * Iz / L**3)
    add(m, [1, 5, 7, 11], mb, rho * A * L / 420)
    # xz plane: (uz, -ry) with -ry = w'
    sgn = [1, -1, 1, -1]
    kb2 = [[kb[a][b] * sgn[a] * sgn[b] for b in range(4)] for a in range(4)]
    mb2 = [[mb[a][b] * sgn[a] * sgn[b] for b in range(4)] for a in range(4)]
    add(k, [2, 4, 8, 10], kb2, E * Iy / L**3)
    add(m, [2, 4, 8, 10], mb2, rho * A * L / 420)
    return k, m


def write_mtx(path, mat):
    n = len(mat)
    entries = [(i, j, mat[i][j]) for j in range(n) for i in range(j, n) if mat[i][j] != 0.0]
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write(f"{n} {n} {len(entries)}\n")
        for i, j, v in entries:
            f.write(f"{i + 1} {j + 1} {v:.17g}\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("prefix")
    for a in ["length", "E", "G", "rho", "area", "iy", "iz", "ip"]:
        p.add_argument("--" + a, type=float, required=True)
    p.add_argument("--elements", type=int, required=True)
    p.add_argument("--x0", type=float, default=0.0)
    o = p.parse_args()
    ne = o.elements
    L = o.length / ne
    n = 6 * (ne + 1)
    K = [[0.0] * n for _ in range(n)]
    M = [[0.0] * n for _ in range(n)]
    ke, me = element(L, o.E, o.G, o.rho, o.area, o.iy, o.iz, o.ip)
    for e in range(ne):
        for a in range(12):
            for b in range(12):
                K[6 * e + a][6 * e + b] += ke[a][b]
                M[6 * e + a][6 * e + b] += me[a][b]
    write_mtx(o.prefix + "_M.mtx", M)
    write_mtx(o.prefix + "_K.mtx", K)
    with open(o.prefix + "_nodes.csv", "w") as f:
        f.write("# x, y, z (m), one node a line\n")
        for i in range(ne + 1):
            f.write(f"{o.x0 + i * L:.17g}, 0, 0\n")


if __name__ == "__main__":
    main()
