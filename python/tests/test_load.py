"""Loading models: attributes from the file, overrides, and errors located in the file."""

import textwrap

import pytest

import mbdae

BAD_MODEL = textwrap.dedent("""\
    name: pendulum
    gravity: [0, -9.81, 0]
    bodies:
      - {name: rod, mass: -1.0, inertia: [0.01, 0.1, 0.1, 0, 0, 0], position: [0.5, 0, 0]}
    joints:
      - {name: pivot, type: revolute, bodies: [ground, rod], point: [0, 0, 0], axis: [0, 0, 1]}
    solver: {type: generalized_alpha, end_time: 0.1, step: 1.0e-3}
    """)


def test_version_is_the_projects(source_dir):
    # The version in the top-level CMakeLists.txt's project() call, read independently.
    text = (source_dir / "CMakeLists.txt").read_text()
    line = next(l for l in text.splitlines() if l.startswith("project(mbdae VERSION"))
    assert mbdae.__version__ == line.split("VERSION")[1].split()[0]


def test_model_attributes(source_dir):
    m = mbdae.load(source_dir / "examples/models/slider_crank.yaml")
    # As written in the file.
    assert m.name == "slider-crank"
    assert m.bodies == ["crank", "rod", "slider"]
    assert m.joints == ["main_bearing", "crank_pin", "wrist_pin", "guide"]
    assert m.sensors == ["slider", "crank_omega", "guide_force", "energy"]
    assert m.solver == "generalized_alpha"
    assert (m.end_time, m.step, m.output_every) == (2.0, 1.0e-3, 1.0e-2)


def test_overrides_with_set(source_dir):
    m = mbdae.load(source_dir / "examples/models/slider_crank.yaml",
                   set={"solver.type": "ida", "solver.end_time": 0.5, "bodies[2].mass": 3})
    assert m.solver == "ida"
    assert m.end_time == 0.5


def test_load_error_names_file_line_and_key(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_MODEL)
    with pytest.raises(mbdae.ModelError) as info:
        mbdae.load(path)
    # The negative mass is on line 4 of the text above, key bodies[0].mass.
    assert f"{path}:4:" in str(info.value)
    assert "bodies[0].mass" in str(info.value)
    files, lines, keys = zip(*[(d[0], d[1], d[3]) for d in info.value.diagnostics])
    assert str(path) in files and 4 in lines and "bodies[0].mass" in keys
    assert all(len(d) == 5 for d in info.value.diagnostics)


def test_bad_override_is_located_at_the_override(source_dir):
    with pytest.raises(mbdae.ModelError) as info:
        mbdae.load(source_dir / "examples/models/simple_pendulum.yaml", set={"solver.type": "rk5"})
    assert "--set solver.type=rk5" in str(info.value)
    assert "unknown value 'rk5'" in str(info.value)


def test_missing_file_is_a_model_error(tmp_path):
    with pytest.raises(mbdae.ModelError):
        mbdae.load(tmp_path / "no_such_model.yaml")


def test_unknown_run_keyword_is_a_type_error(source_dir):
    m = mbdae.load(source_dir / "examples/models/simple_pendulum.yaml")
    with pytest.raises(TypeError, match="end_tme"):
        m.run(end_tme=1)


def test_solver_that_cannot_run_the_model_is_a_model_error(source_dir):
    # lie_rk4 handles free bodies only; the pendulum has a joint (docs/model-format.md).
    m = mbdae.load(source_dir / "examples/models/simple_pendulum.yaml")
    with pytest.raises(mbdae.ModelError, match="lie_rk4"):
        m.run(solver="lie_rk4")
