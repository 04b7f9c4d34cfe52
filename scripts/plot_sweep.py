#!/usr/bin/env python3
"""Plots of a study's result table (`mbdae sweep --plot`): each output against each parameter,
and a sensitivity summary.

Writes PREFIX.png and PREFIX.svg (a grid: one row per output, one column per parameter; the
cases that ran to the end as dots, the others as red crosses where they have a value; for a
parameter with at most 25 distinct values, the mean output at each value as a line: the response
curve), PREFIX.sensitivity.png and .svg (standardized regression coefficients and Pearson
correlations as annotated tables) and PREFIX.sensitivity.csv.

Sensitivity, per output y over the cases with status ok and a finite y, for the numeric
parameters that vary: the Pearson correlation r(x_j, y), and the standardized regression
coefficients SRC_j = b_j s(x_j) / s(y) of the least-squares fit y = b_0 + sum_j b_j x_j, with its
R^2 (the SRCs describe the output as far as R^2 says a linear model does; for uncorrelated
parameters, sum_j SRC_j^2 = R^2).

Usage: plot_sweep.py TABLE --output PREFIX --parameters NAME... --outputs NAME... [--quiet]
"""
import argparse
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

MAX_PANELS = 8  # parameters and outputs shown at most (the sensitivity table has them all)


def number(s):
    try:
        return float(s)
    except ValueError:
        return math.nan


def read_table(path, parameters, outputs):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    missing = [c for c in parameters + outputs + ["status"] if rows and c not in rows[0]]
    if missing or not rows:
        sys.exit(f"plot_sweep.py: {path}: " + ("no rows" if not rows else "no column " + ", ".join(missing)))
    ok = np.array([r["status"] == "ok" for r in rows])
    params = {}
    for p in parameters:
        texts = [r[p] for r in rows]
        values = np.array([number(t) for t in texts])
        if np.isnan(values).any():  # not numbers (a solver name, an expression): categories
            labels = sorted(set(texts), key=texts.index)
            params[p] = (np.array([labels.index(t) for t in texts], dtype=float), labels)
        else:
            params[p] = (values, None)
    outs = {o: np.array([number(r[o]) for r in rows]) for o in outputs}
    return ok, params, outs


def sensitivity(ok, params, outs):
    """Rows (output, parameter, pearson, src, r2) for the numeric parameters that vary."""
    names = [p for p, (x, labels) in params.items() if labels is None and np.nanstd(x[ok]) > 0]
    result = []
    for o, y in outs.items():
        keep = ok & np.isfinite(y)
        r2 = math.nan
        src = {p: math.nan for p in names}
        pearson = {p: math.nan for p in names}
        if keep.sum() > len(names) + 1 and np.std(y[keep]) > 0 and names:
            X = np.column_stack([params[p][0][keep] for p in names])
            yk = y[keep]
            Xs = (X - X.mean(axis=0)) / X.std(axis=0)
            ys = (yk - yk.mean()) / yk.std()
            beta, *_ = np.linalg.lstsq(np.column_stack([np.ones(len(ys)), Xs]), ys, rcond=None)
            fit = np.column_stack([np.ones(len(ys)), Xs]) @ beta
            r2 = 1 - np.sum((ys - fit) ** 2) / np.sum(ys ** 2)
            for j, p in enumerate(names):
                src[p] = beta[j + 1]
                pearson[p] = float(np.corrcoef(X[:, j], yk)[0, 1])
        for p in names:
            result.append((o, p, pearson[p], src[p], r2))
    return names, result


def save(fig, prefix):
    fig.savefig(prefix + ".png", dpi=110)
    fig.savefig(prefix + ".svg")
    plt.close(fig)


