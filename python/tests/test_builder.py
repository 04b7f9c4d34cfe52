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


def test_initial_joint_coordinates_from_the_builder_and_set(source_dir):
    # A 1 m rod (COM at its middle) on a pivot, drawn along +x, started at 0.4 rad and 2 rad/s:
    # its COM at 0.5 (cos 0.4, sin 0.4), moving at 2 * 0.5 (-sin 0.4, cos 0.4).
    m = mbdae.new_model(name="rod", gravity=[0, -9.81, 0])
    m.add_body(name="rod", mass=1.0, shape={"box": [1.0, 0.04, 0.04]}, position=[0.5, 0, 0])
    m.add_joint(name="pivot", type="revolute", bodies=["ground", "rod"], point=[0, 0, 0], axis=[0, 0, 1],
                initial={"angle": 0.4, "rate": 2.0})
    m.add_sensor(name="com", body="rod", output="position")
    m.add_sensor(name="v", body="rod", output="velocity")
    m.set_solver(end_time=0.01, step=1e-3)
    r = m.run()
    assert abs(r["com.x"][0] - 0.5 * math.cos(0.4)) < 1e-12
    assert abs(r["com.y"][0] - 0.5 * math.sin(0.4)) < 1e-12
    assert abs(r["v.x"][0] + math.sin(0.4)) < 1e-12
    assert abs(r["v.y"][0] - math.cos(0.4)) < 1e-12
    # The double pendulum's file, both rods turned by 0.3 rad from the shoulder: the tip of the
    # lower rod at 2 (cos 0.3, sin 0.3).
    d = mbdae.load(source_dir / "examples/models/double_pendulum.yaml", set={"joints[0].initial.angle": 0.3})
    t = d.run(end_time=0.01)
    assert abs(t["tip.x"][0] - 2 * math.cos(0.3)) < 1e-12
    assert abs(t["tip.y"][0] - 2 * math.sin(0.3)) < 1e-12
