#!/usr/bin/python3
"""Tests of `mbdae sweep` through the command itself, each checked against an independent source:

  bitwise          every output of every case equals the statistic computed here from the CSV
                   of a separate `mbdae run MODEL --set ...` of that case, bit for bit; the
                   case's --series file is that CSV
  faults           a study with an invalid, a failing and a timed-out case completes with each
                   marked; the failing case's outputs are those of its rows up to the failure
  crash            a worker killed by SIGSEGV mid-case, and one stopped (SIGSTOP) past the time
                   limit: the study goes on, the first case is marked crashed, the second timeout
  resume           the study killed (SIGKILL) halfway: its workers die with it; --resume runs
                   only the missing cases (and one whose row was cut short) and keeps every
                   finished row byte for byte
  modes            eigenfrequency and equilibrium outputs equal, bit for bit, what `mbdae modes`
                   (with and without --at-equilibrium) and `mbdae statics` print for each case in
                   a separate process, and the closed forms of a pendulum to 1e-9
  plot             --plot writes the figures; the standardized regression coefficients of a
                   response known in closed form (a falling body) are those of the closed form
  mpi_same_table   `mpirun -n 2 --oversubscribe` gives the table of the local mode
  mpi_lost_rank    a rank killed (SIGKILL) mid-study ends the MPI job; --resume redoes the cases
                   that were lost with it and keeps the rest

Usage: test_sweep.py MBDAE OUT_DIR TEST
"""
import csv
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

MBDAE, OUT, TEST = sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
STUDIES = os.path.join(HERE, "studies")
SLIDER_CRANK = os.path.join(HERE, "..", "..", "examples", "models", "slider_crank.yaml")
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL:", message, flush=True)
    return ok


def study_path(study):
    """The study file. Under the sanitizers (MBDAE_SANITIZED, set by the build) every case runs
    several times slower, so slow.yaml is used through a copy whose time limit is five times its
    own (the tests that stop a worker wait that long for its timeout)."""
    path = os.path.join(STUDIES, study)
    if study != "slow.yaml" or not os.environ.get("MBDAE_SANITIZED"):
        return path
    os.makedirs(OUT, exist_ok=True)
    copy = os.path.join(OUT, "slow.yaml")
    with open(path) as f:
        text = f.read()
    limit = re.search(r"^time_limit: *([0-9.]+)$", text, re.M)
    text = text.replace(limit.group(0), f"time_limit: {5 * float(limit.group(1)):g}")
    with open(copy, "w") as f:
        f.write(text.replace("../../../examples", os.path.join(HERE, "../../examples")))
    return copy


def sweep(study, table, *args, expect=0, env=None, launcher=()):
    cmd = list(launcher) + [MBDAE, "sweep", study_path(study), "-o", table, "-q"] + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    print("$", " ".join(cmd), "->", p.returncode, flush=True)
    print(p.stdout + p.stderr, flush=True)
    if p.returncode != expect:
        sys.exit(f"FAIL: exit code {p.returncode}, expected {expect}")
    return p


