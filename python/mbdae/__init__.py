"""mbdae: multibody simulation with DAE solvers, from Python.

    import mbdae
    m = mbdae.load("slider_crank.yaml", set={"solver.type": "ida"})
    r = m.run(end_time=2, step=1e-3)         # keywords override the model file's solver settings
    r.time, r["slider.x"], r["slider"]      # numpy arrays (views into one array, no copy)

Units are SI throughout (s, m, rad, kg, N, N m, J). Runs are computed in C++ with the GIL
released: runs in several Python threads use several cores. Ctrl-C stops a run started from the
main thread between two steps; KeyboardInterrupt then carries the rows so far as ``.result``.
"""

from __future__ import annotations

import json as _json
import signal as _signal
import threading as _threading
import warnings as _warnings

from . import _mbdae
from ._errors import ModelError, SolverError
from ._result import Result, overlay
from ._version import __version__

for _cls in (ModelError, SolverError, Result):
    _cls.__module__ = __name__

__all__ = ["load", "new_model", "Model", "ModelBuilder", "Result", "Integrator", "ModelError", "SolverError",
           "Inertia", "inertia_keys", "overlay", "__version__"]

#: A body's mass, COM and inertia (C++ ``RigidBodyInertia``): ``Inertia.box(mass, lx, ly, lz)``,
#: ``Inertia.cylinder(mass, radius, length, axis)``, ``Inertia.sphere(mass, radius)``,
#: ``Inertia.point_mass(mass, position)``; ``a + b`` combines two bodies given in the same frame,
#: ``translated(d)`` and ``rotated(R)`` move one. ``mass`` (kg), ``com`` (m), ``inertia``
#: ([Jxx, Jyy, Jzz, Jyz, Jxz, Jxy] about the reference point, kg m^2, the model format's
#: ``inertia``), ``inertia_com``; ``add_body(name=..., **inertia_keys(i))`` uses it.
Inertia = _mbdae.Inertia
Inertia.__module__ = __name__


def inertia_keys(inertia) -> dict:
    """The body keys ``mass``, ``inertia`` and ``com`` of an :class:`Inertia`, for ``add_body``."""
    return {"mass": inertia.mass, "inertia": list(inertia.inertia), "com": list(inertia.com)}

# Keywords of Model.run() and Model.integrator() and the model-file keys they set.
_SETTINGS = {
    "solver": "solver.type",
    "end_time": "solver.end_time",
    "step": "solver.step",
    "rho_inf": "solver.rho_inf",
    "formulation": "solver.formulation",
    "tolerance": "solver.tolerance",
    "adaptive": "solver.adaptive",
    "linear_solver": "solver.linear_solver",
    "projection": "solver.projection",
    "pgs_iterations": "solver.pgs_iterations",
    "pgs_tolerance": "solver.pgs_tolerance",
    "friction_model": "solver.friction_model",
    "output_every": "output.every",
}


def _yaml(value, nested: bool = False) -> str:
    """A Python value as the YAML text of an override (floats with round-trip digits).

    A string on its own is passed as written (YAML text, e.g. "[0, 0, 1]"); strings inside a
    list or dict are quoted.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_yaml(str(k), True)}: {_yaml(v, True)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml(v, True) for v in value) + "]"
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _yaml(value.tolist(), nested)
    return _json.dumps(str(value)) if nested else str(value)


def _overrides(set_, settings) -> list[tuple[str, str]]:
    out = [(str(k), _yaml(v)) for k, v in (set_ or {}).items()]
    for k, v in settings.items():
        if k not in _SETTINGS:
            raise TypeError(f"unknown setting {k!r}; known: {', '.join(_SETTINGS)} "
                            "(any other model-file key: set={'key.path': value})")
        out.append((_SETTINGS[k], _yaml(v)))
    return out


def load(path, set: dict | None = None) -> "Model":
    """Reads and checks a model file (YAML or JSON, docs/model-format.md), or imports a robot
    description (``.urdf``, docs/import.md; the elements it does not map are ``UserWarning``s).

    ``set``: overrides as the command's ``--set key=value``, e.g. ``{"solver.type": "ida",
    "bodies[0].mass": 3}`` (values are Python numbers, strings, lists, dicts).

    Raises :class:`ModelError` listing every problem with file, line, column and key.
    """
    path = str(path)
    overrides = _overrides(set, {})
    return Model(_mbdae.load(path, overrides), path, overrides)


def _plain(value):
    """A value of the model builder as plain JSON data (numpy arrays and scalars as lists, numbers)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return _plain(value.tolist())
    return value


