#!/usr/bin/env python3
"""Plots the results of `mbdae run` (a CSV with a time column and one column per sensor
component) against time (or another first column: the load fraction of `mbdae statics`): one panel per sensor, axes labelled with names and units.

Usage: plot_results.py RESULTS.csv [--output PREFIX] [--quiet]
Writes PREFIX.png and PREFIX.svg (PREFIX defaults to the CSV path without .csv). Units come
from RESULTS.meta.json, which `mbdae run` writes beside the CSV; without it the panels carry
the names only. Needs python3-matplotlib (Debian); no display is used.
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise SystemExit(f"{path}: empty file")
    header, data = rows[0], rows[1:]
    cols = [[] for _ in header]
    for r in data:
        if len(r) != len(header):
            continue  # a line cut short by an interrupted write
        for i, v in enumerate(r):
            try:
                cols[i].append(float(v))
            except ValueError:
                cols[i].append(math.nan)
    return header, cols


def read_meta(csv_path):
    meta_path = os.path.splitext(csv_path)[0] + ".meta.json"
    try:
        with open(meta_path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--output", help="prefix of the PNG and SVG files")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    header, cols = read_csv(a.csv)
    if not header:
        raise SystemExit(f"{a.csv}: no header")
    meta = read_meta(a.csv)
    units, sensor_of, output_of = {}, {}, {}
    if meta:
        for c in meta.get("columns", []):
            units[c["name"]] = c.get("unit", "")
            sensor_of[c["name"]] = c.get("sensor", c["name"])
            output_of[c["name"]] = c.get("output", "")
    # Group the columns by sensor: "tip.x", "tip.y" -> panel "tip".
    groups = []
    for i, name in enumerate(header[1:], start=1):
        s = sensor_of.get(name, name.split(".")[0])
        if not groups or groups[-1][0] != s:
            groups.append((s, []))
        groups[-1][1].append(i)
    t = cols[0]
    n = max(1, len(groups))
    fig, axes = plt.subplots(n, 1, figsize=(8, 1.9 * n + 1.0), sharex=True, squeeze=False)
    title = (meta or {}).get("model") or os.path.basename(a.csv)
    solver = (meta or {}).get("solver")
    fig.suptitle(f"{title}" + (f" ({solver})" if solver else ""))
    for ax, (sensor, idx) in zip(axes[:, 0], groups):
        for i in idx:
            name = header[i]
            label = name[len(sensor) + 1:] if name.startswith(sensor + ".") else name
            ax.plot(t, cols[i], label=label, linewidth=1.2)
        unit = units.get(header[idx[0]], "")
        out = output_of.get(header[idx[0]], "")
        ylabel = sensor + (f" ({out})" if out and out != sensor else "")
        ax.set_ylabel(ylabel + (f" [{unit}]" if unit else ""), fontsize=8)
        ax.grid(True, alpha=0.3)
        if len(idx) > 1:
            ax.legend(loc="upper right", fontsize=7, ncol=min(len(idx), 5))
    if not groups:
        axes[0, 0].text(0.5, 0.5, "no sensors", ha="center", transform=axes[0, 0].transAxes)
    # The x axis is the first column: time for runs, the load fraction of mbdae statics, ...
    xunit = units.get(header[0], "s" if header[0] == "time" else "")
    axes[-1, 0].set_xlabel(header[0].replace("_", " ") + (f" [{xunit}]" if xunit else ""))
    fig.tight_layout()
    prefix = a.output or os.path.splitext(a.csv)[0]
    fig.savefig(prefix + ".png", dpi=80)
    fig.savefig(prefix + ".svg")
    if not a.quiet:
        print(f"{prefix}.png\n{prefix}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
