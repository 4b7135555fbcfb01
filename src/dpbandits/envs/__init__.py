"""Environments shared by the papers."""

from dpbandits.envs.bernoulli import BernoulliBandit, validate_means

__all__ = ["BernoulliBandit", "validate_means"]
