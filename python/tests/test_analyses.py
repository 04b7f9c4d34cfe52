"""Statics and modes against closed forms: a 1 kg arm of 0.5 x 0.04 x 0.04 m hanging from a pivot
(examples/python/pendulum_motor.yaml), centre of mass l = 0.25 m below the pivot."""

import math
import warnings

import numpy as np
import pytest

import mbdae

M, G, L = 1.0, 9.81, 0.25
I_PIVOT = M * (0.04**2 + 0.5**2) / 12 + M * L**2  # box about its centre + parallel axis, kg m²


@pytest.fixture(scope="module")
def arm(source_dir):
    return mbdae.load(source_dir / "examples/python/pendulum_motor.yaml")


def test_statics_with_a_torque(arm):
    # A constant 1 N m holds the arm where m g l sin(angle) = 1 N m; the pivot carries the weight.
    s = arm.statics(set={"forces[0].value": [0, 0, 1.0]})
    assert s["converged"]
    assert s["sensors"]["angle.z"] == pytest.approx(math.asin(1.0 / (M * G * L)), abs=1e-12)
    assert s["sensors"]["pivot_force.y"] == pytest.approx(M * G, rel=1e-12)
    assert s["sensors"]["pivot_force.x"] == pytest.approx(0.0, abs=1e-12)
    assert s["force_residual"] < 1e-9


def test_modes_of_the_physical_pendulum(arm):
    # Small oscillations about the hanging position: f = sqrt(m g l / I_pivot) / (2 pi), undamped.
    d = arm.modes(at_equilibrium=True)
    assert len(d["frequency_hz"]) == 1
    assert d["frequency_hz"][0] == pytest.approx(math.sqrt(M * G * L / I_PIVOT) / (2 * math.pi), rel=1e-9)
    assert abs(d["damping_ratio"][0]) < 1e-12
    # About the equilibrium held by 1 N m the restoring stiffness is m g l cos(angle).
    angle = math.asin(1.0 / (M * G * L))
    f = arm.modes(at_equilibrium=True, set={"forces[0].value": [0, 0, 1.0]})["frequency_hz"][0]
    assert f == pytest.approx(math.sqrt(M * G * L * math.cos(angle) / I_PIVOT) / (2 * math.pi), rel=1e-9)
    assert isinstance(d["shapes"][0], np.ndarray)


def test_statics_needs_the_implicit_formulation(arm):
    with pytest.raises(ValueError, match="implicit") as e:
        arm.statics(solver="rk4")
    # The implicit solvers named from the registry, the refused one quoted.
    assert "generalized_alpha" in str(e.value) and "trapezoidal_index2" in str(e.value)
    assert "rk4'" in str(e.value) and "dopri5" not in str(e.value)


def test_statics_with_load_steps_and_rigid_modes(arm):
    # Ramped over 5 load steps the same equilibrium as in one (the path is stable), and the same
    # numbers as `mbdae statics`: both call io::solve_statics.
    one = arm.statics(set={"forces[0].value": [0, 0, 1.0]})
    five = arm.statics(set={"forces[0].value": [0, 0, 1.0]}, load_steps=5)
    assert five["converged"]
    assert five["sensors"]["angle.z"] == pytest.approx(one["sensors"]["angle.z"], abs=1e-12)
    assert arm.modes(at_equilibrium=True)["rigid_body_modes"] == 0
    with pytest.raises(ValueError, match="load_steps"):
        arm.statics(load_steps=0)


def test_modes_default_is_the_initial_state_as_the_command(arm):
    # `mbdae modes` without --at-equilibrium linearises about the initial state, and so does
    # modes(): the arm hanging at rest is an equilibrium (no warning, the same frequency as above).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = arm.modes()
    assert d["equilibrium"] and d["warning"] == ""
    assert d["frequency_hz"][0] == pytest.approx(math.sqrt(M * G * L / I_PIVOT) / (2 * math.pi), rel=1e-9)
    # Held out by 1 N m and started hanging, the arm is no equilibrium: the torque is unbalanced.
    with pytest.warns(RuntimeWarning, match="not an equilibrium"):
        d = arm.modes(set={"forces[0].value": [0, 0, 1.0]})
    assert not d["equilibrium"]
    # The largest entry of M a is the centre's: m l (torque / I_pivot), the arm at rest turning.
    assert d["unbalanced_force"] == pytest.approx(M * L * 1.0 / I_PIVOT, rel=1e-9)
    # The frequency about the start is the hanging one; about the equilibrium it is lower.
    assert d["frequency_hz"][0] == pytest.approx(math.sqrt(M * G * L / I_PIVOT) / (2 * math.pi), rel=1e-9)


def test_modes_at_equilibrium_from_a_horizontal_start(source_dir):
    # examples/models/simple_pendulum.yaml starts horizontal: statics reaches the hanging pose.
    m = mbdae.load(source_dir / "examples/models/simple_pendulum.yaml")
    d = m.modes(at_equilibrium=True)
    assert d["frequency_hz"][0] == pytest.approx(math.sqrt(G / (1 + 0.4 * 0.01**2)) / (2 * math.pi), rel=1e-9)
    with pytest.warns(RuntimeWarning, match="not an equilibrium"):
        d0 = m.modes()
    # M a at the start: the bob's centre (1 kg) accelerates downwards at g L^2 / (L^2 + 2/5 r^2).
    assert d0["unbalanced_force"] == pytest.approx(G / (1 + 0.4 * 0.01**2), rel=1e-9)
