# Type stub of the mbdae package (editors' completion and type checkers). Units are SI.
from os import PathLike
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

__version__: str

Vector3 = Sequence[float]
LoadFunction = Callable[[float], Vector3]

class ModelError(ValueError):
    """Problems of a model file or of building its run; message `FILE:LINE:COL: KEY: message`."""
    diagnostics: list[tuple[str, int, int, str, str]]  # (file, line, column, key, message)
    def __init__(self, message: str, diagnostics: Iterable[Sequence[Any]] = ...) -> None: ...

class SolverError(RuntimeError):
    """A run that did not reach its end time; `result` holds the rows so far."""
    result: Result | None
    def __init__(self, message: str, result: Result | None = ...) -> None: ...

class Result:
    data: npt.NDArray[np.float64]  # (rows, columns), time first, read-only
    columns: list[str]             # "time", "slider.x", ...
    units: list[str]               # "s", "m", "rad/s", "N", "J", "" (mixed or none)
    status: str                    # "success", "newton_failure", ..., "interrupted"
    status_text: str
    message: str
    t_reached: float               # s
    stats: dict[str, float]        # steps, newton_iterations, wall_time (s), ...
    warnings: list[str]
    solver: str
    @property
    def ok(self) -> bool: ...
    @property
    def time(self) -> npt.NDArray[np.float64]: ...  # s
    def __len__(self) -> int: ...
    def __contains__(self, name: str) -> bool: ...
    def __getitem__(self, name: str) -> npt.NDArray[np.float64]: ...  # column (1-D) or sensor (2-D)
    def unit(self, column: str) -> str: ...
    def to_pandas(self) -> Any: ...
    def plot(self, names: str | Sequence[str] | None = ..., ax: Any = ...) -> Any: ...

class Integrator:
    @property
    def time(self) -> float: ...  # s
    @property
    def q(self) -> npt.NDArray[np.float64]: ...
    @property
    def v(self) -> npt.NDArray[np.float64]: ...
    @property
    def columns(self) -> list[str]: ...
    @property
    def units(self) -> list[str]: ...
    @property
    def stats(self) -> dict[str, float]: ...
    @property
    def status(self) -> str: ...
    @property
    def solver(self) -> str: ...
    def advance_to(self, t: float) -> None: ...  # t in s
    def set_input(self, name: str, value: Vector3) -> None: ...  # N or N m
    def sensors(self) -> dict[str, float]: ...
    def sensor_values(self) -> npt.NDArray[np.float64]: ...

class Model:
    @property
    def file(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def solver(self) -> str: ...
    @property
    def end_time(self) -> float: ...  # s
    @property
    def step(self) -> float: ...  # s
    @property
    def output_every(self) -> float: ...  # s
    @property
    def bodies(self) -> list[str]: ...
    @property
    def joints(self) -> list[str]: ...
    @property
    def sensors(self) -> list[str]: ...
    def check(self) -> dict[str, Any]: ...
    def run(self, *, set: Mapping[str, Any] | None = ..., loads: Mapping[str, LoadFunction] | None = ...,
            solver: str = ..., end_time: float = ..., step: float = ..., rho_inf: float = ...,
            tolerance: Mapping[str, float] = ..., adaptive: bool = ..., linear_solver: str = ...,
            projection: bool = ..., pgs_iterations: int = ..., pgs_tolerance: float = ...,
            friction_model: str = ..., output_every: float = ...) -> Result: ...
    def integrator(self, *, set: Mapping[str, Any] | None = ...,
                   loads: Mapping[str, LoadFunction] | None = ...,
                   inputs: Iterable[str] | Mapping[str, Vector3 | None] = ...,
                   solver: str = ..., end_time: float = ..., step: float = ..., rho_inf: float = ...,
                   tolerance: Mapping[str, float] = ..., adaptive: bool = ..., linear_solver: str = ...,
                   projection: bool = ..., pgs_iterations: int = ..., pgs_tolerance: float = ...,
                   friction_model: str = ..., output_every: float = ...) -> Integrator: ...

def load(path: str | PathLike[str], set: Mapping[str, Any] | None = ...) -> Model: ...
