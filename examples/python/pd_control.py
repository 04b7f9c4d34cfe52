"""A PD controller in a host loop: the motor of an arm holds it at 2 rad from hanging.

Every 10 ms the loop reads the arm's angle and rate from the sensors, computes the torque
tau = kp (target - angle) - kd rate (at most 8 N m) and sets it as the motor's input; then the
integrator advances to the next control time. A P-D controller holds the arm where its torque
balances gravity: kp (target - angle) = m g l sin(angle), l = 0.25 m to the centre of mass; the
script checks the final angle against that equilibrium.

Usage: python3 pd_control.py
"""

import math
import pathlib

from scipy.optimize import brentq

import mbdae

KP, KD, LIMIT, TARGET, DT = 40.0, 6.0, 8.0, 2.0, 0.01  # N m/rad, N m s/rad, N m, rad, s

model = mbdae.load(pathlib.Path(__file__).with_name("pendulum_motor.yaml"))
sim = model.integrator(inputs=["motor"])
print(f"{'t [s]':>6} {'angle':>8} {'torque':>8}")
for k in range(301):
    s = sim.sensors()
    torque = max(-LIMIT, min(LIMIT, KP * (TARGET - s["angle.z"]) - KD * s["rate.z"]))
    sim.set_input("motor", [0.0, 0.0, torque])
    if k % 50 == 0:
        print(f"{sim.time:6.2f} {s['angle.z']:8.4f} {torque:8.4f}")
    sim.advance_to((k + 1) * DT)

final = sim.sensors()["angle.z"]
equilibrium = brentq(lambda a: KP * (TARGET - a) - 1.0 * 9.81 * 0.25 * math.sin(a), 0.0, TARGET)
print(f"final angle {final:.5f} rad, equilibrium of the P-D law {equilibrium:.5f} rad "
      f"({sim.stats['steps']} steps)")
assert abs(final - equilibrium) < 1e-3
