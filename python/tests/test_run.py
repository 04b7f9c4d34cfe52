"""Runs: the result's arrays, failures with partial results, Ctrl-C and host-loop stepping."""

import math
import os
import signal
import threading

import numpy as np
import pytest

import mbdae
from test_cli_identity import assert_identical, run_command


@pytest.fixture(scope="module")
def slider_crank(source_dir):
    return mbdae.load(source_dir / "examples/models/slider_crank.yaml")


def test_result_columns_sensors_and_units(slider_crank):
    r = slider_crank.run(end_time=0.5)
    # Rows at 0, 0.01, ..., 0.5 (output.every 0.01 in the file).
    assert len(r) == 51
    assert r.time[0] == 0 and r.time[-1] == 0.5
    assert np.allclose(np.diff(r.time), 0.01, rtol=1e-9)
    assert r.columns[:4] == ["time", "slider.x", "slider.y", "slider.z"]
    slider = r["slider"]
    assert slider.shape == (51, 3)
    assert np.array_equal(slider[:, 0], r["slider.x"])
    assert np.shares_memory(slider, r.data)
    assert r.unit("slider.x") == "m" and r.unit("crank_omega.z") == "rad/s"
    assert r.unit("guide_force.y") == "N" and r.unit("energy") == "J"
    # The slider moves on the x axis only (prismatic guide along x, docs of the model).
    assert np.all(np.abs(r["slider.y"]) < 1e-9)
    assert r.stats["steps"] == 500  # fixed step 1e-3 over 0.5 s
    assert r.stats["wall_time"] > 0
    with pytest.raises(KeyError):
        r["no_such_sensor"]
    assert not r.data.flags.writeable


def test_to_pandas(slider_crank):
    pd = pytest.importorskip("pandas")
    df = slider_crank.run(end_time=0.1).to_pandas()
    assert isinstance(df, pd.DataFrame) and df.index.name == "time"
    assert list(df.columns)[0] == "slider.x"


def test_plot(slider_crank):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    ax = slider_crank.run(end_time=0.1).plot(["slider.x", "crank_omega"])
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["slider.x [m]", "crank_omega.x [rad/s]", "crank_omega.y [rad/s]",
                      "crank_omega.z [rad/s]"]


def test_solver_failure_carries_partial_result(source_dir, mbdae_exe, tmp_path):
    # The torque is NaN after t = 0.5 s: the run fails there, rows at 0, 0.01, ..., 0.5 kept.
    model = source_dir / "tests/bad_models/midrun/nan_torque_after_half_second.yaml"
    with pytest.raises(mbdae.SolverError) as info:
        mbdae.load(model).run()
    r = info.value.result
    assert r.status == "residual_failure" and not r.ok
    assert len(r) == 51 and r.time[-1] == 0.5
    assert "t = 0.5" in str(info.value)
    # The same rows as the command's partial CSV (which exits with 3, a solver failure).
    rc, header, expected = run_command(mbdae_exe, model, tmp_path / "out.csv")
    assert rc == 3
    assert_identical(header, expected, r)


def test_ctrl_c_stops_the_run_and_keeps_its_rows(slider_crank):
    # A run far too long to finish; SIGINT to this process after 1 s.
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as info:
            slider_crank.run(end_time=1e5, output_every=1.0)
    finally:
        timer.cancel()
    r = info.value.result
    assert r.status == "interrupted"
    assert 0 < r.t_reached < 1e5
    assert len(r) >= 1 and r.time[-1] <= r.t_reached
    # Python's own handler is back: the next SIGINT is an ordinary KeyboardInterrupt.
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            math.sqrt(2.0)


def test_ctrl_c_stops_advance_to(slider_crank):
    # advance_to far ahead; SIGINT after 1 s stops it between steps (it used to run on for 20 s).
    sim = slider_crank.integrator(end_time=1e5)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sim.advance_to(1e5)
    finally:
        timer.cancel()
    assert sim.status == "interrupted"
    assert 0 < sim.time < 1e5
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_skips_a_slow_python_load(slider_crank):
    # A Python load is not called again once Ctrl-C is pressed (a slow one held the run for every
    # call the step still made). The load presses Ctrl-C itself on its 50th call, in the middle of
    # a step's Newton iterations; the calls after it are counted.
    calls = {"before": 0, "after": 0}
    pressed = []

    def torque(t):
        calls["after" if pressed else "before"] += 1
        if calls["before"] == 50 and not pressed:
            os.kill(os.getpid(), signal.SIGINT)
            pressed.append(t)
        return (0.0, 0.0, 1.0)

    with pytest.raises(KeyboardInterrupt):
        slider_crank.run(end_time=10.0, output_every=1.0, loads={"motor": torque})
    assert calls["before"] == 50
    assert calls["after"] == 0


def test_host_loop_reproduces_the_run(slider_crank):
    # Stepping to the output times from Python is the run loop's own sequence of advance_to calls:
    # the sensor values must equal the run's rows exactly.
    r = slider_crank.run(end_time=0.3)
    sim = slider_crank.integrator(end_time=0.3)
    assert sim.columns == r.columns[1:]
    assert sim.time == 0.0
    assert np.array_equal(sim.sensor_values(), r.data[0, 1:])
    for k in range(1, len(r)):
        sim.advance_to(r.time[k])
        assert sim.time == r.time[k]
        values = sim.sensor_values()
        same = (values == r.data[k, 1:]) | (np.isnan(values) & np.isnan(r.data[k, 1:]))
        assert same.all(), k
    assert sim.sensors()["slider.x"] == r["slider.x"][-1]
    q, v = sim.q, sim.v
    assert q.ndim == 1 and v.ndim == 1 and q.size >= v.size > 0
    q[:] = 0  # a copy: the integrator's state is unchanged
    assert not np.array_equal(sim.q, q)


def test_host_loop_failure_raises_solver_error(source_dir):
    sim = mbdae.load(source_dir / "tests/bad_models/midrun/nan_torque_after_half_second.yaml").integrator()
    sim.advance_to(0.5)
    with pytest.raises(mbdae.SolverError):
        sim.advance_to(0.6)
    assert sim.time == pytest.approx(0.5, abs=1e-3)