class ModelBuilder:
    """A model built in Python with the names and keys of the model file (docs/model-format.md).

        m = mbdae.new_model(name="pendulum", gravity=[0, -9.81, 0])
        m.add_body(name="rod", mass=1.0, shape={"box": [1.0, 0.05, 0.05]}, position=[0.5, 0, 0])
        m.add_joint(name="pivot", type="revolute", bodies=["ground", "rod"], point=[0, 0, 0], axis=[0, 0, 1])
        m.add_sensor(name="tip", body="rod", point=[0.5, 0, 0], output="position")
        m.set_solver(type="generalized_alpha", end_time=2.0, step=1e-3)
        r = m.run()                  # or m.build() for a Model; m.check(), m.statics(), ...

    Each ``add_*`` appends one item of the section of that name with the keys given (values:
    numbers, strings such as expressions of t, lists, dicts, numpy arrays) and returns its index.
    The model is checked when it is built, by the same loader as a model file: every problem is
    reported at once as :class:`ModelError` with its key path (``bodies[0].mass``) and the line
    of the item in the model's JSON text (:meth:`text`).
    """

    _SECTIONS = ("bodies", "joints", "shafts", "shaft_forces", "couplings", "states", "forces", "contacts",
                 "sensors")

    def __init__(self, **top):
        self._doc = {k: _plain(v) for k, v in top.items()}

    def _add(self, section, keys):
        items = self._doc.setdefault(section, [])
        items.append(_plain(keys))
        return len(items) - 1

    def add_body(self, **keys) -> int:
        """A body: ``name``, ``mass`` (kg), ``inertia`` or ``shape``, ``position`` (m), ..."""
        return self._add("bodies", keys)

    def add_joint(self, **keys) -> int:
        """A joint: ``name``, ``type``, ``bodies`` ([a, b]), ``point`` (m, world, t0), its type's keys."""
        return self._add("joints", keys)

    def add_force(self, **keys) -> int:
        """A load (``type: force`` or ``torque``) or a force element (``spring_damper``, ...)."""
        return self._add("forces", keys)

    def add_contact(self, **keys) -> int:
        """A contact shape or pair (see the model format's ``contacts``)."""
        return self._add("contacts", keys)

    def add_sensor(self, **keys) -> int:
        """A sensor: ``name``, ``output`` and its ``body``, ``joint`` or none."""
        return self._add("sensors", keys)

    def add_coupling(self, **keys) -> int:
        """A coupling of joints or shafts (``type``: ``gear``, ``rack_pinion``, ``belt``, ...;
        ``joints``, ``ratio``): see the model format's ``couplings``."""
        return self._add("couplings", keys)

    def add_state(self, **keys) -> int:
        """A controller state: ``name``, ``derivative`` (an expression of t and the state),
        ``initial``: see the model format's ``states``."""
        return self._add("states", keys)

    def add_shaft(self, **keys) -> int:
        """A 1-D rotor: ``name``, ``inertia`` (kg m^2), ``angle``, ``speed``: see ``shafts``."""
        return self._add("shafts", keys)

    def add_shaft_force(self, **keys) -> int:
        """A spring-damper or load between shafts: see the model format's ``shaft_forces``."""
        return self._add("shaft_forces", keys)

    def set_solver(self, **keys) -> None:
        """The ``solver`` section's keys (``type``, ``end_time`` s, ``step`` s, ...), merged."""
        self._doc.setdefault("solver", {}).update(_plain(keys))

    def set_output(self, **keys) -> None:
        """The ``output`` section's keys (``every`` s, ...), merged."""
        self._doc.setdefault("output", {}).update(_plain(keys))

    def text(self) -> str:
        """The model as the JSON text the loader reads: top-level keys, then one line per item."""
        lines = ["{"]
        keys = [k for k in self._doc if k not in self._SECTIONS] + [k for k in self._SECTIONS if k in self._doc]
        for i, k in enumerate(keys):
            comma = "," if i + 1 < len(keys) else ""
            v = self._doc[k]
            if k in self._SECTIONS:
                lines.append(f"  {_json.dumps(k)}: [")
                for j, item in enumerate(v):
                    lines.append("    " + _json.dumps(item) + ("," if j + 1 < len(v) else ""))
                lines.append("  ]" + comma)
            else:
                lines.append(f"  {_json.dumps(k)}: {_json.dumps(v)}{comma}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def build(self, set: dict | None = None) -> "Model":
        """Checks the model and returns it as a :class:`Model` (raises :class:`ModelError`)."""
        name = "<model " + str(self._doc.get("name", "built in Python")) + ">"
        overrides = _overrides(set, {})
        text = self.text()
        return Model(_mbdae.load_text(text, name, overrides), name, overrides, text)

    def check(self) -> dict:
        """:meth:`Model.check` of the built model."""
        return self.build().check()

    def run(self, **kwargs) -> Result:
        """:meth:`Model.run` of the built model (the same keywords)."""
        return self.build().run(**kwargs)

    def statics(self, **kwargs) -> dict:
        """:meth:`Model.statics` of the built model."""
        return self.build().statics(**kwargs)

    def modes(self, **kwargs) -> dict:
        """:meth:`Model.modes` of the built model."""
        return self.build().modes(**kwargs)

    def kinematics(self, **kwargs) -> Result:
        """:meth:`Model.kinematics` of the built model."""
        return self.build().kinematics(**kwargs)

    def inverse(self, **kwargs) -> Result:
        """:meth:`Model.inverse` of the built model."""
        return self.build().inverse(**kwargs)

    def integrator(self, **kwargs) -> "Integrator":
        """:meth:`Model.integrator` of the built model."""
        return self.build().integrator(**kwargs)


def new_model(**top) -> ModelBuilder:
    """An empty :class:`ModelBuilder`; keywords are top-level keys of the model format
    (``name``, ``description``, ``gravity``, ``contact_penalty``)."""
    return ModelBuilder(**top)


class Model:
    """A loaded model file (or a model built in Python): its bodies, joints, sensors and solver
    settings."""

    def __init__(self, loaded, path: str, overrides: list[tuple[str, str]], text: str | None = None):
        self._loaded = loaded
        self._path = path
        self._overrides = overrides
        self._text = text

    file = property(lambda self: self._loaded.file, doc="the model file as given")
    name = property(lambda self: self._loaded.name, doc="the model's name")
    description = property(lambda self: self._loaded.description)
    solver = property(lambda self: self._loaded.solver, doc="solver type of the model file")
    end_time = property(lambda self: self._loaded.end_time, doc="end time, s")
    step = property(lambda self: self._loaded.step, doc="step (first step of adaptive solvers), s")
    output_every = property(lambda self: self._loaded.output_every, doc="output interval, s")
    bodies = property(lambda self: list(self._loaded.bodies), doc="body names")
    joints = property(lambda self: list(self._loaded.joints), doc="joint names")
    sensors = property(lambda self: list(self._loaded.sensors), doc="sensor names")

    def _with(self, set_, settings):
        extra = _overrides(set_, settings)
        if not extra:
            return self._loaded
        if self._text is not None:
            return _mbdae.load_text(self._text, self._path, self._overrides + extra)
        return _mbdae.load(self._path, self._overrides + extra)

    def check(self) -> dict:
        """What ``mbdae check`` states, as data, at the initial configuration as given.

        Keys: ``bodies`` (moving bodies), ``coordinates``, ``joint_equations``,
        ``velocity_equations``, ``grubler`` (6 bodies - joint equations), ``rank`` (of the
        constraint Jacobian), ``mobility`` (coordinates - rank: the true degrees of freedom),
        ``velocity_dof``, ``redundant`` (labels of the dependent equations, removed before a
        run), ``mass_properties`` (per body: name, mass in kg, com in m in body axes,
        principal_moments about the COM in kg m², ascending) and ``total_mass`` (kg).
        Raises :class:`ModelError` for a model that cannot be formulated.
        """
        return dict(_mbdae.check(self._loaded))

    def statics(self, *, set: dict | None = None, load_steps: int = 1, **settings) -> dict:
        """Static equilibrium (v = 0, a = 0) from the consistent initial state, with the implicit
        formulation (the model's solver must be an implicit one; ``solver=`` to choose one): the
        same analysis as ``mbdae statics`` (docs/analyses.md), gravity and loads ramped over
        ``load_steps`` steps.

        Returns a dict: ``q`` (equilibrium coordinates), ``lambda`` (multipliers), ``sensors``
        ({column: value} at the equilibrium; reactions from its multipliers), ``iterations``,
        ``force_residual`` (N or N m), ``constraint_residual``, ``converged``, ``message``.
        Raises :class:`SolverError` (with the dict as ``result``) if Newton does not converge.
        """
        return self._statics(False, set, settings, load_steps)

    def modes(self, *, at_equilibrium: bool = False, set: dict | None = None, load_steps: int = 1,
              **settings) -> dict:
        """Modes (linearisation and eigenvalues), as ``mbdae modes``: about the initial state by
        default, about the static equilibrium (:meth:`statics`, ``load_steps``) with
        ``at_equilibrium=True`` (``mbdae modes --at-equilibrium``).

        Returns a dict: ``frequency_hz`` (undamped natural frequencies, Hz, ascending),
        ``damped_frequency_hz``, ``damping_ratio`` (numpy arrays, one entry per mode), ``shapes``
        (one coordinate vector per mode, max-norm 1) and ``rigid_body_modes`` (directions without
        stiffness); with ``at_equilibrium`` also the keys of :meth:`statics`, else the state
        (``q``, ``v``, ``lambda``) and whether it is an equilibrium: ``equilibrium``,
        ``unbalanced_force`` (N or N m, the force the constraints leave unbalanced), ``max_speed``
        and ``warning`` (why it is none, also issued as a :class:`RuntimeWarning`: its modes are
        those of the motion near that state, not vibrations about an equilibrium).
        """
        if at_equilibrium:
            return self._statics(True, set, settings, load_steps)
        d = dict(_mbdae.modes_at_initial_state(self._with(set, settings)))
        if d["warning"]:
            _warnings.warn(f"{self.file}: {d['warning']}", RuntimeWarning, stacklevel=2)
        return d

    def _statics(self, modes, set_, settings, load_steps=1):
        d = dict(_mbdae.statics(self._with(set_, settings), modes, load_steps))
        if not d["converged"]:
            raise SolverError(f"{self.file}: no static equilibrium found: {d['message']}", d)
        return d

    def kinematics(self, *, set: dict | None = None, **settings) -> Result:
        """Kinematic analysis of a driven mechanism with no degree of freedom left (every one fixed
        by a joint's ``motion``): positions, velocities and accelerations from the constraints
        alone at t = 0, output_every, ..., end_time, as ``mbdae kinematics`` (docs/analyses.md).

        Returns a :class:`Result` with, per body, ``body.x/y/z`` (m), ``.rx/ry/rz`` (Tait-Bryan
        x-y-z angles, rad), ``.vx/vy/vz`` (m/s), ``.wx/wy/wz`` (rad/s), ``.ax/ay/az`` (m/s²),
        ``.alphax/alphay/alphaz`` (rad/s²), world axes, then the model's sensors that need no
        multipliers (``left_out`` names the others). Raises ValueError naming the free
        coordinates if the mechanism can move without its drives, :class:`SolverError` (with
        ``.result``) if the constraints cannot be solved along the motion (a lock-up).
        """
        return self._motion(False, set, settings)

    def inverse(self, *, set: dict | None = None, **settings) -> Result:
        """Inverse dynamics along the prescribed motion (:meth:`kinematics`): ``joint.effort``
        (N m or N along the axis) of every driven joint, every joint's reaction ``joint.fx/fy/fz``
        (N) and ``joint.tx/ty/tz`` (N m) in its joint frame on body b, ``residual``
        (‖C_qᵀλ − (f − M a)‖∞) and the model's sensors; as ``mbdae inverse``.
        """
        return self._motion(True, set, settings)

    def _motion(self, inverse, set_, settings):
        raw = dict(_mbdae.motion(self._with(set_, settings), inverse))
        result = Result(raw)
        if not result.ok:
            what = "inverse dynamics" if inverse else "kinematics"
            raise SolverError(f"{self.file}: {what} failure ({result.status_text}) at "
                              f"t = {result.t_reached:g} s: {result.message}", result)
        return result

    def run(self, *, set: dict | None = None, loads: dict | None = None, animate=None, **settings) -> Result:
        """Simulates from t = 0 to the end time with the model file's solver settings.

        Keywords override them: ``solver`` (type), ``end_time`` (s), ``step`` (s), ``rho_inf``, ``formulation``,
        ``tolerance`` ({"relative": r, "absolute": a}), ``adaptive``, ``linear_solver``,
        ``projection``, ``pgs_iterations``, ``pgs_tolerance`` (m/s), ``friction_model``,
        ``output_every`` (s); ``set`` overrides any other key.

        ``loads``: ``{name: f}`` replaces the value of the model's force or torque ``name`` by a
        Python callable ``f(t)`` of the time (s) returning 3 numbers (N or N m, in the load's
        ``frame``). It is called with the GIL taken at every force evaluation (several per step);
        an exception in it ends the run with :class:`SolverError`. ``{name: (f, ["rate(hinge)",
        "x(slider)"])}`` makes it a function ``f(t, *quantities)`` of named quantities of the
        state (the model file's: angle, rate, displacement, speed of a joint; x..z, vx..vz, wx..wz
        of a body); an unknown name raises ValueError. A ``joint_motor`` named in ``loads`` takes
        its effort (N m or N) from ``f(t)`` or ``(f, ["angle()", "rate()"])`` of its own joint's
        angle(), rate(), displacement(), speed(), f returning one number.

        ``animate``: a path; the 3D viewer's page of the run is written there
        (:meth:`Result.animate`), also for a run that failed part way (its rows so far).

        Returns a :class:`Result` (rows at t = 0, output_every, ..., end_time). Raises
        :class:`ModelError` if the run cannot be built (e.g. a solver that cannot handle the
        model), :class:`SolverError` (with ``.result``, the rows so far) if the solver fails,
        KeyboardInterrupt (with ``.result``) on Ctrl-C.
        """
        loaded = self._with(set, settings)
        handle_sigint = (_threading.current_thread() is _threading.main_thread()
                         and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler)
        result = Result(_mbdae.run(loaded, handle_sigint, dict(loads or {})))
        if animate is not None and result.status != "interrupted" and len(result) > 0:
            result.animate(animate)
        if result.status == "interrupted":
            e = KeyboardInterrupt(f"run interrupted at t = {result.t_reached:g} s")
            e.result = result
            raise e
        if not result.ok:
            raise SolverError(f"{self.file}: solver failure ({result.status_text}) at "
                              f"t = {result.t_reached:g} s: {result.message}", result)
        return result

    def sensitivities(self, params, *, set: dict | None = None) -> dict:
        """The run with the forward sensitivities of its sensor columns to ``params``, numeric keys
        of the model file as ``--set`` key paths (e.g. ``["bodies[1].mass", "forces[0].stiffness"]``):
        the same computation as ``mbdae sensitivity`` (docs/sensitivities.md; generalized_alpha
        index 3 and trapezoidal_index2; non-smooth elements are refused).

        Returns a dict: ``time`` (rows), ``columns`` (the sensor columns), ``values`` (rows ×
        columns), ``derivatives`` (parameters × rows × columns: d value / d parameter),
        ``parameters`` (key, nominal value, difference step), ``status``, ``message``,
        ``t_reached``. Raises :class:`ModelError` for a key that is no number of the file, a
        refused solver or element, or a model built in Python (its keys are not a file's), and
        :class:`SolverError` if the run fails (``.result`` is then the dict so far).
        """
        import numpy as np

        if self._text is not None:
            raise ModelError("sensitivities need a model file (the keys of a model built in Python are not a file's)", [])
        keys = [str(p) for p in ([params] if isinstance(params, str) else params)]
        out = _mbdae.sensitivities(self._path, self._overrides + _overrides(set, {}), keys)
        rows = np.asarray(out["rows"])
        ncol = rows.shape[1] - 1
        d = np.asarray(out["derivatives"]).reshape(rows.shape[0], len(keys), ncol).transpose(1, 0, 2)
        result = {"time": rows[:, 0], "columns": list(out["columns"])[1:], "values": rows[:, 1:],
                  "derivatives": d, "parameters": [tuple(p) for p in out["parameters"]],
                  "status": out["status"], "message": out["message"], "t_reached": out["t_reached"]}
        if out["status"] != "success":
            raise SolverError(f"{self.file}: solver failure at t = {out['t_reached']:g} s: {out['message']}", result)
        return result

    def integrator(self, *, set: dict | None = None, loads: dict | None = None, inputs=(),
                   **settings) -> "Integrator":
        """An integrator at t = 0 (consistent initial state) to step from a host loop.

        ``inputs``: forces, torques or ``joint_motor`` elements of the model whose value the host
        sets between steps with :meth:`Integrator.set_input` (a controller's output): a list of
        names (a force or torque starts at its value at t = 0, a motor at 0) or a dict
        ``{name: [x, y, z]}`` (a motor: ``{name: effort}``) of initial values (N or N m, the load's
        frame; the consistent initial state is computed with them). A motor input replaces the
        motor's ``value``: its effort is what the host sets (N m or N, along the joint's axis). Other keywords as :meth:`run`. Raises :class:`ModelError` if the run
        cannot be built, KeyError for an unknown load name.
        """
        if not isinstance(inputs, dict):
            inputs = {name: None for name in inputs}
        return Integrator(_mbdae.Stepper(self._with(set, settings), dict(loads or {}), inputs))

    def __repr__(self) -> str:
        return f"<mbdae.Model {self.name or self.file!r}: {len(self.bodies)} bodies, solver {self.solver}>"


class Integrator:
    """A model's solver stepped from Python: ``advance_to(t)``, then read the state and sensors.

    ``q`` and ``v`` are copies of the solver's coordinates and velocities (the layout of the
    solver's formulation, docs/architecture.md). Calls release the GIL.
    """

    def __init__(self, stepper):
        self._s = stepper

    def advance_to(self, t: float) -> None:
        """Integrates to time ``t`` (s, ≥ :attr:`time`), landing on it exactly.

        Raises :class:`SolverError` if the solver fails; the state stays at the last accepted
        step. Ctrl-C (from the main thread, with Python's default SIGINT handler) stops it
        between two steps and raises KeyboardInterrupt; the integrator cannot go on after it.
        """
        handle_sigint = (_threading.current_thread() is _threading.main_thread()
                         and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler)
        if not self._s.advance_to(float(t), handle_sigint):
            if self._s.status == "interrupted":
                raise KeyboardInterrupt(f"advance_to interrupted at t = {self._s.time:g} s")
            raise SolverError(f"solver failure ({self._s.status}) at t = {self._s.time:g} s: "
                              f"{self._s.message}")

    time = property(lambda self: self._s.time, doc="current time, s")
    q = property(lambda self: self._s.q, doc="coordinates (copy)")
    v = property(lambda self: self._s.v, doc="velocities (copy)")
    columns = property(lambda self: list(self._s.columns), doc="sensor columns (without time)")
    units = property(lambda self: list(self._s.units), doc="unit of each sensor column")
    stats = property(lambda self: dict(self._s.stats), doc="solver counters so far")
    status = property(lambda self: self._s.status)
    solver = property(lambda self: self._s.solver)

    def set_state(self, q, v) -> tuple[float, float]:
        """Replaces the state at the current time by ``q``, ``v`` (the layout of :attr:`q` and
        :attr:`v`), made consistent as at the start of a run: implicit solvers assemble it onto
        the constraints (velocities by the mass-weighted projection), the explicit and impulse
        solvers project it onto the joints. The solver then starts afresh from it (its history is
        recomputed, its counters restart). Returns ``(|dq|, |dv|)``, the change the consistency
        made. Raises ValueError for wrong sizes, non-finite values or ``lie_rk4`` (whose state is
        not ``q``, ``v``), RuntimeError if the state cannot satisfy the constraints (the previous
        state is kept).
        """
        dq, dv = self._s.set_state([float(x) for x in q], [float(x) for x in v])
        return dq, dv

    def set_input(self, name: str, value) -> None:
        """Sets input ``name`` (see :meth:`Model.integrator`) to ``value``, held until the next
        call: 3 numbers for a force or torque (N or N m in the load's frame), one number for a
        ``joint_motor`` (its effort, N m or N)."""
        if isinstance(value, (int, float)):
            self._s.set_input(name, float(value))
        else:
            self._s.set_input(name, [float(x) for x in value])

    def sensors(self) -> dict:
        """The sensor values at the current state: {column: value} (SI units)."""
        return dict(zip(self._s.columns, self._s.sensor_values().tolist()))

    def sensor_values(self):
        """The sensor values at the current state as a numpy array (order of :attr:`columns`)."""
        return self._s.sensor_values()
