"""The inertia helpers (mbdae.Inertia, C++ RigidBodyInertia) against closed forms, and a body built
from them in a model."""

import math

import numpy as np
import pytest

import mbdae


def test_box_cylinder_sphere_closed_forms():
    m, a, b, c = 2.0, 0.3, 0.2, 0.1
    box = mbdae.Inertia.box(m, a, b, c)
    assert box.mass == m
    assert box.com == [0, 0, 0]
    assert box.inertia == pytest.approx([m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                                         m * (a * a + b * b) / 12, 0, 0, 0], rel=1e-14, abs=1e-16)
    r, L = 0.05, 0.4
    cyl = mbdae.Inertia.cylinder(m, r, L, [0, 0, 1])
    side = m * (3 * r * r + L * L) / 12
    assert cyl.inertia == pytest.approx([side, side, m * r * r / 2, 0, 0, 0], rel=1e-14, abs=1e-16)
    s = mbdae.Inertia.sphere(m, r)
    assert s.inertia == pytest.approx([0.4 * m * r * r] * 3 + [0, 0, 0], rel=1e-14, abs=1e-16)


def test_combine_and_translate_follow_the_parallel_axis_theorem():
    m, d = 0.5, 0.2
    pair = mbdae.Inertia.point_mass(m, [d, 0, 0]) + mbdae.Inertia.point_mass(m, [-d, 0, 0])
    assert pair.mass == 2 * m
    assert pair.com == pytest.approx([0, 0, 0], abs=1e-16)
    assert pair.inertia == pytest.approx([0, 2 * m * d * d, 2 * m * d * d, 0, 0, 0], abs=1e-15)
    # A sphere moved by (0, 0.3, 0): about the reference point Jxx, Jzz grow by m 0.3^2.
    s = mbdae.Inertia.sphere(1.0, 0.1).translated([0, 0.3, 0])
    assert s.com == pytest.approx([0, 0.3, 0])
    assert s.inertia_com == pytest.approx([0.004, 0.004, 0.004, 0, 0, 0], rel=1e-14, abs=1e-16)
    assert s.inertia == pytest.approx([0.004 + 0.09, 0.004, 0.004 + 0.09, 0, 0, 0], rel=1e-14, abs=1e-16)
    # Rotated by 90 degrees about z: the x and y moments of a box swap.
    R = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
    box = mbdae.Inertia.box(1.0, 0.3, 0.2, 0.1)
    rb = box.rotated(R)
    assert rb.inertia[:3] == pytest.approx([box.inertia[1], box.inertia[0], box.inertia[2]], rel=1e-14)


def test_a_body_from_the_helpers_runs_as_the_same_numbers_given_by_hand():
    # A physical pendulum: a rod (a box) on a pivot at one end, small oscillations at
    # omega^2 = m g (L/2) / (m L^2 / 3) = 3 g / (2 L).
    m_, L, g = 2.0, 0.8, 9.81
    rod = mbdae.Inertia.box(m_, 0.02, L, 0.02)
    b = mbdae.new_model(name="rod", gravity=[0, -g, 0])
    b.add_body(name="rod", position=[0, -L / 2, 0], **mbdae.inertia_keys(rod))
    b.add_joint(name="pivot", type="revolute", bodies=["ground", "rod"], point=[0, 0, 0], axis=[0, 0, 1])
    b.set_solver(type="generalized_alpha", end_time=1.0)
    f = b.modes()["frequency_hz"][0]
    Jz = m_ * (0.02 ** 2 + L ** 2) / 12 + m_ * (L / 2) ** 2
    assert f == pytest.approx(math.sqrt(m_ * g * L / 2 / Jz) / (2 * math.pi), rel=1e-8)
    assert np.isfinite(f)
