"""A joint_motor's effort from a Python callable of time and its own joint's quantities.

The PD-controlled arm (examples/models/pd_controlled_arm.yaml) has the motor law
u = -50 (angle - 0.5) - 2 rate in the model file; the same law as a Python callable must give the
same motion to round-off on every path, and the motor's own sensor output must read the callable's
value at each row's state.
"""

import numpy as np
import pytest

import mbdae


@pytest.fixture(scope="module")
def arm(source_dir):
    return mbdae.load(source_dir / "examples/models/pd_controlled_arm.yaml")


def pd(t, angle, rate):
    return -50.0 * (angle - 0.5) - 2.0 * rate


@pytest.mark.parametrize("solver", ["generalized_alpha", "trapezoidal_index2", "rk4", "dopri5"])
def test_callable_motor_equals_the_file_law(arm, solver):
    expression = arm.run(solver=solver, end_time=2.0)
    python = arm.run(solver=solver, end_time=2.0, loads={"motor": (pd, ["angle()", "rate(hinge)"])})
    assert python.columns == expression.columns
    # Round-off only: the parser and Python may order the operations differently.
    np.testing.assert_allclose(python.data, expression.data, rtol=0, atol=1e-9)
    # The motor's sensor output is the callable's value at the row's state (closed form of the law).
    u = pd(python.time, python["angle"], python["angle.rate"])
    np.testing.assert_allclose(python["motor.effort"], u, rtol=0, atol=1e-9)


def test_callable_motor_on_ida_within_its_tolerance(arm):
    # IDA chooses its steps and Jacobian updates from error estimates: a last-bit difference of the
    # law (parser vs Python) changes those choices, so the two runs agree to the error tolerance,
    # not to round-off (rtol 1e-6: 2e-5 on the effort column of magnitude 25; 1e-10: 3e-8).
    tol = {"relative": 1e-10, "absolute": 1e-12}
    expression = arm.run(solver="ida", end_time=2.0, tolerance=tol)
    python = arm.run(solver="ida", end_time=2.0, tolerance=tol, loads={"motor": (pd, ["angle()", "rate()"])})
    np.testing.assert_allclose(python.data, expression.data, rtol=0, atol=1e-6)
    u = pd(python.time, python["angle"], python["angle.rate"])
    np.testing.assert_allclose(python["motor.effort"], u, rtol=0, atol=1e-9)


def test_callable_of_time_only(arm):
    # A constant torque of 3 N m as a callable of t equals the file's law replaced by 3.
    expected = arm.run(solver="rk4", end_time=0.5, set={"forces[0].value": 3})
    python = arm.run(solver="rk4", end_time=0.5, loads={"motor": lambda t: 3.0})
    assert np.array_equal(python.data, expected.data, equal_nan=True)


def test_motor_callable_refusals(arm):
    with pytest.raises(ValueError, match="own joint"):
        arm.run(end_time=0.1, loads={"motor": (pd, ["angle(other)"])})
    with pytest.raises(ValueError, match="own joint"):
        arm.run(end_time=0.1, loads={"motor": (pd, ["x(arm)"])})
    with pytest.raises(TypeError):
        arm.run(end_time=0.1, loads={"motor": 3.0})
    with pytest.raises(mbdae.SolverError, match="one number"):
        arm.run(end_time=0.1, loads={"motor": lambda t: (1.0, 2.0)})
    with pytest.raises(mbdae.SolverError, match="ZeroDivisionError"):
        arm.run(end_time=0.1, loads={"motor": lambda t: 1 / 0})