def read_table(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def same(a, b):
    """Equal as doubles (bit for bit), NaN equal to NaN."""
    return (math.isnan(a) and math.isnan(b)) or a == b


def run_case(model, sets, expect=0):
    """Rows (time, {column: value}) of `mbdae run MODEL --set ...`, in a fresh process."""
    out = os.path.join(OUT, "run.csv")
    cmd = [MBDAE, "run", model, "-q", "-o", out]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    check(p.returncode == expect, f"{' '.join(cmd)}: exit code {p.returncode}, expected {expect}\n{p.stderr}")
    with open(out, newline="") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def statistic(rows, column, kind, at=None):
    """The statistics of docs/sweeps.md, computed from a results CSV."""
    t = [r["time"] for r in rows]
    x = [r[column] for r in rows]
    n = len(x)
    if n == 0 or any(math.isnan(v) for v in x):
        return math.nan
    if kind == "final":
        return x[-1]
    if kind in ("max", "min", "time_of_max", "time_of_min"):
        best = 0
        for k in range(1, n):
            if (x[k] > x[best]) if "max" in kind else (x[k] < x[best]):
                best = k
        return t[best] if kind.startswith("time") else x[best]
    if kind in ("mean", "rms"):
        if n == 1:
            return x[0] if kind == "mean" else abs(x[0])
        s = 0.0
        for k in range(n - 1):
            s += (0.5 * (x[k] + x[k + 1]) if kind == "mean" else 0.5 * (x[k] * x[k] + x[k + 1] * x[k + 1])) * \
                (t[k + 1] - t[k])
        avg = s / (t[-1] - t[0])
        return avg if kind == "mean" else math.sqrt(avg)
    if kind == "value_at":
        if n == 1:
            return x[0] if at == t[0] else math.nan
        for k in range(n - 1):
            if t[k] <= at <= t[k + 1]:
                return x[k] + (x[k + 1] - x[k]) * ((at - t[k]) / (t[k + 1] - t[k]))
        return math.nan
    raise ValueError(kind)


def compare_outputs(row, rows, outputs, case):
    for name, column, kind, at in outputs:
        expected = statistic(rows, column, kind, at)
        got = float(row[name])
        check(same(got, expected), f"case {case}: {name} = {got!r} in the table, {expected!r} from mbdae run")


def children(pid):
    """Processes whose parent is pid: {pid: comm}."""
    found = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError):
            continue
        if ppid == pid:
            found[int(d)] = comm
    return found


