#!/usr/bin/python3
"""The 3D viewer in a real browser: pages written by `mbdae run --animate` opened in headless
Chromium (Debian's chromium, chromium-driver, python3-selenium).

Checks, for every example model (a short run each): the page loads without console errors and
draws bodies. For the slider-crank (full run) and the contact example (impulse solver, the
Newton-Euler path): a body's screen position at a chosen time equals the projection of its CSV
position, computed here from the camera the page reports (position, target, up, field of view);
moving the time slider moves the bodies to their CSV positions of the new time; the plot cursor
sits at the time's place on the plot's axis and is drawn there; hovering a body shows its sensor
values of that time. A pendulum with a misplaced pin: the pin is drawn off the bar, while the
correct model's pin is on it.

Usage: test_viewer.py MBDAE SOURCE_DIR OUT_DIR
"""
import csv
import io
import math
import os
import subprocess
import sys
import time

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

MBDAE, SOURCE, OUT = sys.argv[1:4]
BACKGROUND = (0xF4, 0xF5, 0xF7)
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL:", message, flush=True)
    return ok


def run_model(model, name, extra=()):
    csv_path = os.path.join(OUT, name + ".csv")
    cmd = [MBDAE, "run", model, "-q", "-o", csv_path, "--animate", *extra]
    r = subprocess.run(cmd, capture_output=True, text=True)
    check(r.returncode == 0, f"{name}: mbdae run exit {r.returncode}: {r.stderr.strip()}")
    return csv_path


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head = rows[0]
    return {h: [float(r[i]) for r in rows[1:]] for i, h in enumerate(head)}


def project(cam, p):
    """World point -> CSS px in the canvas, from the camera's parameters (perspective camera
    looking from `position` at `target`, `up` the screen's up; vertical field of view `fov`)."""
    eye, tgt, up = cam["position"], cam["target"], cam["up"]
    sub = lambda a, b: [a[i] - b[i] for i in range(3)]
    dot = lambda a, b: sum(a[i] * b[i] for i in range(3))
    cross = lambda a, b: [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    norm = lambda a: [x / math.sqrt(dot(a, a)) for x in a]
    z = norm(sub(eye, tgt))          # the camera looks along -z
    x = norm(cross(up, z))
    y = cross(z, x)
    d = sub(p, eye)
    xc, yc, zc = dot(d, x), dot(d, y), dot(d, z)
    f = 1 / math.tan(math.radians(cam["fov"]) / 2)
    ndc_x = f / cam["aspect"] * xc / -zc
    ndc_y = f * yc / -zc
    return [(ndc_x + 1) / 2 * cam["width"], (1 - ndc_y) / 2 * cam["height"]]


def start_browser():
    o = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,800",
              "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--allow-file-access-from-files"):
        o.add_argument(a)
    o.binary_location = "/usr/bin/chromium"
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def open_page(driver, html, name, fragment=""):
    driver.get("file://" + os.path.abspath(html) + fragment)
    if fragment:
        driver.refresh()  # the same page with another fragment is not loaded again otherwise
    for _ in range(100):
        if driver.execute_script("return !!(window.mbdaeViewer && window.mbdaeViewer.ready)"):
            break
        time.sleep(0.05)
    ok = check(driver.execute_script("return !!(window.mbdaeViewer && window.mbdaeViewer.ready)"),
               f"{name}: the viewer did not start")
    return ok


def console_errors(driver):
    logs = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    page = driver.execute_script("return window.mbdaeViewer ? window.mbdaeViewer.errors : []") or []
    return [e["message"] for e in logs] + list(page)


def canvas_image(driver, element_id):
    return Image.open(io.BytesIO(driver.find_element(By.ID, element_id).screenshot_as_png)).convert("RGB")


def drawn_fraction(img):
    px = img.getdata()
    far = sum(1 for p in px if max(abs(p[i] - BACKGROUND[i]) for i in range(3)) > 40)
    return far / len(px)


def example_pages(driver):
    models_dir = os.path.join(SOURCE, "examples", "models")
    models = sorted(m for m in os.listdir(models_dir) if m.endswith(".yaml"))
    check(len(models) >= 10, f"only {len(models)} example models found in {models_dir}")
    for m in models:
        name = "example_" + m[:-5]
        csv_path = run_model(os.path.join(models_dir, m), name, ["--set", "solver.end_time=0.2"])
        html = csv_path[:-4] + ".html"
        if not check(os.path.exists(html), f"{name}: no page written"):
            continue
        if not open_page(driver, html, name):
            continue
        errs = console_errors(driver)
        check(not errs, f"{name}: console errors: {errs}")
        # Bodies and joints are drawn: without the ground grid, something else covers the canvas.
        driver.execute_script("document.getElementById('show-ground').click()")
        driver.execute_script("window.mbdaeViewer.setFrame(0)")
        frac = drawn_fraction(canvas_image(driver, "scene"))
        check(frac > 0.002, f"{name}: the canvas is blank without the ground ({frac:.4%} drawn)")
        n_csv = len(read_csv(csv_path)["time"])
        n_page = driver.execute_script("return window.mbdaeViewer.frameCount()")
        check(n_page == n_csv, f"{name}: {n_page} frames in the page, {n_csv} CSV rows")
        print(f"ok   {name}: {n_page} frames, {frac:.2%} of the canvas drawn without the ground", flush=True)


