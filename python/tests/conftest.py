"""Shared fixtures: where the sources and the `mbdae` command are.

ctest sets MBDAE_SOURCE_DIR and MBDAE_EXE; run by hand, the defaults are the source tree this
file is in and <source>/build/release/apps/mbdae.
"""

import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("MBDAE_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
MBDAE_EXE = pathlib.Path(os.environ.get("MBDAE_EXE", SOURCE_DIR / "build/release/apps/mbdae"))
MODELS = sorted((SOURCE_DIR / "examples/models").glob("*.yaml"))


@pytest.fixture(scope="module")
def source_dir() -> pathlib.Path:
    return SOURCE_DIR


@pytest.fixture(scope="module")
def mbdae_exe() -> pathlib.Path:
    if not MBDAE_EXE.exists():
        pytest.fail(f"the mbdae command is not built: {MBDAE_EXE}")
    return MBDAE_EXE
