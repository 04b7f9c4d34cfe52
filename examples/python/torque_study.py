"""A study: the slider-crank's crank speed for several starting torques, on one plot.

Runs examples/models/slider_crank.yaml with its motor torque (3 N m for 0.5 s in the file) set
to 1, 2, 3 and 4 N m, plots the crank's angular velocity against time and writes the figure.

Usage: python3 torque_study.py [OUTPUT_DIR]   (default: the current directory)
"""

import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no window
import matplotlib.pyplot as plt  # noqa: E402

import mbdae  # noqa: E402

root = pathlib.Path(__file__).resolve().parents[1]
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path.cwd()
model = mbdae.load(root / "models/slider_crank.yaml")

fig, ax = plt.subplots(figsize=(7, 4))
for torque in (1.0, 2.0, 3.0, 4.0):
    r = model.run(set={"forces[0].value": [0, 0, f"t < 0.5 ? {torque} : 0"]})
    ax.plot(r.time, r["crank_omega.z"], label=f"{torque:g} N m")
    print(f"{torque:g} N m: crank speed at t = {r.time[-1]:g} s: {r['crank_omega.z'][-1]:.4f} rad/s "
          f"({r.stats['steps']} steps, {r.stats['wall_time']:.3f} s)")
ax.set_xlabel("time [s]")
ax.set_ylabel("crank angular velocity [rad/s]")
ax.set_title("slider-crank: starting torque for 0.5 s")
ax.legend(title="torque")
fig.tight_layout()
path = out / "torque_study.png"
fig.savefig(path, dpi=100)
print(f"plot: {path}")