def motion_checks(driver, model, name, body, sensor, times, extra=(), point=(0, 0, 0), pixel=True):
    csv_path = run_model(model, name, extra)
    data = read_csv(csv_path)
    T = data["time"]
    if not open_page(driver, csv_path[:-4] + ".html", name):
        return
    check(not console_errors(driver), f"{name}: console errors: {console_errors(driver)}")
    v = "window.mbdaeViewer"
    # The options panel floats over the canvas: out of the way of the pixels and the pointer.
    driver.execute_script("document.getElementById('panel').style.display = 'none'")
    cam = driver.execute_script(f"return {v}.camera()")
    previous = None
    for t in times:
        row = min(range(len(T)), key=lambda r: abs(T[r] - t))
        # The pointer off the canvas: no tooltip over the pixels below.
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "plot")).perform()
        check(not driver.find_element(By.ID, "tooltip").is_displayed(), f"{name}: tooltip shown off the canvas")
        # Move the time slider (the page's own control) to the row, as a person would.
        driver.execute_script(
            "const s = document.getElementById('slider'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));", row)
        check(driver.execute_script(f"return {v}.frame()") == row, f"{name}: slider did not go to frame {row}")
        driver.execute_script(f"{v}.setFrame({v}.frame())")  # draw now rather than at the next animation frame
        page = driver.execute_script(f"return {v}.screenPosition(arguments[0], arguments[1])", body, list(point))
        p = [data[sensor + "." + a][row] for a in "xyz"]
        expected = project(cam, p)
        err = math.dist(page, expected)
        check(err < 0.5, f"{name}: t = {T[row]}: {body} drawn at {page}, the CSV position projects to "
                         f"{expected} ({err:.3f} px apart)")
        if previous is not None:
            check(math.dist(page, previous) > 2, f"{name}: {body} did not move on screen between the times")
        previous = page
        # The body is drawn where the projection says (its colour, not the background).
        if pixel:
            img = canvas_image(driver, "scene")
            x, y = int(round(expected[0])), int(round(expected[1]))
            px = img.getpixel((min(max(x, 0), img.width - 1), min(max(y, 0), img.height - 1)))
            check(max(abs(px[i] - BACKGROUND[i]) for i in range(3)) > 40,
                  f"{name}: t = {T[row]}: background colour {px} at the body's projected position")
        # The plot cursor: at the time's place on the axis (the CSV's first and last times span
        # the plot area), and drawn there in red.
        area = driver.execute_script(f"return {v}.plotArea()")
        cx = driver.execute_script(f"return {v}.plotCursorX()")
        want = area["left"] + (T[row] - T[0]) / (T[-1] - T[0]) * (area["right"] - area["left"])
        check(cx is not None and abs(cx - want) < 0.5, f"{name}: plot cursor at {cx}, expected {want}")
        plot = canvas_image(driver, "plot")
        scale = plot.width / driver.execute_script("return document.getElementById('plot').clientWidth")
        ym = int((area["top"] + area["bottom"]) / 2 * scale)
        r, g, b = max((plot.getpixel((int(want * scale) + dx, ym)) for dx in (-1, 0, 1)), key=lambda c: c[0] - c[1])
        check(r > 150 and g < 110 and b < 110, f"{name}: no red cursor at x = {want} of the plot ({(r, g, b)})")
        if not pixel:
            continue
        # Hover over the body: the tooltip names it and shows its sensor at this time.
        canvas = driver.find_element(By.ID, "scene")
        w, h = canvas.size["width"], canvas.size["height"]
        ActionChains(driver).move_to_element_with_offset(canvas, expected[0] - w / 2, expected[1] - h / 2).perform()
        tip = driver.find_element(By.ID, "tooltip")
        text = tip.text if tip.is_displayed() else ""
        check(text.startswith(body), f"{name}: hovering {body} shows {text!r}")
        line = next((l for l in text.splitlines() if l.startswith(sensor + ".x = ")), None)
        if check(line is not None, f"{name}: no {sensor}.x in the tooltip {text!r}"):
            shown = float(line.split("=")[1].split()[0])
            check(abs(shown - p[0]) <= 1e-5 * max(1, abs(p[0])), f"{name}: tooltip {sensor}.x = {shown}, CSV {p[0]}")
    # Play: the time advances by itself.
    driver.execute_script(f"{v}.setFrame(0); {v}.play()")
    time.sleep(0.6)
    check(driver.execute_script(f"return {v}.frame()") > 0, f"{name}: playing did not advance the time")
    driver.execute_script(f"{v}.pause()")
    # Frame stepping with the keyboard.
    f0 = driver.execute_script(f"return {v}.frame()")
    ActionChains(driver).send_keys("\ue014").perform()  # arrow right
    check(driver.execute_script(f"return {v}.frame()") == f0 + 1, f"{name}: the right arrow did not step a frame")
    check(not console_errors(driver), f"{name}: console errors: {console_errors(driver)}")
    print(f"ok   {name}: positions, slider, plot cursor, hover, play, step", flush=True)


