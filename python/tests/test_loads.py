"""Python callables as forces and torques, and host-set inputs."""

import math

import numpy as np
import pytest

import mbdae


@pytest.fixture(scope="module")
def slider_crank(source_dir):
    return mbdae.load(source_dir / "examples/models/slider_crank.yaml")


def test_callable_equals_the_same_law_as_an_expression(slider_crank):
    # The file's motor torque is the expression "t < 0.5 ? 3 : 0" (N m about z).
    expression = slider_crank.run()
    python = slider_crank.run(loads={"motor": lambda t: (0.0, 0.0, 3.0 if t < 0.5 else 0.0)})
    np.testing.assert_allclose(python.data, expression.data, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("solver", ["generalized_alpha", "ida", "rk4"])
def test_smooth_callable_equals_expression_on_every_path(slider_crank, solver):
    law = "2 * sin(3 * t) + 0.5"
    expression = slider_crank.run(solver=solver, end_time=1.0,
                                  set={"forces[0].value": [0, 0, law]})
    python = slider_crank.run(solver=solver, end_time=1.0,
                              loads={"motor": lambda t: (0, 0, 2 * math.sin(3 * t) + 0.5)})
    np.testing.assert_allclose(python.data, expression.data, rtol=1e-12, atol=1e-12)


def test_exception_in_callable_is_a_solver_error_naming_it(slider_crank):
    with pytest.raises(mbdae.SolverError, match="ZeroDivisionError"):
        slider_crank.run(end_time=0.1, loads={"motor": lambda t: (0, 0, 1 / 0)})
    with pytest.raises(mbdae.SolverError, match="3 numbers"):
        slider_crank.run(end_time=0.1, loads={"motor": lambda t: (0, 0)})


def test_bad_load_arguments(slider_crank):
    with pytest.raises(KeyError, match="no force, torque or joint_motor named 'nothing'"):
        slider_crank.run(loads={"nothing": lambda t: (0, 0, 0)})
    with pytest.raises(TypeError):
        slider_crank.run(loads={"motor": 3.0})
    with pytest.raises(KeyError):
        slider_crank.integrator(inputs=["nothing"])


def test_input_set_by_the_host_equals_the_constant_in_the_file(slider_crank):
    # A host holding the motor at 2 N m from the start gives the rows of the file's torque set to
    # 2 N m (the file's own law is 3 N m for 0.5 s).
    expected = slider_crank.run(end_time=0.5, set={"forces[0].value": [0, 0, 2]})
    sim = slider_crank.integrator(end_time=0.5, inputs={"motor": [0, 0, 2]})
    for k in range(1, len(expected)):
        sim.advance_to(expected.time[k])
        assert np.array_equal(sim.sensor_values(), expected.data[k, 1:], equal_nan=True), k
    with pytest.raises(KeyError):
        sim.set_input("guide", [0, 0, 0])
    # Set between steps, the input changes the motion from then on.
    sim.set_input("motor", [0, 0, -5])
    omega = sim.sensors()["crank_omega.z"]
    sim.advance_to(0.6)
    assert sim.sensors()["crank_omega.z"] < omega


def test_reading_an_integrator_while_another_thread_steps_it(slider_crank):
    # The stepping thread holds the integrator and takes the GIL for the Python torque; this thread
    # reads the integrator meanwhile. Both must make progress (no lock-order deadlock).
    import threading

    sim = slider_crank.integrator(loads={"motor": lambda t: (0.0, 0.0, 3.0 if t < 0.5 else 0.0)})
    worker = threading.Thread(target=sim.advance_to, args=(1.0,))
    worker.start()
    reads = 0
    while worker.is_alive():
        assert 0.0 <= sim.time <= 1.0 and sim.q.size > 0
        reads += 1
    worker.join()
    assert sim.time == 1.0 and reads > 0


# ------------------------------------------------------------------ callables of named quantities

@pytest.mark.parametrize("solver", ["generalized_alpha", "ida", "rk4"])
def test_callable_of_quantities_equals_the_same_law_as_an_expression(slider_crank, solver):
    # A torque-speed law with a slider-position and a slider-speed term: the model file's
    # expression of the named quantities against a Python callable of the same quantities. Both
    # apply the same operations in the same order (muParser's optimizer rewrites some others,
    # e.g. a division by a constant), so the runs agree to the last bit on every path.
    law = "7 - 0.15*rate(main_bearing) - 5*x(slider) - 0.1*speed(guide)"
    expression = slider_crank.run(solver=solver, end_time=1.0, set={"forces[0].value": [0, 0, law]})

    def torque(t, w, x, v):
        return (0.0, 0.0, 7 - 0.15 * w - 5 * x - 0.1 * v)

    python = slider_crank.run(solver=solver, end_time=1.0,
                              loads={"motor": (torque, ["rate(main_bearing)", "x(slider)", "speed(guide)"])})
    assert np.all(np.isfinite(python.data))
    assert abs(python["crank_omega"][-1, 2]) > 1.0  # it turned
    np.testing.assert_allclose(python.data, expression.data, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("solver", ["generalized_alpha", "rk4"])
def test_callable_of_sensors_equals_the_same_law_as_an_expression(slider_crank, solver):
    # The crank's angular velocity and the slider's position read through their sensors,
    # sensor(crank_omega).z and sensor(slider).x: the file's expression against a callable.
    law = "7 - 0.15*sensor(crank_omega).z - 5*sensor(slider).x"
    expression = slider_crank.run(solver=solver, end_time=1.0, set={"forces[0].value": [0, 0, law]})

    def torque(t, w, x):
        return (0.0, 0.0, 7 - 0.15 * w - 5 * x)

    python = slider_crank.run(solver=solver, end_time=1.0,
                              loads={"motor": (torque, ["sensor(crank_omega).z", "sensor(slider).x"])})
    assert abs(python["crank_omega"][-1, 2]) > 1.0  # it turned
    np.testing.assert_allclose(python.data, expression.data, rtol=1e-12, atol=1e-12)
    f = lambda t, q: (0, 0, q)  # noqa: E731
    with pytest.raises(ValueError, match="quantity of the whole system"):
        slider_crank.run(loads={"motor": (f, ["sensor(energy)"])})
    with pytest.raises(ValueError, match="unknown sensor 'nothing'"):
        slider_crank.run(loads={"motor": (f, ["sensor(nothing).x"])})


def test_callable_of_quantities_refuses_bad_names(slider_crank):
    f = lambda t, q: (0, 0, q)  # noqa: E731
    with pytest.raises(ValueError, match="unknown joint 'nothing'"):
        slider_crank.run(loads={"motor": (f, ["rate(nothing)"])})
    with pytest.raises(ValueError, match="angle\\(\\) applies to revolute and cylindrical joints; 'guide' is prismatic"):
        slider_crank.run(loads={"motor": (f, ["angle(guide)"])})
    with pytest.raises(ValueError, match="unknown quantity"):
        slider_crank.run(loads={"motor": (f, ["temperature(crank)"])})
    with pytest.raises(TypeError):
        slider_crank.run(loads={"motor": (f, "rate(main_bearing)")})
    with pytest.raises(mbdae.SolverError, match="3 numbers"):
        slider_crank.run(end_time=0.1, loads={"motor": (lambda t, w: (0, w), ["rate(main_bearing)"])})


def test_joint_motor_as_a_host_loop_input(source_dir):
    # The PD arm's motor driven by the host at a constant 0.5 N m from rest gives the rows of the
    # file's motor value set to 0.5, and the angle of a constant torque on J = 0.1670833 kg m^2
    # (gravity acts along the hinge): theta = u t^2 / (2 J).
    arm = mbdae.load(source_dir / "examples/models/pd_controlled_arm.yaml")
    expected = arm.run(end_time=0.5, set={"forces[0].value": 0.5})
    sim = arm.integrator(end_time=0.5, inputs={"motor": 0.5})
    for k in range(1, len(expected)):
        sim.advance_to(expected.time[k])
        assert np.array_equal(sim.sensor_values(), expected.data[k, 1:], equal_nan=True), k
    J = 2.0 * (0.5**2 + 0.05**2) / 12 + 2.0 * 0.25**2
    assert sim.sensors()["angle"] == pytest.approx(0.5 * 0.5**2 / (2 * J), rel=1e-6)
    with pytest.raises(TypeError, match="one number"):
        sim.set_input("motor", [0, 0, 1])
    # A list of names: the motor starts at 0 N m (the arm stays at rest) until the host sets it.
    sim = arm.integrator(end_time=0.5, inputs=["motor"])
    sim.advance_to(0.1)
    assert sim.sensors()["angle"] == 0.0
    sim.set_input("motor", -1.0)
    sim.advance_to(0.2)
    s = sim.sensors()
    assert s["motor.effort"] == -1.0
    # The work of the motor is the arm's kinetic energy (no other force does work about the hinge);
    # 1e-6: generalized-alpha on the index-3 form holds the velocity constraints to O(h^2) only.
    assert s["energy"] == pytest.approx(0.5 * J * s["angle.rate"] ** 2, rel=1e-6)
    assert s["angle"] < 0 and s["angle.rate"] < 0
