"""What the command line's two modules (:mod:`dpbandits.workflow.cli`, the online family and the
parser; :mod:`dpbandits.workflow.cli_families`, the other families) share: the usage error, the
parameters' parser, the checks of a value, the table's note and the regret curves."""

from __future__ import annotations

import ast

import numpy as np

__all__ = ["UsageError", "parse_params", "same_runs_note", "check", "label", "draw_curves"]


class UsageError(ValueError):
    """A command-line argument out of its range (reported with the argument's name)."""


def parse_params(items: list[str]) -> dict:
    """``["width=1", "name='x'"]`` -> ``{"width": 1, "name": "x"}`` (values as Python literals,
    else strings)."""
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier():
            raise UsageError(f"--param {item!r}: expected name=value with a Python identifier as the name")
        try:
            out[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[name] = value
    return out


def same_runs_note(values) -> str:
    """A table's note when every run gave the same value (a CI of width 0 is no estimate of spread)."""
    values = np.asarray(values)
    return "every run gave the same value (a CI of width 0)" if values.size > 1 and np.all(values == values[0]) else ""


def check(name: str, value, ok: bool, allowed: str) -> None:
    if not ok:
        raise UsageError(f"{name} {value!r}: allowed {allowed}")


def label(algorithm: str) -> str:
    return algorithm.rpartition(":")[2] or algorithm


def draw_curves(ax, curves: dict, mine: str, colours: dict) -> None:
    """Each algorithm's mean regret against the round t, +-1 s.d. over runs (``curves``: name ->
    (rounds, runs x rounds)); the researcher's algorithm ``mine`` drawn solid."""
    for name, (t, regret) in curves.items():
        mean, sd = regret.mean(axis=0), regret.std(axis=0)
        style = {"linewidth": 2.4} if name == mine else {"linewidth": 1.2, "linestyle": "--"}
        ax.plot(t, mean, color=colours[name], label=name, **style)
        ax.fill_between(t, mean - sd, mean + sd, color=colours[name], alpha=0.12)
    ax.set_xlabel("round t")
