"""The scripts of examples/python run to completion (each checks its own result)."""

import os
import subprocess
import sys

import pathlib

import pytest

import mbdae
from conftest import SOURCE_DIR

# The package the tests import, for the scripts' interpreters (whatever the working directory).
ENV = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(pathlib.Path(mbdae.__file__).parents[1]))

SCRIPTS = sorted((SOURCE_DIR / "examples/python").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_example_runs(script, tmp_path):
    proc = subprocess.run([sys.executable, str(script), str(tmp_path)], cwd=tmp_path, env=ENV,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_study_writes_its_plot(tmp_path):
    subprocess.run([sys.executable, str(SOURCE_DIR / "examples/python/torque_study.py"),
                    str(tmp_path)], check=True, capture_output=True,
                   cwd=tmp_path, env=ENV)
    png = tmp_path / "torque_study.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
