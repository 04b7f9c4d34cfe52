"""Benchmark of the Python package against the `mbdae` command.

1. The slider-crank (examples/models/slider_crank.yaml, 2 s, generalized-alpha, h = 1e-3): the
   wall time of Model.run() in Python (the whole call: building the run, the solve, the result
   arrays) against the solver time the command reports ("wall time ... (solver X s)").
   Best of N runs each.
2. The cost of a Python user force per call: the same run with the motor torque as a Python
   callable and as the file's expression; (time with callable - time with expression) / calls.

Usage: PYTHONPATH=<build>/python python3 python_bench.py [MBDAE_EXE] [N]
"""

import pathlib
import re
import subprocess
import sys
import tempfile
import time

import mbdae

root = pathlib.Path(__file__).resolve().parents[2]
exe = sys.argv[1] if len(sys.argv) > 1 else str(root / "build/release/apps/mbdae")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 7
model_path = root / "examples/models/slider_crank.yaml"


def best(f):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def command_solver_time():
    # Results into a scratch folder: an output is never a device (a rename onto /dev/null as root
    # would replace the machine's /dev/null).
    with tempfile.TemporaryDirectory() as scratch:
        out = subprocess.run([exe, "run", str(model_path), "-q", "-o", str(pathlib.Path(scratch) / "slider_crank.csv")],
                             check=True, capture_output=True, text=True).stdout
    return float(re.search(r"\(solver ([0-9.]+) s\)", out).group(1))


cli = min(command_solver_time() for _ in range(n))
model = mbdae.load(model_path)
py = best(model.run)
py_solver = min(model.run().stats["wall_time"] for _ in range(n))
print(f"slider-crank, 2 s, h = 1e-3 (best of {n}):\n"
      f"  Python Model.run() {py * 1e3:.1f} ms (its solver time {py_solver * 1e3:.1f} ms), "
      f"command's solver time {cli * 1e3:.1f} ms: {100 * (py / cli - 1):+.1f} %")

calls = 0


def torque(t):
    global calls
    calls += 1
    return (0.0, 0.0, 3.0 if t < 0.5 else 0.0)


with_expression = best(model.run)
calls = 0
with_callable = best(lambda: model.run(loads={"motor": torque}))
per_run = calls / n
print(f"  Python user torque: {per_run:.0f} calls per run, "
      f"{(with_callable - with_expression) / per_run * 1e6:.2f} us per call more than the expression "
      f"(run {with_expression * 1e3:.1f} ms -> {with_callable * 1e3:.1f} ms)")

# 3. A Python torque of named quantities, f(t, rate, x) with rate(main_bearing) and x(slider),
#    against the same law as the file's expression of them (both are force laws over the crank and
#    the slider, with central-difference tangents): the extra cost per call.
law = "3 - 0.1*rate(main_bearing) - 5*x(slider)"
calls = 0


def torque_of_state(t, w, x):
    global calls
    calls += 1
    return (0.0, 0.0, 3 - 0.1 * w - 5 * x)


with_state_expression = best(lambda: model.run(set={"forces[0].value": [0, 0, law]}))
calls = 0
with_state_callable = best(lambda: model.run(
    loads={"motor": (torque_of_state, ["rate(main_bearing)", "x(slider)"])}))
per_run = calls / n
print(f"  Python torque of named quantities: {per_run:.0f} calls per run, "
      f"{(with_state_callable - with_state_expression) / per_run * 1e6:.2f} us per call more than the "
      f"expression (run {with_state_expression * 1e3:.1f} ms -> {with_state_callable * 1e3:.1f} ms)")
