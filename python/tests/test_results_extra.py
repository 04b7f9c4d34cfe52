"""Result helpers: several runs overlaid, one axes per unit."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import mbdae


def test_overlay_puts_each_unit_on_its_own_axes(source_dir):
    m = mbdae.load(source_dir / "examples/models/slider_crank.yaml")
    a = m.run(end_time=0.3)
    b = m.run(end_time=0.3, set={"forces[0].value": [0, 0, 1]})
    r0 = a
    length = next(c for c in r0.columns[1:] if r0.unit(c) == "m")
    other = next(c for c in r0.columns[1:] if r0.unit(c) not in ("m", ""))
    axes = mbdae.overlay([a, b], [length, other], labels=["3 N m", "1 N m"])
    assert len(axes) == 2
    lines = axes[0].get_lines()
    assert [l.get_label() for l in lines] == [f"{length} (3 N m)", f"{length} (1 N m)"]
    assert np.array_equal(lines[0].get_ydata(), a[length]) and np.array_equal(lines[1].get_ydata(), b[length])
    assert axes[0].get_ylabel() == "[m]"
    assert axes[1].get_ylabel() == f"[{r0.unit(other)}]"
    with pytest.raises(KeyError):
        mbdae.overlay([a, b], ["no_such_column"])
    with pytest.raises(ValueError):
        mbdae.overlay([a, b], [length], labels=["one"])
