#!/usr/bin/python3
"""Screenshot of a page written by `mbdae view` / `mbdae run --animate`, at a chosen time, taken
in headless Chromium (Debian's chromium, chromium-driver, python3-selenium). Used for the pictures
in docs/images.

Usage: scripts/viewer_screenshot.py PAGE.html OUT.png [--time T] [--size 1100x760] [--plot COLUMN]
       [--hover BODY] [--trail NAME]
"""
import argparse
import os
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

ap = argparse.ArgumentParser()
ap.add_argument("page")
ap.add_argument("png")
ap.add_argument("--time", type=float, default=0)
ap.add_argument("--size", default="1100x760")
ap.add_argument("--plot", action="append", default=[], help="a CSV column for the plot (twice: two curves)")
ap.add_argument("--hover", help="a body to point at (its tooltip shows)")
ap.add_argument("--trail", action="append", default=[], help="a trail to switch on (its label in the page)")
a = ap.parse_args()

o = Options()
for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={a.size.replace('x', ',')}",
            "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--hide-scrollbars"):
    o.add_argument(arg)
o.binary_location = "/usr/bin/chromium"
d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
try:
    d.get("file://" + os.path.abspath(a.page))
    while not d.execute_script("return !!(window.mbdaeViewer && window.mbdaeViewer.ready)"):
        time.sleep(0.05)
    for k, col in enumerate(a.plot[:2]):
        d.execute_script("const s = document.getElementById(arguments[0]);"
                         "s.value = String(window.mbdaeViewer.columnIndex(arguments[1]));"
                         "s.dispatchEvent(new Event('change'));", "plot-a" if k == 0 else "plot-b", col)
    for label in a.trail:
        d.execute_script("for (const l of document.querySelectorAll('#trails label'))"
                         "  if (l.textContent.trim() === arguments[0] && !l.firstChild.checked) l.firstChild.click();", label)
    d.execute_script("window.mbdaeViewer.setTime(arguments[0])", a.time)
    if a.hover:
        xy = d.execute_script("return window.mbdaeViewer.screenPosition(arguments[0])", a.hover)
        canvas = d.find_element(By.ID, "scene")
        ActionChains(d).move_to_element_with_offset(canvas, xy[0] - canvas.size["width"] / 2,
                                                    xy[1] - canvas.size["height"] / 2).perform()
    time.sleep(0.2)
    d.save_screenshot(a.png)
finally:
    d.quit()
