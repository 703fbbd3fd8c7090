"""Shared helpers of the Python tests: the CLI built beside the extension, and seeded profiles."""

import os
import pathlib
import shutil

import numpy as np
import pytest


@pytest.fixture(scope="session")
def cli():
    """The kollective CLI of the same build (ctest sets KOLLECTIVE_CLI)."""
    path = os.environ.get("KOLLECTIVE_CLI") or shutil.which("kollective")
    if not path or not pathlib.Path(path).exists():
        pytest.skip("the kollective CLI was not found (set KOLLECTIVE_CLI)")
    return path


def random_ranks(rng, voters, n, ties, incomplete=False):
    """Seeded ballots as ranks[v, a]: places 0..n-1, merged into ties at random, some
    alternatives unranked (-1) where `incomplete`."""
    ranks = np.empty((voters, n), dtype=np.int64)
    for v in range(voters):
        places = rng.permutation(n)
        if ties:
            places = places // rng.integers(1, 3)  # halving the places ties pairs
        if incomplete and rng.random() < 0.3:
            places[rng.integers(0, n)] = -1
            if np.all(places < 0):
                places[0] = 0
        ranks[v] = places
    return ranks