def response_grid(ok, params, outs, prefix):
    pnames, onames = list(params)[:MAX_PANELS], list(outs)[:MAX_PANELS]
    fig, axes = plt.subplots(len(onames), len(pnames), figsize=(2.8 * len(pnames) + 0.6, 2.2 * len(onames) + 0.6),
                             squeeze=False, sharex="col", sharey="row")
    for i, o in enumerate(onames):
        y = outs[o]
        for j, p in enumerate(pnames):
            ax = axes[i][j]
            x, labels = params[p]
            ax.plot(x[ok], y[ok], ".", ms=4, alpha=0.6, color="tab:blue")
            bad = ~ok & np.isfinite(y)
            if bad.any():
                ax.plot(x[bad], y[bad], "x", ms=5, color="tab:red")
            levels = np.unique(x[ok & np.isfinite(y)])
            if 1 < len(levels) <= 25:
                means = [np.mean(y[ok & np.isfinite(y) & (x == v)]) for v in levels]
                ax.plot(levels, means, "-", color="tab:orange", lw=1.5)
            if labels:
                ax.set_xticks(range(len(labels)))
                ax.set_xticklabels(labels, rotation=30, fontsize=7)
            if i == len(onames) - 1:
                ax.set_xlabel(p, fontsize=8)
            if j == 0:
                ax.set_ylabel(o, fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
    n_bad = int((~ok).sum())
    fig.suptitle(f"{len(ok)} cases" + (f", {n_bad} not ok (red where they have a value)" if n_bad else "") +
                 "; orange: mean at each value", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    save(fig, prefix)


def sensitivity_figure(names, rows, outputs, prefix):
    if not names:
        return
    fig, axes = plt.subplots(1, 2, figsize=(2.2 + 1.1 * len(names) * 2, 1.2 + 0.45 * len(outputs)), squeeze=False)
    lookup = {(o, p): (r, s, r2) for o, p, r, s, r2 in rows}
    for k, (title, idx) in enumerate((("standardized regression coefficient", 1), ("Pearson correlation", 0))):
        ax = axes[0][k]
        m = np.array([[lookup[(o, p)][idx] for p in names] for o in outputs])
        ax.imshow(np.nan_to_num(m), cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
        for i in range(len(outputs)):
            for j in range(len(names)):
                ax.text(j, i, "n/a" if math.isnan(m[i, j]) else f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=30, fontsize=8)
        ax.set_yticks(range(len(outputs)))
        ax.set_yticklabels([o + (f"  (R² {lookup[(o, names[0])][2]:.2f})" if k == 0 else "") for o in outputs],
                           fontsize=8)
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    save(fig, prefix + ".sensitivity")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--output", required=True)
    ap.add_argument("--parameters", nargs="+", required=True)
    ap.add_argument("--outputs", nargs="+", required=True)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    ok, params, outs = read_table(a.table, a.parameters, a.outputs)
    names, rows = sensitivity(ok, params, outs)
    with open(a.output + ".sensitivity.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["output", "parameter", "pearson", "src", "r2"])
        for o, p, r, s, r2 in rows:
            w.writerow([o, p, repr(r), repr(s), repr(r2)])
    response_grid(ok, params, outs, a.output)
    sensitivity_figure(names, rows, a.outputs, a.output)
    if not a.quiet:
        width = max([len(o) for o in a.outputs] + [6])
        print(f"sensitivity  {int(ok.sum())} cases ok of {len(ok)}; standardized regression coefficients "
              "(Pearson r), R² of the linear fit")
        print("  " + " " * width + "".join(f"{p[:18]:>20}" for p in names) + "      R²")
        for o in a.outputs:
            cells = [next((r, s) for oo, pp, r, s, _ in rows if oo == o and pp == p) for p in names]
            r2 = next((x for oo, _, _, _, x in rows if oo == o), math.nan)
            print("  " + f"{o:<{width}}" + "".join(f"{s:>11.3f} ({r:6.3f})" for r, s in cells) + f"  {r2:6.3f}")
        print(f"plots        {a.output}.png, {a.output}.sensitivity.png (and .svg), {a.output}.sensitivity.csv")


if __name__ == "__main__":
    main()
