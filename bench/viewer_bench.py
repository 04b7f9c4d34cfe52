#!/usr/bin/python3
"""Frame rate of the 3D viewer on a large model, in headless Chromium without a GPU.

Writes a model of N free bodies (a cube of N bodies, boxes, cylinders and spheres in turn, each
spinning; every 10th one on a spring to the ground), runs it with rk4 for F frames, writes the page
with `mbdae run --animate`, opens it in headless Chromium (Debian's chromium and chromium-driver,
software WebGL) and measures the frames drawn per second while it plays.

Usage: bench/viewer_bench.py [MBDAE] [--bodies N] [--frames F] [--seconds S] [--size WxH] [--out DIR]
                             [--drawing auto|instanced|merged]
Prints the file sizes, the page's load time and the frame rate.
"""
import argparse
import math
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("mbdae", nargs="?", default=os.path.join(root, "build", "release", "apps", "mbdae"))
ap.add_argument("--bodies", type=int, default=1000)
ap.add_argument("--frames", type=int, default=1000)
ap.add_argument("--seconds", type=float, default=10)
ap.add_argument("--size", default="1280x800")
ap.add_argument("--out", default=os.path.join(root, "build", "viewer_bench"))
ap.add_argument("--drawing", choices=["auto", "instanced", "merged"], default="auto",
                help="how the page draws the bodies (auto: merged on software WebGL for large models)")
a = ap.parse_args()
os.makedirs(a.out, exist_ok=True)

n = a.bodies
side = math.ceil(n ** (1 / 3))
lines = [f"name: {n} spinning bodies", "gravity: [0, 0, 0]", "bodies:"]
shapes = ["{box: [0.3, 0.2, 0.1]}", "{cylinder: {radius: 0.1, length: 0.3, axis: z}}", "{sphere: 0.12}"]
for i in range(n):
    x, y, z = i % side, (i // side) % side, i // (side * side)
    w = [0.5 + 0.1 * (i % 7), 0.3 * (i % 5) - 0.6, 2.0 + 0.05 * (i % 11)]
    lines.append(f"  - {{name: b{i}, mass: 1, shape: {shapes[i % 3]}, position: [{x * 0.6}, {y * 0.6}, {z * 0.6}], "
                 f"angular_velocity_local: [{w[0]:.2f}, {w[1]:.2f}, {w[2]:.2f}], velocity: [0, 0, {0.05 * (i % 3 - 1):.2f}]}}")
lines.append("forces:")
for i in range(0, n, 10):
    x, y, z = i % side, (i // side) % side, i // (side * side)
    p = [x * 0.6, y * 0.6, z * 0.6]
    lines.append(f"  - {{type: spring_damper, bodies: [ground, b{i}], points: [[{p[0]}, {p[1]}, {p[2] - 0.4}], "
                 f"[{p[0]}, {p[1]}, {p[2]}]], stiffness: 20, damping: 0.5}}")
lines += ["sensors:", "  - {name: b0, body: b0, output: position}", "  - {name: E, output: energy}",
          "solver:", "  type: rk4", f"  end_time: {a.frames / 100}", "  step: 0.01", "output:", "  every: 0.01", ""]
model = os.path.join(a.out, "bodies.yaml")
open(model, "w").write("\n".join(lines))

csv = os.path.join(a.out, "bodies.csv")
t0 = time.time()
r = subprocess.run([a.mbdae, "run", model, "-q", "-o", csv, "--animate"], capture_output=True, text=True)
if r.returncode != 0:
    sys.exit("mbdae run failed:\n" + r.stdout + r.stderr)
print(r.stdout.strip())
print(f"run and page: {time.time() - t0:.1f} s")
html = csv[:-4] + ".html"
for f in (csv, csv[:-4] + ".poses", csv[:-4] + ".scene.json", html):
    print(f"{os.path.basename(f):22s} {os.path.getsize(f) / 1e6:8.2f} MB")

o = Options()
for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={a.size.replace('x', ',')}",
            "--enable-unsafe-swiftshader", "--use-angle=swiftshader"):
    o.add_argument(arg)
o.binary_location = "/usr/bin/chromium"
o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
service = Service("/usr/bin/chromedriver")
d = webdriver.Chrome(service=service, options=o)


def browser_cpu_seconds():
    """User + system CPU time of the browser started here and all its processes (from /proc)."""
    children = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(p))
            except OSError:
                pass
    total, todo = 0, [service.process.pid]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


try:
    t0 = time.time()
    d.get("file://" + html + ("" if a.drawing == "auto" else "#" + a.drawing))
    while not d.execute_script("return !!(window.mbdaeViewer && window.mbdaeViewer.ready)"):
        if time.time() - t0 > 120:
            sys.exit("the page did not start in 120 s")
        time.sleep(0.05)
    print(f"page ready after {time.time() - t0:.1f} s "
          f"({d.execute_script('return window.mbdaeViewer.frameCount()')} frames of "
          f"{len(d.execute_script('return window.mbdaeViewer.bodyNames()'))} bodies)")
    errors = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
    if errors:
        print("console errors:", errors)
    d.execute_script("document.getElementById('speed').value = '1'")
    cpu0, n0 = browser_cpu_seconds(), d.execute_script("return window.mbdaeViewer.rendered()")
    fps = d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.mbdaeViewer.measureFps(arguments[0]).then(done);", a.seconds * 1000)
    cpu1, n1 = browser_cpu_seconds(), d.execute_script("return window.mbdaeViewer.rendered()")
    drawing = d.execute_script("return window.mbdaeViewer.drawing()")
    print(f"frame rate while playing, {a.size} px, software WebGL, bodies {drawing}: {fps:.1f} frames/s "
          f"over {a.seconds:g} s; script {d.execute_script('return window.mbdaeViewer.scriptMsPerFrame()'):.1f} ms a frame")
    print(f"CPU time of all the browser's processes: {1000 * (cpu1 - cpu0) / max(n1 - n0, 1):.1f} ms a frame "
          f"(on {os.cpu_count()} idle cores at most about {1000 * os.cpu_count() / max(1000 * (cpu1 - cpu0) / max(n1 - n0, 1), 1e-9):.0f} frames/s)")
    with open("/proc/loadavg") as f:
        print("load average (1, 5, 15 min):", " ".join(f.read().split()[:3]))
finally:
    d.quit()
