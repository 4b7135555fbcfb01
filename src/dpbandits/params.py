"""Typed algorithm parameters for the library's entry points (``dpbandits.<paper>.simulate``).

Each algorithm has one frozen dataclass of parameters whose defaults are the paper's. A mapping
(e.g. from a config file) becomes one with :meth:`AlgorithmParams.from_mapping`, which refuses an
unknown or misspelt key and names the allowed ones, so that a typo is an error, never a silently
ignored setting.

>>> from dataclasses import dataclass
>>> from typing import ClassVar
>>> @dataclass(frozen=True)
... class DemoParams(AlgorithmParams):
...     algorithm: ClassVar[str] = "demo"
...     alpha: float = 3.1
>>> DemoParams.from_mapping({"alpha": 4.0})
DemoParams(alpha=4.0)
>>> DemoParams.from_mapping({"Alpha": 4.0})
Traceback (most recent call last):
...
ValueError: unknown parameter(s) 'Alpha' for demo; allowed: alpha
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = ["AlgorithmParams", "coerce_params"]


@dataclasses.dataclass(frozen=True)
class AlgorithmParams:
    """Base class of every parameter dataclass (``algorithm``: the name it belongs to)."""

    algorithm: ClassVar[str] = ""

    @classmethod
    def allowed(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None = None):
        """Parameters from a mapping; an unknown key raises ``ValueError`` naming the allowed
        ones (values are checked by the dataclass itself)."""
        values = dict(values or {})
        allowed = cls.allowed()
        unknown = sorted(k for k in values if k not in allowed)
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {', '.join(map(repr, unknown))} for {cls.algorithm or cls.__name__}; "
                f"allowed: {', '.join(allowed) if allowed else 'none (the algorithm takes no parameters)'}")
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def _check(self, name: str, ok: bool, allowed: str) -> None:
        """Raise a ``ValueError`` naming the parameter and its allowed range unless ``ok``."""
        if not ok:
            raise ValueError(f"{self.algorithm}: parameter {name} = {getattr(self, name)!r} is not "
                             f"allowed; allowed: {allowed}")


def coerce_params(kind: type[AlgorithmParams], params) -> AlgorithmParams:
    """``params`` (None, a mapping, or an instance of ``kind``) as an instance of ``kind``."""
    if params is None or isinstance(params, Mapping):
        return kind.from_mapping(params)
    if isinstance(params, kind):
        return params
    raise ValueError(f"params for {kind.algorithm} must be a mapping or a {kind.__name__}, "
                     f"got {type(params).__name__}")
