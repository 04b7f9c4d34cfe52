#!/usr/bin/python3
"""Throughput of `mbdae sweep` on the 200 slider-crank cases of examples/studies/slider_crank.yaml:
local worker processes (1 and 2) and MPI ranks (mpirun -n 1 and 2), against the same cases run one
`mbdae run --set ...` process after another (the shell loop a study replaces).

Prints, per mode: wall time, cases per second, the speed-up and parallel efficiency against one
worker of the same mode (T1 / (W T_W)), and where a case's time goes: inside its worker (loading
and checking the model with the case's overrides, building the run, the run itself) and outside
it (W T_W / N minus the mean time a case spends in its worker: handing out cases, results coming
back, the table, idle workers at the end). The load average is printed with every row: on a
shared machine it says how far the figures can be trusted.

Usage: bench/sweep_bench.py [BUILD_DIR] [--repeat N] [--no-mpi]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUDY = os.path.join(ROOT, "examples", "studies", "slider_crank.yaml")


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def sweep(mbdae, table, launcher=(), jobs=None, env=None):
    cmd = list(launcher) + [mbdae, "sweep", STUDY, "-o", table, "--force", "-q"]
    if jobs:
        cmd += ["-j", str(jobs)]
    load = loadavg()
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{p.stdout}{p.stderr}")
    m = re.search(r"per case +([0-9.e+-]+) s in its worker: load ([0-9.e+-]+) ms, setup ([0-9.e+-]+) ms, "
                  r"run ([0-9.e+-]+) ms", p.stdout)
    n = int(re.search(r"cases +(\d+) run now", p.stdout).group(1))
    return dict(wall=wall, n=n, case=float(m.group(1)), load=float(m.group(2)), setup=float(m.group(3)),
                run=float(m.group(4)), loadavg=load)


def shell_loop(mbdae, tmp, cases):
    """The same cases as separate `mbdae run` processes, one after another."""
    listed = subprocess.run([mbdae, "sweep", STUDY, "--list"], capture_output=True, text=True, check=True).stdout
    lines = listed.splitlines()[:cases]
    load = loadavg()
    t0 = time.perf_counter()
    for line in lines:
        command = line.split("\t", 1)[1].replace("mbdae run", mbdae + " run", 1)
        subprocess.run(command + f" -q -o {tmp}/loop.csv", shell=True, check=True, stdout=subprocess.DEVNULL)
    return dict(wall=time.perf_counter() - t0, n=len(lines), loadavg=load)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default=os.path.join(ROOT, "build", "release"))
    ap.add_argument("--repeat", type=int, default=1, help="runs of each mode; the fastest is shown")
    ap.add_argument("--no-mpi", action="store_true")
    a = ap.parse_args()
    mbdae = os.path.join(a.build, "apps", "mbdae")
    tmp = tempfile.mkdtemp(prefix="sweep_bench_")
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    modes = [("local", "-j 1", (), 1), ("local", "-j 2", (), 2)]
    if not a.no_mpi and shutil.which("mpirun"):
        modes += [("MPI", "mpirun -n 1", ("mpirun", "-n", "1", "--oversubscribe"), None),
                  ("MPI", "mpirun -n 2", ("mpirun", "-n", "2", "--oversubscribe"), None)]
    results = {}
    for kind, label, launcher, jobs in modes:
        best = None
        for _ in range(a.repeat):
            r = sweep(mbdae, os.path.join(tmp, "table.csv"), launcher, jobs, env)
            best = r if best is None or r["wall"] < best["wall"] else best
        results[label] = best
        print(f"  {label:<12} {best['wall']:.2f} s (load average {best['loadavg']:.2f})", file=sys.stderr)
    loop = shell_loop(mbdae, tmp, 50)
    shutil.rmtree(tmp)

    print(f"slider-crank study: {results['-j 1']['n']} cases, {os.cpu_count()} processors")
    print("| mode | workers | wall time | cases/s | speed-up | efficiency | per case in its worker: load + setup + run "
          "| per case outside it | load average |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, label, launcher, jobs in modes:
        r = results[label]
        w = jobs or int(label.split()[-1])
        base = results["-j 1" if kind == "local" else "mpirun -n 1"]
        outside = (w * r["wall"] / r["n"] - r["case"]) * 1e3
        print(f"| {kind} {label} | {w} | {r['wall']:.2f} s | {r['n'] / r['wall']:.2f} | "
              f"{base['wall'] / r['wall']:.2f} | {100 * base['wall'] / (w * r['wall']):.0f} % | "
              f"{r['load']:.2f} + {r['setup']:.2f} + {r['run']:.1f} ms | {outside:.2f} ms | {r['loadavg']:.2f} |")
    print(f"| shell loop of `mbdae run --set` | 1 | {loop['wall'] * results['-j 1']['n'] / loop['n']:.2f} s "
          f"(50 cases: {loop['wall']:.2f} s) | {loop['n'] / loop['wall']:.2f} | | | | | {loop['loadavg']:.2f} |")


if __name__ == "__main__":
    main()
