"""Every example model gives, through Python, the same columns as the `mbdae` command, bit for bit.

The command runs as a separate process and writes its CSV with the shortest digits that read back
as the same double (std::to_chars), so parsing it gives the exact values: the comparison is ==
(and NaN where the command printed nan).
"""

import csv
import subprocess

import numpy as np
import pytest

import mbdae
from conftest import MODELS


def run_command(exe, model, out, *extra):
    proc = subprocess.run([str(exe), "run", str(model), "-q", "-o", str(out), *extra],
                          capture_output=True, text=True)
    with open(out, newline="") as f:
        rows = list(csv.reader(f))
    return proc.returncode, rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


def assert_identical(header, expected, result):
    assert result.columns == header
    assert result.data.shape == expected.shape
    same = (result.data == expected) | (np.isnan(result.data) & np.isnan(expected))
    bad = np.argwhere(~same)
    assert bad.size == 0, (f"{len(bad)} values differ, first at row {bad[0][0]} column "
                           f"{header[bad[0][1]]}: {result.data[tuple(bad[0])]!r} vs "
                           f"{expected[tuple(bad[0])]!r}")


@pytest.mark.parametrize("model", MODELS, ids=[m.stem for m in MODELS])
def test_example_model_identical_to_command(model, mbdae_exe, tmp_path):
    rc, header, expected = run_command(mbdae_exe, model, tmp_path / "out.csv")
    assert rc == 0, f"the command failed on {model.name}"
    r = mbdae.load(model).run()
    assert r.ok and r.status == "success"
    assert_identical(header, expected, r)
    # Views, not copies: the time column and a sensor's columns share the result's memory.
    assert np.shares_memory(r.time, r.data)


def test_overrides_identical_to_command(source_dir, mbdae_exe, tmp_path):
    model = source_dir / "examples/models/slider_crank.yaml"
    rc, header, expected = run_command(mbdae_exe, model, tmp_path / "out.csv",
                                       "--set", "solver.type=ida", "--set", "solver.end_time=0.75",
                                       "--set", "output.every=0.005")
    assert rc == 0
    r = mbdae.load(model).run(solver="ida", end_time=0.75, output_every=0.005)
    assert r.time[-1] == 0.75
    assert_identical(header, expected, r)


@pytest.mark.parametrize("model", ["slider_crank.yaml", "pd_controlled_arm.yaml"])
def test_saved_csv_is_byte_identical_to_the_command(model, source_dir, mbdae_exe, tmp_path):
    path = source_dir / "examples/models" / model
    subprocess.run([str(mbdae_exe), "run", str(path), "-q", "--no-poses", "-o", str(tmp_path / "cli.csv")],
                   check=True, capture_output=True)
    mbdae.load(path).run().save(tmp_path / "py.csv")
    assert (tmp_path / "py.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
