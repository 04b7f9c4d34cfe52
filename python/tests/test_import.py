"""mbdae.load() of robot descriptions (docs/import.md): the same model as `mbdae import` writes,
the elements not mapped as warnings, and MJCF's joint equality moving both fingers."""

import subprocess

import numpy as np
import pytest

import mbdae


def test_urdf_loads_and_warns_by_element_and_line(source_dir):
    with pytest.warns(UserWarning, match=r"gripper\.urdf:40:1: link 'palm' <collision>: not mapped"):
        m = mbdae.load(source_dir / "examples/robots/gripper.urdf")
    assert m.bodies == ["carriage", "palm", "finger_left", "finger_right"]
    assert m.joints == ["lift", "wrist", "finger_left_joint", "finger_right_joint"]


def test_urdf_run_equals_the_written_model_file(source_dir, mbdae_exe, tmp_path):
    # `mbdae import` writes the model file; loading the URDF directly gives the same results.
    urdf = source_dir / "examples/robots/arm6.urdf"
    yaml_file = tmp_path / "arm6.yaml"
    subprocess.run([str(mbdae_exe), "import", str(urdf), "-o", str(yaml_file)], check=True,
                   capture_output=True)
    with pytest.warns(UserWarning):
        direct = mbdae.load(urdf).run(end_time=0.2)
    written = mbdae.load(yaml_file).run(end_time=0.2)
    assert direct.columns == written.columns
    assert np.array_equal(direct.data, written.data)
    # It moves: the arm falls from its reference configuration.
    assert abs(direct["j2"][-1]) > 1e-3


def test_mjcf_joint_equality_moves_both_fingers(source_dir):
    with pytest.warns(UserWarning):
        m = mbdae.load(source_dir / "examples/robots/hand.xml",
                       set={"forces": [{"name": "push", "type": "joint_motor", "joint": "finger_a_joint",
                                        "value": 1e-4}],
                            "gravity": [0, 0, 0]})
    r = m.run(end_time=0.05)
    a, b = r["finger_a_joint"][-1], r["finger_b_joint"][-1]
    assert a > 1e-4
    assert b == pytest.approx(-a, rel=1e-9)
