#!/usr/bin/env python3
"""Work–precision plot of the N-link chain: tip error at T = 1 s (m) against wall time per
simulated second, one panel per (case, N), one line per engine and method (points = step sizes
or tolerances). Reads the chain_*.csv files that scripts/bench-peers collects.

Usage: plot_work_precision.py RESULTS_DIR OUTPUT.png
"""
import csv
import glob
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    results, png = sys.argv[1], sys.argv[2]
    data = {}
    for f in sorted(glob.glob(os.path.join(results, "chain_*_*_*.csv"))):
        with open(f) as fh:
            for r in csv.DictReader(fh):
                if r["ok"] != "1" or r["skipped"] != "0":
                    continue
                err, wall = float(r["error"]), float(r["wall_per_sim_s"])
                if not (math.isfinite(err) and err > 0 and wall > 0):
                    continue
                key = (r["problem"], int(r["n"]))
                data.setdefault(key, {}).setdefault((r["engine"], r["method"]), []).append(
                    (float(r["setting"]), wall, err))
    order = ["spherical", "revolute", "stiff_revolute", "damped_revolute"]
    panels = sorted(data, key=lambda k: (order.index(k[0]) if k[0] in order else 9, k[1]))
    panels = [k for k in panels if k[0] != "revolute"]  # same motion as spherical; keep the figure readable
    if not panels:
        print("no data")
        return 1
    cols = 3
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 4 * rows), squeeze=False)
    colors = {"mbdae": "tab:blue", "simbody": "tab:green", "mujoco": "tab:red"}
    markers = ["o", "s", "^", "v", "D", "x", "+"]
    for ax, key in zip(axes.flat, panels):
        per_engine = {}
        for (engine, method), pts in sorted(data[key].items()):
            i = per_engine.setdefault(engine, 0)
            per_engine[engine] += 1
            pts.sort()
            ax.loglog([p[1] for p in pts], [p[2] for p in pts], marker=markers[i % len(markers)],
                      color=colors.get(engine, "k"), ls="-" if engine == "mbdae" else "--", ms=4, lw=1,
                      label=f"{engine} {method}")
        ax.axhline(1e-6, color="gray", lw=0.8, ls=":")
        ax.set_title(f"{key[0]} chain, N = {key[1]}")
        ax.set_xlabel("wall time per simulated second [s]")
        ax.set_ylabel("tip error at T = 1 s [m]")
        ax.grid(True, which="both", lw=0.3)
        ax.legend(fontsize=6)
    for ax in axes.flat[len(panels):]:
        ax.axis("off")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(png)), exist_ok=True)
    fig.savefig(png, dpi=90)
    print("wrote", png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
