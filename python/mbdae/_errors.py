"""Exceptions of the mbdae package."""

from __future__ import annotations


class ModelError(ValueError):
    """A model file, an override or a model's run cannot be built.

    The message is one line per problem, ``FILE:LINE:COL: KEY: message`` as the ``mbdae``
    command prints them. ``diagnostics`` holds the same problems as data: a list of
    ``(file, line, column, key, message)`` tuples (line and column 1-based, 0 when unknown;
    key the dotted path of the key, e.g. ``"bodies[2].inertia"``, empty for the whole file).
    """

    def __init__(self, message: str, diagnostics=()):
        super().__init__(message)
        self.diagnostics = [tuple(d) for d in diagnostics]


class SolverError(RuntimeError):
    """A run that did not reach its end time (Newton failure, step limit, ...).

    ``result`` is the partial :class:`mbdae.Result`: every row up to the last accepted output
    time, with its status, message and statistics.
    """

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result
