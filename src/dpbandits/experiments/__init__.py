"""Experiment registry: per paper, the grid cells, seed blocks and file layout the rules run."""
