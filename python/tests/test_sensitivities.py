"""Model.sensitivities: the forward sensitivities of mbdae sensitivity as numpy arrays, against the
closed form of a mass on a spring (tests/sensitivity_models/spring_mass.yaml)."""

import math

import numpy as np
import pytest

import mbdae


def test_spring_mass_against_the_closed_form(source_dir):
    m = mbdae.load(source_dir / "tests/sensitivity_models/spring_mass.yaml")
    s = m.sensitivities(["forces[0].stiffness", "bodies[0].velocity[0]"])
    t = s["time"]
    assert s["derivatives"].shape == (2, len(t), len(s["columns"]))
    j = s["columns"].index("mass.x")
    k, A = 39.47841760435743, 0.1
    w = math.sqrt(k)
    dk = -A * t * np.sin(w * t) / (2 * math.sqrt(k))
    dv = np.sin(w * t) / w
    # The step's discretization error (h = 1e-4 s) only: a few 1e-7 of the largest value.
    assert np.max(np.abs(s["derivatives"][0][:, j] - dk)) <= 2e-6 * np.max(np.abs(dk))
    assert np.max(np.abs(s["derivatives"][1][:, j] - dv)) <= 2e-6 * np.max(np.abs(dv))
    assert s["parameters"][0][0] == "forces[0].stiffness" and s["parameters"][0][1] == pytest.approx(k)


def test_refusals_are_model_errors(source_dir):
    m = mbdae.load(source_dir / "tests/sensitivity_models/spring_mass.yaml")
    with pytest.raises(mbdae.ModelError, match="forces.0..nothing"):
        m.sensitivities(["forces[0].nothing"])
    with pytest.raises(mbdae.ModelError, match="ida"):
        m.sensitivities(["bodies[0].mass"], set={"solver.type": "ida"})
