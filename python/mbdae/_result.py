"""The results of a run: columns as numpy arrays."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy is needed by a run, not by `import mbdae`
    import numpy as np


class Result:
    """The output rows of one run.

    ``data`` is a ``(rows, columns)`` float64 array, time first; ``time`` and ``r[name]`` are
    views into it (no copy). A name is either a column (``"slider.x"``, one-dimensional) or a
    sensor (``"slider"``: its columns, ``(rows, k)``). Units in ``units`` (SI: s, m, rad, N, J).
    """

    def __init__(self, raw: dict):
        self.data: np.ndarray = raw["data"]
        self.data.flags.writeable = False
        self.columns: list[str] = list(raw["columns"])
        self.units: list[str] = list(raw["units"])
        #: "success", "newton_failure", "step_too_small", "singular_matrix", "residual_failure",
        #: "too_much_work", "inconsistent_initial_conditions", "interrupted", "other_failure", "check_failed"
        self.status: str = raw["status"]
        self.status_text: str = raw["status_text"]
        self.message: str = raw["message"]
        #: time of the last accepted state, s
        self.t_reached: float = raw["t_reached"]
        #: solver counters and measures (steps, newton_iterations, wall_time in s, ...)
        self.stats: dict = dict(raw["stats"])
        #: what was changed to make the initial state consistent, redundant equations removed
        self.warnings: list[str] = list(raw["warnings"])
        #: the solver and its settings, as the ``mbdae`` command prints them
        self.solver: str = raw["solver"]
        #: sensors an analysis could not evaluate (kinematics: those that need multipliers)
        self.left_out: list[str] = list(raw.get("left_out", []))
        self._index = {c: i for i, c in enumerate(self.columns)}
        # For the viewer (a run's result; not kinematics, inverse): the bodies' poses at every row
        # ((rows, 7 bodies) float32: x, y, z, qw, qx, qy, qz per body), the scene and the meta
        # JSON that `mbdae run` writes beside its CSV.
        self._poses = raw.get("poses")
        self._scene: str | None = raw.get("scene")
        self._meta: str | None = raw.get("meta")

    @property
    def ok(self) -> bool:
        """True if the run reached its end time."""
        return self.status == "success"

    @property
    def time(self) -> np.ndarray:
        """Output times, s (a view)."""
        return self.data[:, 0]

    def __len__(self) -> int:
        return self.data.shape[0]

    def __contains__(self, name: str) -> bool:
        return name in self._index or bool(self._sensor_columns(name))

    def _sensor_columns(self, name: str) -> list[int]:
        prefix = name + "."
        return [i for i, c in enumerate(self.columns) if c.startswith(prefix)]

    def __getitem__(self, name: str) -> np.ndarray:
        """Column ``name`` (1-D view), or the columns of sensor ``name`` (2-D view)."""
        if name in self._index:
            return self.data[:, self._index[name]]
        cols = self._sensor_columns(name)
        if not cols:
            raise KeyError(f"no column or sensor {name!r}; columns: {', '.join(self.columns)}")
        # A sensor's columns are adjacent: a slice, hence a view.
        return self.data[:, cols[0]:cols[-1] + 1]

    def unit(self, column: str) -> str:
        """Unit of a column ("" where mixed or dimensionless)."""
        return self.units[self._index[column]]

    def save(self, path) -> None:
        """Writes the rows to ``path`` as CSV, byte for byte as ``mbdae run -o`` writes the same
        rows (header of column names, numbers in the shortest form that reads back exactly).
        For a run's result also, as ``mbdae run`` does beside its CSV: ``.meta.json`` (the units),
        ``.poses`` and ``.scene.json`` (the bodies, for ``mbdae view``). Files that exist and are
        not regular files, or are symbolic links, are refused before anything is written
        (RuntimeError naming them), as is a file that cannot be written."""
        from . import _mbdae
        path = str(path)
        files = self._files(path)
        _mbdae.require_outputs([path] + [f for f, _ in files], [])
        _mbdae.write_csv(path, self.columns, self.data)
        for f, write in files:
            write(f)

    def _files(self, csv_path: str):
        """The files beside the CSV (path, writer) that save() writes for this result."""
        import os
        from . import _mbdae
        stem = os.path.splitext(csv_path)[0]
        files = []
        if self._meta is not None:
            files.append((stem + ".meta.json", lambda f: _mbdae.write_text(f, self._meta)))
        if self._poses is not None and self._scene is not None:
            bodies = self._poses.shape[1] // 7
            files.append((stem + ".poses",
                          lambda f: _mbdae.write_poses(f, self.time[:len(self._poses)], self._poses, bodies, "")))
            files.append((stem + ".scene.json", lambda f: _mbdae.write_text(f, self._scene)))
        return files

    def animate(self, path, three_js=None) -> None:
        """Writes the 3D viewer's page of this run to ``path`` (one self-contained HTML file, as
        ``mbdae view`` writes it; open it in a browser). ``three_js``: the three.js file to inline
        (default: $MBDAE_THREE_JS, else Debian's libjs-three). Raises ValueError for a result
        without poses (kinematics, inverse); RuntimeError naming the file for a refused output
        (an existing non-regular file, a symbolic link, an input of the page), a three.js that
        cannot be read or a page that cannot be written."""
        import os
        import tempfile
        from . import _mbdae
        if self._poses is None or self._scene is None:
            raise ValueError("this result has no body poses (only a run's result can be animated)")
        path = str(path)
        with tempfile.TemporaryDirectory(prefix="mbdae-animate-") as scratch:
            name = os.path.splitext(os.path.basename(path))[0] or "run"
            csv_path = os.path.join(scratch, name + ".csv")
            self.save(csv_path)
            _mbdae.write_view(csv_path, path, three_js or "", os.path.basename(path) + " — mbdae")

    def to_pandas(self):
        """The rows as a pandas DataFrame indexed by time (requires pandas)."""
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("Result.to_pandas() needs pandas (Debian: python3-pandas)") from e
        return pd.DataFrame(self.data[:, 1:], index=pd.Index(self.data[:, 0], name="time"),
                            columns=self.columns[1:])

    def plot(self, names=None, ax=None):
        """Plots columns or sensors against time with matplotlib; returns the axes.

        ``names``: column or sensor names (default: every column). The label carries the unit.
        """
        import matplotlib.pyplot as plt
        if ax is None:
            _, ax = plt.subplots()
        if names is None:
            names = self.columns[1:]
        elif isinstance(names, str):
            names = [names]
        for name in names:
            idx = [self._index[name]] if name in self._index else self._sensor_columns(name)
            if not idx:
                raise KeyError(f"no column or sensor {name!r}")
            for i in idx:
                unit = self.units[i]
                ax.plot(self.time, self.data[:, i],
                        label=f"{self.columns[i]} [{unit}]" if unit else self.columns[i])
        ax.set_xlabel("time [s]")
        ax.legend()
        return ax

    def __repr__(self) -> str:
        return (f"<mbdae.Result {self.status} at t = {self.t_reached:g} s, {len(self)} rows, "
                f"{len(self.columns)} columns>")


def overlay(results, names, labels=None, axes=None):
    """Plots the same columns or sensors of several results over time, one axes per unit (a
    column in m and one in N do not share a y axis); returns the list of axes.

    ``results``: a list of :class:`Result` (e.g. runs with different settings); ``names``: column
    or sensor names present in every result; ``labels``: one legend label per result (default
    "run 1", "run 2", ...); ``axes``: existing matplotlib axes, one per unit, in the order the
    units first appear. Raises KeyError for a name missing from a result.
    """
    import matplotlib.pyplot as plt
    if isinstance(names, str):
        names = [names]
    results = list(results)
    labels = list(labels) if labels is not None else [f"run {k + 1}" for k in range(len(results))]
    if len(labels) != len(results):
        raise ValueError(f"{len(labels)} labels for {len(results)} results")
    # The columns of each name (from the first result) and their units, in order.
    columns = []
    for name in names:
        r0 = results[0]
        idx = [r0._index[name]] if name in r0._index else r0._sensor_columns(name)
        if not idx:
            raise KeyError(f"no column or sensor {name!r}")
        columns += [r0.columns[i] for i in idx]
    units = []
    for c in columns:
        u = results[0].unit(c)
        if u not in units:
            units.append(u)
    if axes is None:
        _, axes = plt.subplots(len(units), 1, sharex=True, squeeze=False)
        axes = list(axes[:, 0])
    for c in columns:
        ax = axes[units.index(results[0].unit(c))]
        for r, label in zip(results, labels):
            if c not in r._index:
                raise KeyError(f"no column {c!r} in {label}")
            ax.plot(r.time, r[c], label=f"{c} ({label})")
    for u, ax in zip(units, axes):
        ax.set_ylabel(f"[{u}]" if u else "")
        ax.legend()
    axes[-1].set_xlabel("time [s]")
    return axes
