#!/usr/bin/env python3
"""Work-precision plots of `mbdae validate --plots DIR`.

Reads the CSV written by the command (case, solver, setting, value, error, wall_time: one line
per run, `value` a step size h in s or a relative tolerance rtol) and writes, per case,
DIR/validation_<case>.png: error against h or rtol on log-log axes, one line per solver, and
beside it error against wall time.
"""
import argparse
import csv
import os
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv")
    ap.add_argument("--output-dir", required=True)
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = defaultdict(lambda: defaultdict(list))
    with open(a.csv, newline="") as f:
        for r in csv.DictReader(f):
            err = float(r["error"])
            if not err > 0:
                continue
            data[r["case"]][(r["solver"], r["setting"])].append(
                (float(r["value"]), err, float(r["wall_time"])))
    os.makedirs(a.output_dir, exist_ok=True)
    for case, series in sorted(data.items()):
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
        settings = sorted({s for (_, s) in series})
        for (solver, setting), pts in sorted(series.items()):
            pts.sort()
            x = [p[0] for p in pts]
            e = [p[1] for p in pts]
            w = [max(p[2], 1e-4) for p in pts]
            label = f"{solver} ({setting})"
            ax1.loglog(x, e, "o-", label=label)
            ax2.loglog(w, e, "o-", label=label)
        ax1.set_xlabel(" or ".join("step size h [s]" if s == "h" else "rtol" for s in settings))
        ax1.set_ylabel("error (norm of the case)")
        ax1.set_title(f"{case}: error vs step size / tolerance")
        ax1.grid(True, which="both", alpha=0.3)
        ax1.legend(fontsize=8)
        ax2.set_xlabel("wall time [s]")
        ax2.set_title("work-precision")
        ax2.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        out = os.path.join(a.output_dir, f"validation_{case}.png")
        fig.savefig(out, dpi=90)
        plt.close(fig)
        del out
    return 0


if __name__ == "__main__":
    sys.exit(main())
