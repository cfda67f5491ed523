"""How an environment's episode takes its randomness from its ``np_random``.

Each reset draws one 64-bit number from the environment's ``np_random``; the
native core seeds its own stream with it, and every random number of the
episode (terrain, start push, engine dispersion) comes from that stream. A
vector environment draws from environment i's own generator in the same way,
which is why environment i of a vector follows a single environment bit for bit.
"""

import numpy as np


def episode_seed(np_random: np.random.Generator) -> int:
    """The next episode's seed, drawn from ``np_random``."""
    return int(np_random.integers(0, 2**64, dtype=np.uint64))
