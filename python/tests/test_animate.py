"""Result.save() writes what `mbdae run -o` writes beside its CSV (meta, poses, scene), so that
`mbdae view` reads a result saved from Python; Result.animate() and run(animate=...) write the
viewer's page, the page `mbdae view` writes, and it runs in headless Chromium."""

import os
import shutil
import subprocess
import time

import pytest

import mbdae

SUFFIXES = (".csv", ".meta.json", ".poses", ".scene.json")


def command_run(exe, model, csv_path):
    proc = subprocess.run([str(exe), "run", str(model), "-q", "-o", str(csv_path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def view(exe, csv_path, page):
    proc = subprocess.run([str(exe), "view", str(csv_path), "-o", str(page), "-q"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return page.read_bytes()


def without_title(page: bytes) -> bytes:
    start = page.index(b"<title>")
    return page[:start] + page[page.index(b"</title>"):]


@pytest.fixture(scope="module")
def slider_crank(source_dir):
    return source_dir / "examples/models/slider_crank.yaml"


def test_save_writes_the_files_of_the_command(slider_crank, mbdae_exe, tmp_path):
    command_run(mbdae_exe, slider_crank, tmp_path / "cli.csv")
    mbdae.load(slider_crank).run().save(tmp_path / "py.csv")
    for suffix in SUFFIXES:
        cli, py = (tmp_path / ("cli" + suffix)).read_bytes(), (tmp_path / ("py" + suffix)).read_bytes()
        assert py == cli, suffix


def test_view_reads_a_saved_result(slider_crank, mbdae_exe, tmp_path):
    command_run(mbdae_exe, slider_crank, tmp_path / "cli.csv")
    mbdae.load(slider_crank).run().save(tmp_path / "py.csv")
    from_cli = view(mbdae_exe, tmp_path / "cli.csv", tmp_path / "cli.html")
    from_py = view(mbdae_exe, tmp_path / "py.csv", tmp_path / "py.html")
    assert without_title(from_py) == without_title(from_cli)


def test_animate_writes_the_page_of_mbdae_view(slider_crank, mbdae_exe, tmp_path):
    command_run(mbdae_exe, slider_crank, tmp_path / "cli.csv")
    from_cli = view(mbdae_exe, tmp_path / "cli.csv", tmp_path / "cli.html")
    r = mbdae.load(slider_crank).run(animate=tmp_path / "run.html")
    r.animate(tmp_path / "again.html")
    for name in ("run.html", "again.html"):
        page = (tmp_path / name).read_bytes()
        assert without_title(page) == without_title(from_cli), name
        assert f"<title>{name} — mbdae</title>".encode() in page
    # Only the page is left: the files it was made from were scratch files.
    assert sorted(os.listdir(tmp_path)) == sorted(["cli" + s for s in SUFFIXES] + ["cli.html", "run.html", "again.html"])


def test_animate_needs_poses(source_dir, tmp_path):
    k = mbdae.load(source_dir / "examples/models/driven_crank.yaml").kinematics()
    with pytest.raises(ValueError, match="no body poses"):
        k.animate(tmp_path / "k.html")
    assert not (tmp_path / "k.html").exists()


def test_save_and_animate_refuse_a_symbolic_link(slider_crank, tmp_path):
    r = mbdae.load(slider_crank).run(end_time=0.05)
    target = tmp_path / "keep.txt"
    target.write_text("keep")
    (tmp_path / "out.poses").symlink_to(target)
    with pytest.raises(RuntimeError, match="out.poses"):
        r.save(tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()  # refused before anything was written
    (tmp_path / "page.html").symlink_to(target)
    with pytest.raises(RuntimeError, match="page.html"):
        r.animate(tmp_path / "page.html")
    assert target.read_text() == "keep"


def chromium():
    """Headless Chromium through selenium (Debian's chromium, chromium-driver, python3-selenium)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    o = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=900,700",
              "--enable-unsafe-swiftshader", "--use-angle=swiftshader"):
        o.add_argument(a)
    o.binary_location = shutil.which("chromium")
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=o)


def open_page(driver, page):
    driver.get("file://" + str(page))
    ready = "return !!(window.mbdaeViewer && window.mbdaeViewer.ready)"
    for _ in range(200):
        if driver.execute_script(ready):
            break
        time.sleep(0.05)
    assert driver.execute_script(ready), "the viewer did not start"


def test_the_page_runs_in_headless_chromium(slider_crank, tmp_path):
    driver = chromium()
    r = mbdae.load(slider_crank).run(animate=tmp_path / "run.html")
    try:
        open_page(driver, tmp_path / "run.html")
        assert driver.execute_script("return window.mbdaeViewer.frameCount()") == len(r)
        severe = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not severe and not driver.execute_script("return window.mbdaeViewer.errors"), severe
    finally:
        driver.quit()


def test_a_long_trail_list_is_collapsed(tmp_path):
    """Twenty falling spheres: their twenty centre-of-mass trails are in a list of their own,
    closed; the three bodies of the slider-crank keep theirs in the panel's list."""
    b = mbdae.new_model(name="twenty spheres", gravity=[0, 0, -9.81], solver={"end_time": 0.1})
    for k in range(20):
        b.add_body(name=f"s{k}", mass=1, shape={"sphere": 0.05}, position=[0.2 * k, 0, 0])
    b.run(end_time=0.1, animate=tmp_path / "many.html")
    driver = chromium()
    try:
        open_page(driver, tmp_path / "many.html")
        box = "document.getElementById('trails-com')"
        assert driver.execute_script(f"return !!{box}")
        assert driver.execute_script(f"return {box}.open") is False
        assert driver.execute_script(f"return {box}.querySelector('summary').textContent") == "COM of 20 bodies"
        assert driver.execute_script(f"return {box}.querySelectorAll('input[type=checkbox]').length") == 20
        assert driver.execute_script("return document.querySelectorAll('#trails input').length") == 20
    finally:
        driver.quit()


def test_a_short_trail_list_stays_open(slider_crank, tmp_path):
    mbdae.load(slider_crank).run(end_time=0.1, animate=tmp_path / "few.html")
    driver = chromium()
    try:
        open_page(driver, tmp_path / "few.html")
        assert driver.execute_script("return document.getElementById('trails-com')") is None
        labels = driver.execute_script(
            "return [...document.querySelectorAll('#trails > label')].map((l) => l.textContent.trim())")
        assert sum(1 for t in labels if t.startswith("COM of ")) == 3
    finally:
        driver.quit()
