"""Model.check(): mobility, redundant equations and mass properties as data."""

import numpy as np

import mbdae


def test_slider_crank(source_dir):
    c = mbdae.load(source_dir / "examples/models/slider_crank.yaml").check()
    # The file's comment: 5 + 5 + 2 + 5 = 17 equations for 3 bodies, one degree of freedom, no
    # redundancy.
    assert c["bodies"] == 3 and c["joint_equations"] == 17
    assert c["grubler"] == 18 - 17 == c["mobility"] == 1
    assert c["redundant"] == []
    assert c["total_mass"] == 0.5 + 1.0 + 2.0
    # A solid box a x b x c of mass m: moments m (b² + c²) / 12, ... about its centre.
    crank = c["mass_properties"][0]
    m, (a, b, h) = 0.5, (0.2, 0.03, 0.02)
    expected = sorted([m * (b * b + h * h) / 12, m * (a * a + h * h) / 12, m * (a * a + b * b) / 12])
    assert crank["name"] == "crank" and crank["mass"] == m
    np.testing.assert_allclose(crank["principal_moments"], expected, rtol=1e-12)


def test_bricard_is_overconstrained_with_one_degree_of_freedom(source_dir):
    # The Bricard linkage: a closed loop of 6 revolute joints (5 moving bodies, 30 equations):
    # Grübler's count 0, yet it moves with one degree of freedom; one equation is redundant.
    c = mbdae.load(source_dir / "examples/models/bricard.yaml").check()
    assert c["grubler"] == 0
    assert c["mobility"] == 1
    assert len(c["redundant"]) == 1
