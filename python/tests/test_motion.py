"""Kinematics and inverse dynamics from Python against the closed form of the driven slider-crank
(examples/models/driven_crank.yaml: crank r = 0.2 m turning at 2 pi rad/s, rod l = 0.6 m, slider
on the x axis) and, column for column, against `mbdae kinematics` and `mbdae inverse`."""

import csv
import math
import subprocess

import numpy as np
import pytest

import mbdae

R, L, OMEGA = 0.2, 0.6, 2 * math.pi


@pytest.fixture(scope="module")
def crank(source_dir):
    return mbdae.load(source_dir / "examples/models/driven_crank.yaml")


def command(exe, analysis, model, out):
    proc = subprocess.run([str(exe), analysis, str(model), "-q", "-o", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    with open(out, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], np.array([[float(x) for x in r] for r in rows[1:]])


def test_kinematics_against_the_closed_form(crank):
    # x(t) = r cos(theta) + sqrt(l^2 - r^2 sin^2(theta)), theta = omega t; its derivative for the speed.
    k = crank.kinematics()
    assert k.ok
    th = OMEGA * k.time
    root = np.sqrt(L**2 - (R * np.sin(th))**2)
    x = R * np.cos(th) + root
    v = -R * OMEGA * np.sin(th) - R**2 * OMEGA * np.sin(th) * np.cos(th) / root
    assert np.max(np.abs(k["slider.x"] - x)) < 1e-12
    assert np.max(np.abs(k["slider.vx"] - v)) < 1e-12
    assert np.max(np.abs(k["crank.wz"] - OMEGA)) < 1e-12
    # The reaction sensor needs multipliers: left out and named, not filled with zeros.
    assert any("drive" in s for s in k.left_out)
    assert "drive" not in k


def test_inverse_dynamics_power_balance(crank):
    # Independent of the multipliers: the drive's power tau omega equals dE/dt of the bodies'
    # kinetic and potential energy, computed here from the kinematics (boxes: I_z = m (a^2 + b^2) / 12).
    k = crank.kinematics(output_every=1e-4, end_time=1.0)
    d = crank.inverse(output_every=1e-4, end_time=1.0)
    bodies = {"crank": (0.5, 0.2, 0.03), "rod": (1.0, 0.6, 0.03), "slider": (2.0, 0.1, 0.05)}
    E = np.zeros(len(k))
    for name, (m, a, b) in bodies.items():
        v2 = k[name + ".vx"]**2 + k[name + ".vy"]**2 + k[name + ".vz"]**2
        E += 0.5 * m * v2 + 0.5 * m * (a * a + b * b) / 12 * k[name + ".wz"]**2 + m * 9.81 * k[name + ".y"]
    dEdt = np.gradient(E, k.time, edge_order=2)
    power = d["drive.effort"] * OMEGA
    scale = np.max(np.abs(power))
    assert scale > 1.0  # the crank does work: about 4 N m at 2 pi rad/s
    assert np.max(np.abs(power - dEdt)[2:-2]) < 1e-5 * scale
    assert np.max(d["residual"]) < 1e-10


@pytest.mark.parametrize("analysis", ["kinematics", "inverse"])
def test_identical_to_the_command(crank, source_dir, mbdae_exe, tmp_path, analysis):
    header, expected = command(mbdae_exe, analysis, source_dir / "examples/models/driven_crank.yaml",
                               tmp_path / "out.csv")
    r = getattr(crank, analysis)()
    assert r.columns == header
    assert r.data.shape == expected.shape
    assert np.array_equal(r.data, expected)


def test_a_mechanism_that_can_move_is_refused(source_dir):
    m = mbdae.load(source_dir / "examples/models/slider_crank.yaml")
    with pytest.raises(ValueError, match="not driven"):
        m.kinematics()
