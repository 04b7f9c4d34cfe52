"""Models built in Python with the model file's names: the same model as the file gives the same
columns to the last bit, a physical pendulum built in Python has the closed-form period, and
mistakes are reported at their key."""

import math

import numpy as np
import pytest

import mbdae


def test_builder_equals_the_model_file(source_dir):
    # examples/models/simple_pendulum.yaml written again in Python, key by key.
    f = mbdae.load(source_dir / "examples/models/simple_pendulum.yaml")
    import yaml  # python3-yaml: read the file independently of the loader
    doc = yaml.safe_load((source_dir / "examples/models/simple_pendulum.yaml").read_text())
    top = {k: v for k, v in doc.items() if k not in ("bodies", "joints", "forces", "contacts", "sensors",
                                                     "solver", "output")}
    m = mbdae.new_model(**top)
    for b in doc.get("bodies", []):
        m.add_body(**b)
    for j in doc.get("joints", []):
        m.add_joint(**j)
    for x in doc.get("forces", []):
        m.add_force(**x)
    for s in doc.get("sensors", []):
        m.add_sensor(**s)
    m.set_solver(**doc["solver"])
    if "output" in doc:
        m.set_output(**doc["output"])
    a, b = f.run(end_time=0.5), m.run(end_time=0.5)
    assert a.columns == b.columns
    assert np.array_equal(a.data, b.data)


def test_built_physical_pendulum_has_the_closed_form_period():
    # A uniform rod (m, L) on a pivot at one end: small oscillations with
    # omega^2 = m g (L/2) / (m L^2 / 3) = 3 g / (2 L).
    m_, L, g = 2.0, 0.8, 9.81
    m = mbdae.new_model(name="rod", gravity=[0, -g, 0])
    # Hanging straight down (along -y), its inertia in body axes (rod along y).
    m.add_body(name="rod", mass=m_, inertia=[m_ * L**2 / 12, 1e-4, m_ * L**2 / 12, 0, 0, 0],
               position=np.array([0, -L / 2, 0]))
    m.add_joint(name="pivot", type="revolute", bodies=["ground", "rod"], point=[0, 0, 0], axis=[0, 0, 1])
    m.set_solver(type="generalized_alpha", end_time=1.0)
    modes = m.modes()
    assert modes["frequency_hz"][0] == pytest.approx(math.sqrt(3 * g / (2 * L)) / (2 * math.pi), rel=1e-8)


def test_builder_mistakes_name_their_key():
    m = mbdae.new_model()
    m.add_body(name="a", mass=-1, shape={"sphere": 0.1})
    m.add_joint(name="j", type="hinge", bodies=["ground", "a"], point=[0, 0, 0])
    m.set_solver(end_time=1)
    with pytest.raises(mbdae.ModelError) as e:
        m.build()
    keys = [d[3] for d in e.value.diagnostics]
    assert "bodies[0].mass" in keys
    assert "joints[0].type" in keys
    # The line of each problem is its item's line in the JSON text.
    lines = m.text().splitlines()
    for d in e.value.diagnostics:
        item = d[3].split(".")[0]
        assert item.split("[")[0] in ("bodies", "joints")
        assert lines[d[1] - 1].strip().startswith("{")


@pytest.mark.parametrize("model", ["drivetrain.yaml", "gear_train.yaml", "hover_pid.yaml"])
def test_builder_couplings_states_shafts_equal_the_model_file(source_dir, model):
    # Models with couplings, controller states, shafts and shaft forces written again in Python
    # with add_coupling, add_state, add_shaft and add_shaft_force: the same rows to the last bit.
    import yaml
    path = source_dir / "examples/models" / model
    doc = yaml.safe_load(path.read_text())
    add = {"bodies": "add_body", "joints": "add_joint", "shafts": "add_shaft", "shaft_forces": "add_shaft_force",
           "couplings": "add_coupling", "states": "add_state", "forces": "add_force", "contacts": "add_contact",
           "sensors": "add_sensor"}
    m = mbdae.new_model(**{k: v for k, v in doc.items() if k not in add and k not in ("solver", "output")})
    for section, method in add.items():
        for item in doc.get(section) or []:
            getattr(m, method)(**item)
    assert any(section in doc for section in ("shafts", "couplings", "states"))
    m.set_solver(**doc["solver"])
    if "output" in doc:
        m.set_output(**doc["output"])
    # Tables are read relative to the model file: run both from the file's folder.
    import os
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        a, b = mbdae.load(path).run(end_time=0.2), m.run(end_time=0.2)
    finally:
        os.chdir(cwd)
    assert a.columns == b.columns
    assert np.array_equal(a.data, b.data)
