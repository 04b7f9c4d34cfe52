#!/usr/bin/env python3
"""Plots the results of `mbdae run` (a CSV with a time column and one column per sensor
component) against time (or another first column: the load fraction of `mbdae statics`): one panel per sensor, axes labelled with names and units.

Usage: plot_results.py RESULTS.csv [MORE.csv ...] [--columns NAME ...] [--output PREFIX] [--quiet]
Writes PREFIX.png and PREFIX.svg (PREFIX defaults to the CSV path without .csv). Units come
from RESULTS.meta.json, which `mbdae run` writes beside the CSV; without it the panels carry
the names only. Several CSVs are overlaid: one panel per unit (columns in m and in N never share
an axis), each line labelled with its column and its file; --columns picks columns or sensors
(default: every column, or the columns all files have). Tick labels are plain rounded numbers
(no offset such as "+3.0e-1"). Needs python3-matplotlib (Debian); no display is used.
Exit code 2 for a column that a file does not have.
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
import matplotlib.ticker  # noqa: E402


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


def bad_input(message):
    print(f"mbdae plot: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    header, cols = read_csv(path)
    if not header:
        bad_input(f"{path}: no header")
    meta = read_meta(path)
    units, sensor_of, output_of = {}, {}, {}
    if meta:
        for c in meta.get("columns", []):
            units[c["name"]] = c.get("unit", "")
            sensor_of[c["name"]] = c.get("sensor", c["name"])
            output_of[c["name"]] = c.get("output", "")
    return dict(path=path, header=header, cols=cols, meta=meta, units=units, sensor_of=sensor_of,
                output_of=output_of)


def pick(run, names):
    """Indices of the columns `names` (column or sensor names) in `run`; exits naming a missing one."""
    header = run["header"]
    idx = []
    for name in names:
        found = [i for i, h in enumerate(header) if i > 0 and (h == name or run["sensor_of"].get(h) == name
                                                                 or h.startswith(name + "."))]
        if not found:
            bad_input(f"{run['path']}: no column or sensor '{name}' (columns: {', '.join(header[1:])})")
        idx += [i for i in found if i not in idx]
    return idx


def rounded_ticks(ax):
    """Plain tick labels: no offset or power-of-ten factor printed beside the axis."""
    ax.ticklabel_format(axis="y", useOffset=False, style="plain")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:.6g}"))


def overlay(runs, names, prefix, quiet):
    first = runs[0]
    if names:
        columns = [first["header"][i] for i in pick(first, names)]
    else:
        columns = [h for h in first["header"][1:] if all(h in r["header"] for r in runs[1:])]
        if not columns:
            bad_input("the results have no column in common; name some with --columns")
    for r in runs[1:]:
        for c in columns:
            if c not in r["header"]:
                bad_input(f"{r['path']}: no column '{c}' (columns: {', '.join(r['header'][1:])})")
    units = []
    for c in columns:
        u = first["units"].get(c, "")
        if u not in units:
            units.append(u)
    fig, axes = plt.subplots(len(units), 1, figsize=(8, 2.4 * len(units) + 1.0), sharex=True, squeeze=False)
    labels = [os.path.basename(r["path"]) for r in runs]
    for c in columns:
        ax = axes[units.index(first["units"].get(c, "")), 0]
        for r, label in zip(runs, labels):
            ax.plot(r["cols"][0], r["cols"][r["header"].index(c)], label=f"{c} ({label})", linewidth=1.2)
    lines = []
    for u, ax in zip(units, axes[:, 0]):
        ax.set_ylabel(f"[{u}]" if u else "", fontsize=8)
        ax.grid(True, alpha=0.3)
        ax.legend(loc="upper right", fontsize=7)
        rounded_ticks(ax)
        lines.append(f"panel [{u}]: " + ", ".join(f"{c} ({label})" for c in columns
                                                  if first["units"].get(c, "") == u for label in labels))
    x = first["header"][0]
    xunit = first["units"].get(x, "s" if x == "time" else "")
    axes[-1, 0].set_xlabel(x.replace("_", " ") + (f" [{xunit}]" if xunit else ""))
    fig.suptitle(" vs ".join(labels))
    fig.tight_layout()
    fig.savefig(prefix + ".png", dpi=80)
    fig.savefig(prefix + ".svg")
    if not quiet:
        print("\n".join(lines))
        print(f"{prefix}.png\n{prefix}.svg")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--columns", nargs="+", default=[], help="column or sensor names")
    ap.add_argument("--output", help="prefix of the PNG and SVG files")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    runs = [load(p) for p in a.csv]
    prefix = a.output or os.path.splitext(a.csv[0])[0]
    if len(runs) > 1:
        return overlay(runs, a.columns, prefix, a.quiet)
    run = runs[0]
    header, cols, meta = run["header"], run["cols"], run["meta"]
    units, sensor_of, output_of = run["units"], run["sensor_of"], run["output_of"]
    chosen = pick(run, a.columns) if a.columns else list(range(1, len(header)))
    # Group the columns by sensor: "tip.x", "tip.y" -> panel "tip".
    groups = []
    for i in chosen:
        name = header[i]
        s = sensor_of.get(name, name.split(".")[0])
        if not groups or groups[-1][0] != s:
            groups.append((s, []))
        groups[-1][1].append(i)
    t = cols[0]
    n = max(1, len(groups))
    fig, axes = plt.subplots(n, 1, figsize=(8, 1.9 * n + 1.0), sharex=True, squeeze=False)
    title = (meta or {}).get("model") or os.path.basename(a.csv[0])
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
        rounded_ticks(ax)
        if len(idx) > 1:
            ax.legend(loc="upper right", fontsize=7, ncol=min(len(idx), 5))
    if not groups:
        axes[0, 0].text(0.5, 0.5, "no sensors", ha="center", transform=axes[0, 0].transAxes)
    # The x axis is the first column: time for runs, the load fraction of mbdae statics, ...
    xunit = units.get(header[0], "s" if header[0] == "time" else "")
    axes[-1, 0].set_xlabel(header[0].replace("_", " ") + (f" [{xunit}]" if xunit else ""))
    fig.tight_layout()
    fig.savefig(prefix + ".png", dpi=80)
    fig.savefig(prefix + ".svg")
    if not a.quiet:
        print(f"{prefix}.png\n{prefix}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