def body_colours(driver, drawing):
    """Each body is drawn at its place: with the frames, joints and lines hidden, the pixel at the
    projection of a slider-crank body's reference point (its centre) has the body's colour (bodies are
    coloured in turn blue, orange, green: crank, rod, slider). `drawing`: "instanced" or "merged"
    (the page draws large models on software WebGL as merged meshes)."""
    name = "slider_crank"
    csv_path = os.path.join(OUT, name + ".csv")
    data = read_csv(csv_path)
    if not open_page(driver, csv_path[:-4] + ".html", name + " colours", "#" + drawing):
        return
    check(driver.execute_script("return window.mbdaeViewer.drawing()") == drawing, f"{name}: not drawn {drawing}")
    driver.execute_script("document.getElementById('panel').style.display = 'none';"
                          "for (const id of ['show-frames', 'show-joints', 'show-links']) document.getElementById(id).click()")
    cam = driver.execute_script("return window.mbdaeViewer.camera()")
    # The crank's and rod's centres from the slider's CSV position: the slider moves along x on the
    # guide, the crank (0.2 m) turns about the origin, the rod (0.6 m) joins them.
    for row in (0, 37, 120):
        driver.execute_script("window.mbdaeViewer.setFrame(arguments[0])", row)
        img = canvas_image(driver, "scene")
        xs = data["slider.x"][row]
        # crank angle from the loop: crank tip c = 0.2 (cos a, sin a), |(xs, 0) - c| = 0.6
        cos_a = (xs ** 2 + 0.2 ** 2 - 0.6 ** 2) / (2 * 0.2 * xs)
        sin_a = math.sqrt(max(0.0, 1 - cos_a ** 2))
        # the sign of the angle: the crank's reference point in the page tells above or below
        pages = {b: driver.execute_script("return window.mbdaeViewer.screenPosition(arguments[0])", b)
                 for b in ("crank", "rod", "slider")}
        tips = [[0.2 * cos_a, s * 0.2 * sin_a, 0] for s in (1, -1)]
        crank = min(([t[0] / 2, t[1] / 2, 0] for t in tips), key=lambda c: math.dist(project(cam, c), pages["crank"]))
        tip = [2 * crank[0], 2 * crank[1], 0]
        centres = {"crank": crank, "rod": [(tip[0] + xs) / 2, tip[1] / 2, 0], "slider": [xs, 0, 0]}
        for body, dominant in (("crank", 2), ("rod", 0), ("slider", 1)):
            x, y = project(cam, centres[body])
            check(math.dist([x, y], pages[body]) < 1.0, f"{name}: frame {row}: {body}'s centre from the loop "
                  f"closure projects to {[x, y]}, the page draws it at {pages[body]}")
            px = img.getpixel((int(round(x)), int(round(y))))
            check(px[dominant] == max(px) and max(px) - min(px) > 40,
                  f"{name}: frame {row}: pixel {px} at {body}'s centre is not the body's colour")
    check(not console_errors(driver), f"{name} {drawing}: console errors: {console_errors(driver)}")
    print(f"ok   {name}: each body drawn in its colour at its place ({drawing})", flush=True)


