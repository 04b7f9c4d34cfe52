"""Setting an integrator's state from Python (Integrator.set_state), checked against closed forms:
a ball in free flight continues on the parabola from the state it was given, and a pendulum given a
velocity its joint forbids keeps only the admissible part (the impulse of the joint)."""

import math

import numpy as np
import pytest

import mbdae

G = 9.81


def ball():
    m = mbdae.new_model(name="ball", gravity=[0, 0, -G])
    m.add_body(name="ball", mass=2.0, shape={"sphere": 0.1})
    m.add_sensor(name="p", body="ball", output="position")
    m.add_sensor(name="v", body="ball", output="velocity")
    m.set_solver(type="generalized_alpha", end_time=2.0, step=1e-3)
    return m.build()


@pytest.mark.parametrize("solver", ["generalized_alpha", "ida", "trapezoidal_index2", "rk4", "dopri5", "impulse"])
def test_ball_continues_on_the_parabola_from_the_state_it_was_given(solver):
    sim = ball().integrator(solver=solver)
    sim.advance_to(0.3)
    q, v = sim.q, sim.v
    p1, u = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 4.0])
    q[0:3], v[0:3] = p1, u  # the reference point's position and velocity come first on every path
    dq, dv = sim.set_state(q, v)
    assert dq == 0 and dv == 0  # nothing to make consistent: no joint, unit Euler parameters
    assert sim.time == 0.3
    sim.advance_to(0.8)
    tau = 0.5
    s = sim.sensors()
    v_exact = u + np.array([0, 0, -G * tau])
    p_exact = p1 + u * tau + 0.5 * np.array([0, 0, -G]) * tau**2
    tol = 1e-5 if solver in ("ida", "dopri5") else 1e-10
    assert np.max(np.abs(np.array([s["v.x"], s["v.y"], s["v.z"]]) - v_exact)) < tol
    # The impulse stepper's position update (symplectic Euler) is first order in the step.
    ptol = 0.5 * G * tau * 1e-3 * 1.01 if solver == "impulse" else tol
    assert np.max(np.abs(np.array([s["p.x"], s["p.y"], s["p.z"]]) - p_exact)) < ptol


@pytest.mark.parametrize("solver", ["generalized_alpha", "ida", "trapezoidal_index2", "rk4"])
def test_a_forbidden_velocity_is_removed_by_the_joint_impulse(source_dir, solver):
    # The bob (1 kg, 1 m from the pivot) is given an extra radial velocity of 0.3 m/s. The joint's
    # impulse acts along the link through the centre of mass: it removes exactly that component
    # and leaves the rest, so |dv| = 0.3 and the energy is that of the state before.
    m = mbdae.load(source_dir / "examples/models/simple_pendulum.yaml")
    sim = m.integrator(solver=solver)
    sim.advance_to(0.5)
    # First the state as it is: on the constraints up to the solver's drift, which the projection
    # removes (index-3 generalized-alpha holds the velocity constraint to O(h^2) only, the index-2
    # trapezoidal rule the position constraint).
    dq0, dv0 = sim.set_state(sim.q, sim.v)
    assert dq0 < 1e-5 and dv0 < 1e-4
    before = sim.sensors()
    q, v = sim.q, sim.v
    r = np.array([before["bob.x"], before["bob.y"], before["bob.z"]])
    v[0:3] += 0.3 * r / np.linalg.norm(r)
    dq, dv = sim.set_state(q, v)
    assert dq < 1e-12
    assert dv == pytest.approx(0.3, abs=1e-9)
    after = sim.sensors()
    assert after["E"] == pytest.approx(before["E"], abs=1e-9)
    sim.advance_to(1.0)
    # Held by the solver after the restart (the index-2 rule lets positions drift at O(h^2)).
    assert abs(sim.sensors()["C.position"]) < (1e-5 if solver == "trapezoidal_index2" else 1e-8)


def test_set_state_refusals():
    sim = ball().integrator(solver="rk4")
    with pytest.raises(ValueError, match="expected 7 positions and 6 velocities"):
        sim.set_state([0.0] * 7, [0.0] * 7)
    with pytest.raises(ValueError, match="non-finite"):
        sim.set_state([math.nan] + [0.0] * 6, [0.0] * 6)
    with pytest.raises(ValueError, match="Lie group"):
        ball().integrator(solver="lie_rk4").set_state([0.0] * 6, [0.0] * 6)
