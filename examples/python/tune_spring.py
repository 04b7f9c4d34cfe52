"""Tunes the return spring of a slider-crank with scipy.optimize to meet a target.

The model (slider_crank_spring.yaml): a 3 N m starting torque drives the crank for 0.5 s and
pushes the slider inwards against a spring. Target: the slider comes no closer to the main
bearing than x = 0.6 m. The innermost position grows with the stiffness, so a root finder
(Brent's method) on  x_min(k) - 0.6  over a bracket of stiffnesses finds k.

Usage: python3 tune_spring.py
"""

import pathlib

from scipy.optimize import brentq

import mbdae

TARGET = 0.6  # m, innermost slider position wanted

model = mbdae.load(pathlib.Path(__file__).with_name("slider_crank_spring.yaml"))


def innermost(stiffness: float) -> float:
    """Smallest slider x over the run (m) for a spring stiffness (N/m)."""
    r = model.run(set={"forces[1].stiffness": stiffness})
    return float(r["slider.x"].min())


# At 100 N/m the slider still reaches 0.54 m, at 400 N/m only 0.72 m: the root is between.
k, info = brentq(lambda k: innermost(k) - TARGET, 100.0, 400.0, xtol=1e-6, full_output=True)
x = innermost(k)
print(f"stiffness {k:.6g} N/m: innermost slider position {x:.6f} m (target {TARGET} m), "
      f"{info.function_calls} runs")
assert info.converged and abs(x - TARGET) < 1e-4