def pose_sets(driver):
    """A second pose file in the page (mbdae view --poses): a mode-shape file (kind 1) written here
    byte by byte from docs/results-format.md, chosen in the page's results menu and animated."""
    import struct
    name = "slider_crank"
    csv_path = os.path.join(OUT, name + ".csv")
    base = csv_path[:-4]
    # The run's first frame, swung in phase: body 0 (crank) moves along z by 0.1 sin(2 pi phase).
    with open(base + ".poses", "rb") as f:
        raw = f.read()
    n = struct.unpack_from("<I", raw, 16)[0]
    first = list(struct.unpack_from(f"<{7 * n}f", raw, 128 + 8))
    mode = base + ".mode1.poses"
    frames = 16
    with open(mode, "wb") as f:
        header = b"MBDAEPOS" + struct.pack("<IIIIII", 1, 128, n, 7, 1, 0) + struct.pack("<Qd", 0, 12.5)
        header += b"mode 1, 12.5 Hz".ljust(80, b"\0")
        f.write(header)
        for k in range(frames):
            pose = list(first)
            pose[2] += 0.1 * math.sin(2 * math.pi * k / frames)
            f.write(struct.pack("<d", k / frames) + struct.pack(f"<{7 * n}f", *pose))
    page = base + "_sets.html"
    r = subprocess.run([MBDAE, "view", csv_path, "--poses", mode, "-o", page, "-q"], capture_output=True, text=True)
    if not check(r.returncode == 0, f"mbdae view --poses: exit {r.returncode}: {r.stderr}"):
        return
    if not open_page(driver, page, name + " sets"):
        return
    options = driver.execute_script("return Array.from(document.getElementById('set').options).map(o => o.text)")
    check(options == ["run", "mode 1, 12.5 Hz"], f"results menu {options}")
    driver.execute_script("const s = document.getElementById('set'); s.value = '1'; s.dispatchEvent(new Event('change'))")
    v = "window.mbdaeViewer"
    check(driver.execute_script(f"return {v}.frameCount()") == frames, "the mode's frames are not shown")
    cam = driver.execute_script(f"return {v}.camera()")
    for k in (0, 4):
        driver.execute_script(f"{v}.setFrame(arguments[0])", k)
        page_xy = driver.execute_script(f"return {v}.screenPosition('crank')")
        want = project(cam, [first[0], first[1], first[2] + 0.1 * math.sin(2 * math.pi * k / frames)])
        check(math.dist(page_xy, want) < 0.5, f"mode frame {k}: crank at {page_xy}, expected {want}")
    check(driver.find_element(By.ID, "time").text.startswith("phase"), "the mode's time is not a phase")
    check(driver.execute_script(f"return {v}.plotCursorX()") is None, "a plot cursor on a mode shape")
    check(not console_errors(driver), f"sets: console errors: {console_errors(driver)}")
    print(f"ok   {name}: a mode-shape pose file in the results menu", flush=True)


def misplaced_joint(driver):
    """The pin of the correct pendulum is on its bar; the misplaced one's is not."""
    for model, on_bar in (("pendulum_link", True), ("pendulum_link_misplaced_joint", False)):
        csv_path = run_model(os.path.join(SOURCE, "tests", "viewer_models", model + ".yaml"), model)
        if not open_page(driver, csv_path[:-4] + ".html", model):
            continue
        for f in (0, 50):
            driver.execute_script("window.mbdaeViewer.setFrame(arguments[0])", f)
            on_link = driver.execute_script("return window.mbdaeViewer.jointScreenPositions('pin')[1]")
            hit = driver.execute_script("return window.mbdaeViewer.pick(arguments[0], arguments[1])", *on_link)
            check((hit == "link") == on_bar,
                  f"{model}: frame {f}: the pin is drawn at {on_link}, where the pointer finds {hit!r}")
        print(f"ok   {model}: the pin is {'on' if on_bar else 'off'} the bar", flush=True)


def main():
    os.makedirs(OUT, exist_ok=True)
    start = time.time()
    driver = start_browser()
    try:
        example_pages(driver)
        motion_checks(driver, os.path.join(SOURCE, "examples", "models", "slider_crank.yaml"), "slider_crank",
                      "slider", "slider", [0.3, 0.75, 1.42])
        motion_checks(driver, os.path.join(SOURCE, "examples", "models", "box_on_incline.yaml"), "box_on_incline",
                      "ball", "ball", [0.2, 0.6, 0.9])
        # Body points off the reference point: the rotations count too (implicit and explicit paths;
        # the explicit state holds the COM, here 0.2 m from the reference point).
        motion_checks(driver, os.path.join(SOURCE, "examples", "models", "four_bar.yaml"), "four_bar",
                      "coupler", "coupler_point", [0.4, 1.1], point=(0, 0.3, 0), pixel=False)
        motion_checks(driver, os.path.join(SOURCE, "examples", "models", "double_pendulum.yaml"), "double_pendulum_rk4",
                      "lower", "tip", [0.5, 1.3], extra=["--set", "solver.type=rk4", "--set", "bodies[1].com=[0.2, 0, 0]"], point=(0.5, 0, 0), pixel=False)
        body_colours(driver, "instanced")
        body_colours(driver, "merged")
        pose_sets(driver)
        misplaced_joint(driver)
    finally:
        driver.quit()
    print(f"{time.time() - start:.1f} s", flush=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)


main()