def wait_for(what, predicate, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.005)
    sys.exit(f"FAIL: timed out waiting for {what}")


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def table_lines(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return {line.split(",", 1)[0]: line for line in lines[1:]}


# ---- the tests ------------------------------------------------------------------------------------

def test_bitwise():
    table = os.path.join(OUT, "bitwise.csv")
    sweep("bitwise.yaml", table, "-j", "2", "--force", "--series")
    rows = read_table(table)
    check(len(rows) == 6, f"{len(rows)} rows, expected 6")
    check([r["case"] for r in rows] == [str(k) for k in range(6)], "rows not in case order")
    check({r["solver"] for r in rows} == {"generalized_alpha", "ida"}, "the draws did not take both solvers")
    outputs = [("x_final", "slider.x", "final", None), ("x_max", "slider.x", "max", None),
               ("x_min", "slider.x", "min", None), ("x_mean", "slider.x", "mean", None),
               ("w_rms", "crank_omega.z", "rms", None), ("w_time_of_max", "crank_omega.z", "time_of_max", None),
               ("w_time_of_min", "crank_omega.z", "time_of_min", None),
               ("w_at_0.555", "crank_omega.z", "value_at", 0.555), ("w_at_1", "crank_omega.z", "value_at", 1.0),
               ("force_mean", "guide_force.y", "mean", None), ("energy", "energy", "final", None)]
    for r in rows:
        check(r["status"] == "ok", f"case {r['case']}: status {r['status']} {r['message']}")
        check(1.5 <= float(r["slider_mass"]) and 0.6 <= float(r["rod_mass"]) <= 1.8,
              f"case {r['case']}: draws out of their ranges")
        sets = ["solver.end_time=1.2", "output.every=0.005",
                f'forces[0].value[2]="t < 0.5 ? {r["torque"]} : 0"', f"bodies[1].mass={r['rod_mass']}",
                f"bodies[2].mass={r['slider_mass']}", f"solver.type={r['solver']}"]
        ref = run_case(SLIDER_CRANK, sets)
        check(same(float(r["t_reached"]), ref[-1]["time"]), f"case {r['case']}: t_reached")
        compare_outputs(r, ref, outputs, r["case"])
        # --series: the case's sensor rows, the very file mbdae run writes.
        with open(os.path.join(OUT, "bitwise.series", f"case-{r['case']}.csv")) as a, \
                open(os.path.join(OUT, "run.csv")) as b:
            check(a.read() == b.read(), f"case {r['case']}: series differs from mbdae run's CSV")
    # --list prints the same overrides (the way to run one case alone).
    listed = subprocess.run([MBDAE, "sweep", os.path.join(STUDIES, "bitwise.yaml"), "--list"], capture_output=True,
                            text=True).stdout.splitlines()
    check(len(listed) == 6 and f"--set bodies[1].mass={rows[3]['rod_mass']}" in listed[3],
          "--list does not show case 3's overrides")


def test_faults():
    table = os.path.join(OUT, "faults.csv")
    p = sweep("faults.yaml", table, "-j", "2", "--force")
    rows = read_table(table)
    status = [r["status"] for r in rows]
    check(status == ["ok", "invalid", "failed", "timeout", "ok"], f"statuses {status}")
    check("bodies[1].mass: must be > 0" in rows[1]["message"], f"case 1 message: {rows[1]['message']}")
    check("t = 0.5 s" in rows[2]["message"] and 0.49 < float(rows[2]["t_reached"]) <= 0.5,
          f"case 2: {rows[2]['t_reached']} {rows[2]['message']}")
    check("time limit of 3 s" in rows[3]["message"] and 0 < float(rows[3]["t_reached"]) < 1,
          f"case 3: {rows[3]['t_reached']} {rows[3]['message']}")
    check("5 run now" in p.stdout and "2 ok, 1 failed, 1 timeout, 1 invalid, 0 crashed" in p.stdout,
          "summary counts")
    outputs = [("x_min", "slider.x", "min", None), ("w_max", "crank_omega.z", "max", None),
               ("w_at_0.3", "crank_omega.z", "value_at", 0.3), ("w_at_0.9", "crank_omega.z", "value_at", 0.9),
               ("energy", "energy", "final", None)]
    # The ok cases and the failed one (its rows up to the failure, as mbdae run keeps them).
    for k, expect in ((0, 0), (2, 3), (4, 0)):
        r = rows[k]
        ref = run_case(SLIDER_CRANK, ["solver.end_time=1.0", f"bodies[1].mass={r['rod_mass']}",
                                      f"forces[0].value[2]={r['torque']}", f"solver.step={r['step']}"], expect)
        compare_outputs(r, ref, outputs, k)
    check(math.isnan(float(rows[2]["w_at_0.9"])), "case 2 has a value after its failure")


def analysis_csv(command, sets, *args):
    """The rows of `mbdae COMMAND MODEL --set ... ARGS` (modes or statics), in a fresh process."""
    model = os.path.join(HERE, "..", "..", "examples", "models", "simple_pendulum.yaml")
    out = os.path.join(OUT, command + ".csv")
    cmd = [MBDAE, command, model, "-q", "-o", out] + list(args)
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    check(p.returncode == 0, f"{' '.join(cmd)}: exit code {p.returncode}\n{p.stderr}")
    with open(out, newline="") as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def test_modes():
    table = os.path.join(OUT, "modes.csv")
    sweep("modes.yaml", table, "-j", "2", "--force")
    rows = read_table(table)
    check(len(rows) == 6, f"{len(rows)} rows, expected 6")
    g, r_bob = 9.81, 0.01
    for r in rows:
        check(r["status"] == "ok", f"case {r['case']}: status {r['status']} {r['message']}")
        L, m = float(r["length"]), float(r["mass"])
        sets = ["solver.end_time=0.1", f"bodies[0].position[0]={r['length']}", f"bodies[0].mass={r['mass']}"]
        start = analysis_csv("modes", sets, "--no-poses")
        hanging = analysis_csv("modes", sets, "--no-poses", "--at-equilibrium")
        hanging4 = analysis_csv("modes", sets, "--no-poses", "--at-equilibrium", "-n", "4")
        statics = analysis_csv("statics", sets)
        check(same(float(r["f_start"]), start[0]["frequency_hz"]), f"case {r['case']}: f_start differs from mbdae modes")
        check(same(float(r["f_hanging"]), hanging[0]["frequency_hz"]),
              f"case {r['case']}: f_hanging differs from mbdae modes --at-equilibrium")
        check(same(float(r["f_hanging_4"]), hanging4[0]["frequency_hz"]),
              f"case {r['case']}: f_hanging_4 differs from mbdae modes --at-equilibrium -n 4")
        check(same(float(r["y_rest"]), statics[-1]["bob.y"]), f"case {r['case']}: y_rest differs from mbdae statics")
        # Closed forms: a sphere of radius r on a link of length L hangs at y = -L and swings at
        # sqrt(g L / (L^2 + 2/5 r^2)) / 2 pi, whatever its mass; released horizontally it falls at
        # g, the real eigenvalue of the linearisation about the start being 0 (no stiffness there).
        f = math.sqrt(g * L / (L * L + 0.4 * r_bob * r_bob)) / (2 * math.pi)
        for name in ("f_hanging", "f_hanging_4"):
            check(abs(float(r[name]) / f - 1) < 1e-9, f"case {r['case']}: {name} = {r[name]}, closed form {f!r}")
        check(abs(float(r["y_rest"]) + L) < 1e-9, f"case {r['case']}: y_rest = {r['y_rest']}, closed form {-L}")
        check(math.isfinite(float(r["energy"])), f"case {r['case']}: the run's statistic is missing")


def test_crash():
    table = os.path.join(OUT, "crash.csv")
    cmd = [MBDAE, "sweep", study_path("slow.yaml"), "-o", table, "-q", "-j", "2", "--force"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Case 2 crashes (a segmentation fault from outside), case 5 hangs (stopped): found by the
    # names the workers give themselves.
    crashed = wait_for("case 2", lambda: next((p for p, c in children(proc.pid).items() if c == "case 2"), None))
    os.kill(crashed, signal.SIGSEGV)
    hung = wait_for("case 5", lambda: next((p for p, c in children(proc.pid).items() if c == "case 5"), None))
    os.kill(hung, signal.SIGSTOP)
    out, err = proc.communicate(timeout=120)
    print(out + err)
    check(proc.returncode == 0, f"exit code {proc.returncode}")
    rows = read_table(table)
    status = {r["case"]: (r["status"], r["message"]) for r in rows}
    check(len(rows) == 12, f"{len(rows)} rows, expected 12")
    check(status["2"][0] == "crashed" and "SIGSEGV" in status["2"][1], f"case 2: {status['2']}")
    check(status["5"][0] == "timeout" and "killed" in status["5"][1], f"case 5: {status['5']}")
    others = [k for k, (s, _) in status.items() if k not in ("2", "5") and s != "ok"]
    check(not others, f"cases {others} not ok")
    check(not alive(crashed) and not alive(hung), "a worker outlived the study")


def test_resume():
    table = os.path.join(OUT, "resume.csv")
    if os.path.exists(table):
        os.remove(table)
    cmd = [MBDAE, "sweep", study_path("slow.yaml"), "-o", table, "-q", "-j", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for("4 rows", lambda: os.path.exists(table) and len(table_lines(table)) >= 4)
    workers = list(children(proc.pid))
    proc.kill()  # SIGKILL: no chance to clean up
    proc.wait()
    before = table_lines(table)
    check(4 <= len(before) < 12, f"{len(before)} rows when killed")
    wait_for("the workers to die with the study", lambda: not any(alive(w) for w in workers), timeout=10)
    # A row cut short by the kill: run again, not taken.
    missing = next(str(k) for k in range(12) if str(k) not in before)
    with open(table, "a") as f:
        f.write(missing + ",1.2,0.4")
    p = sweep("slow.yaml", table, "-j", "2", "--resume")
    after = table_lines(table)
    check(sorted(after, key=int) == [str(k) for k in range(12)], f"cases in the table: {sorted(after, key=int)}")
    check(all(after[k] == before[k] for k in before), "a finished row changed (recomputed) on resume")
    check(f"{12 - len(before)} run now, {len(before)} from the table" in p.stdout, "summary of the resumed run")
    check(all(r["status"] == "ok" for r in read_table(table)), "a case not ok")
    # Resuming a complete study runs nothing; a changed study is refused.
    p = sweep("slow.yaml", table, "--resume")
    check("0 run now, 12 from the table" in p.stdout, "resume of a complete table ran cases")
    changed = os.path.join(OUT, "changed.yaml")
    with open(os.path.join(STUDIES, "slow.yaml")) as f:
        text = f.read().replace("to: 1.6", "to: 1.7").replace("../../../examples", os.path.join(HERE, "../../examples"))
    with open(changed, "w") as f:
        f.write(text)
    p = subprocess.run([MBDAE, "sweep", changed, "-o", table, "--resume"], capture_output=True, text=True)
    check(p.returncode == 2 and "in the study (the study changed" in p.stderr, f"changed study: {p.stderr}")
    p = subprocess.run([MBDAE, "sweep", study_path("slow.yaml"), "-o", table], capture_output=True, text=True)
    check(p.returncode == 2 and "--resume" in p.stderr, "an existing table was overwritten without --force")


def test_plot():
    table = os.path.join(OUT, "falling.csv")
    prefix = table[:-4]
    for ext in (".png", ".svg", ".sensitivity.png", ".sensitivity.svg", ".sensitivity.csv"):
        if os.path.exists(prefix + ext):
            os.remove(prefix + ext)
    sweep("falling_body.yaml", table, "--force", "--plot")
    for ext in (".png", ".svg", ".sensitivity.png", ".sensitivity.svg"):
        check(os.path.getsize(prefix + ext) > 1000, f"{prefix + ext} missing or empty")
    rows = read_table(table)
    T, g = 0.5, 9.81
    for r in rows:  # the closed form z(T) = z0 + v0 T - g T^2 / 2
        z = float(r["z0"]) + float(r["v0"]) * T - 0.5 * g * T * T
        check(abs(float(r["z_end"]) - z) < 1e-12, f"case {r['case']}: z_end {r['z_end']}, closed form {z}")
    # z = z0 + T v0 + c over a full factorial (z0, v0 uncorrelated): SRC_j = b_j s(x_j) / s(z),
    # s(z)^2 = s(z0)^2 + T^2 s(v0)^2 (population standard deviations of the levels).
    def sd(values):
        m = sum(values) / len(values)
        return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))
    s0, sv = sd([0.5, 1.0, 2.0]), sd([-1, 1 / 3, 5 / 3, 3])
    sz = math.sqrt(s0 ** 2 + (T * sv) ** 2)
    expected = {"z0": s0 / sz, "v0": T * sv / sz}
    with open(prefix + ".sensitivity.csv", newline="") as f:
        sens = list(csv.DictReader(f))
    check(len(sens) == 2, f"sensitivity rows {sens}")
    for s in sens:
        check(abs(float(s["src"]) - expected[s["parameter"]]) < 1e-9,
              f"SRC of {s['parameter']}: {s['src']}, closed form {expected[s['parameter']]}")
        check(abs(float(s["pearson"]) - expected[s["parameter"]]) < 1e-9, f"Pearson r of {s['parameter']}")
        check(abs(float(s["r2"]) - 1) < 1e-12, f"R^2 {s['r2']}")


def mpirun(n):
    launcher = ["mpirun", "-n", str(n), "--oversubscribe"]
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return launcher, env


def without_wall_time(path):
    """The rows without their wall time, and without what depends on it in a timed-out case (the
    time it was stopped at, and so its outputs)."""
    rows = []
    for r in read_table(path):
        del r["wall_time"]
        rows.append(r if r["status"] != "timeout" else {"case": r["case"], "status": r["status"]})
    return rows


def test_mpi_same_table():
    check(shutil.which("mpirun") is not None, "no mpirun")
    local, mpi = os.path.join(OUT, "local.csv"), os.path.join(OUT, "mpi.csv")
    sweep("bitwise.yaml", local, "-j", "2", "--force")
    launcher, env = mpirun(2)
    p = sweep("bitwise.yaml", mpi, "--force", launcher=launcher, env=env)
    check("2 ranks × 1 process (MPI)" in p.stdout, "not run on 2 ranks")
    a, b = without_wall_time(local), without_wall_time(mpi)
    check(len(a) == 6 and a == b, "the MPI table differs from the local one")
    # Three ranks with two workers each, on the faults study: same table again.
    local, mpi = os.path.join(OUT, "faults_local.csv"), os.path.join(OUT, "faults_mpi.csv")
    sweep("faults.yaml", local, "-j", "2", "--force")
    launcher, env = mpirun(3)
    p = sweep("faults.yaml", mpi, "-j", "2", "--force", launcher=launcher, env=env)
    check("3 ranks × 2 processes (MPI)" in p.stdout, "not run on 3 ranks")
    a, b = without_wall_time(local), without_wall_time(mpi)
    check(len(a) == 5 and a == b, "the MPI table of the faults study differs from the local one")
    # Messages beyond MPI's eager limit both ways (long values out, long error messages back).
    long = os.path.join(OUT, "long_messages.yaml")
    term = "+".join(["0*t"] * 1500)  # 6 kB: beyond the eager limit, within the 10 kB of an expression
    with open(long, "w") as f:
        f.write(f"model: {SLIDER_CRANK}\nparameters:\n  - name: torque\n    key: forces[0].value[2]\n"
                f"    values: [\"t < 0.5 ? 3 + {term} : 0\", \"t < 0.5 ? 2 + {term} : 0\", \"3 + {term} +\", "
                f"\"4 + {term} +\"]\ndesign: list\noutputs:\n  - {{sensor: energy, statistic: final}}\n"
                "solver: {end_time: 0.2}\n")
    launcher, env = mpirun(2)
    cmd = launcher + [MBDAE, "sweep", long, "-o", os.path.join(OUT, "long.csv"), "-q", "--force"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    rows = read_table(os.path.join(OUT, "long.csv"))
    check(p.returncode == 0 and [r["status"] for r in rows] == ["ok", "ok", "invalid", "invalid"]
          and all(len(r["message"]) > 6000 for r in rows[2:]), f"long messages: {p.returncode} {p.stderr[-500:]}")


def test_mpi_lost_rank():
    table = os.path.join(OUT, "lost_rank.csv")
    if os.path.exists(table):
        os.remove(table)
    launcher, env = mpirun(2)
    cmd = launcher + [MBDAE, "sweep", study_path("slow.yaml"), "-o", table, "-q"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)

    def rank1():
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/environ", "rb") as f:
                    environ = f.read().split(b"\0")
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            if b"OMPI_COMM_WORLD_RANK=1" in environ and table.encode() in cmdline and b"sweep" in cmdline:
                # The rank, not its worker: the rank is its worker's parent.
                if any(c.startswith("case") or c == "sweep idle" for c in children(int(d)).values()):
                    return int(d)
        return None
    wait_for("3 rows", lambda: os.path.exists(table) and len(table_lines(table)) >= 3)
    pid = wait_for("rank 1", rank1)
    os.kill(pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=60)
    print(out)
    check(proc.returncode != 0, "mpirun succeeded although a rank was lost")
    before = table_lines(table)
    check(len(before) < 12, f"{len(before)} rows: the study was complete before the rank was lost")
    p = sweep("slow.yaml", table, "-j", "2", "--resume")
    after = table_lines(table)
    check(sorted(after, key=int) == [str(k) for k in range(12)], "cases missing after resume")
    check(all(after[k] == before[k] for k in before), "a finished row changed on resume")
    check(f"{12 - len(before)} run now" in p.stdout, "summary of the resumed run")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    globals()["test_" + TEST]()
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")
    print("passed")
