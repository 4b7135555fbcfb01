"""Environments shared by the papers."""

from dpbandits.envs.bernoulli import BernoulliBandit, RewardTable

__all__ = ["BernoulliBandit", "RewardTable"]
