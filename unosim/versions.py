"""Every compatibility stamp unosim writes into what it saves, in one place.

Each is raised whenever what it stamps changes meaning; a reader compares a file's
stamp with these. What changed at each raise: ``CHANGELOG.md``. One scheme of names,
``<WHAT>_VERSION``; the manifest key of each is named beside it.
"""

# What the kernel plays for a seed: raised whenever any round of any rule set, player
# count or strategy changes for the same seed (manifest key ``kernel_behaviour``).
KERNEL_BEHAVIOUR_VERSION = 10

# The random streams a seed gives (manifest key ``rng``).
RNG_VERSION = "xoshiro256**/splitmix64-key-v2/random-draw"

# What a rule file may say (manifest key ``rules_format``; a rule's ``since``).
RULES_FORMAT_VERSION = 3

# How a dataset folder is laid out (manifest key ``dataset_format``); 2 is still read.
DATASET_FORMAT_VERSION = 3

# What the environments (``unosim.env``) observe, reward and allow.
ENV_VERSION = 2


def behaviour_mismatch(manifest: dict) -> str | None:
    """Why a results file's games cannot be continued or replayed by this unosim (one
    line), or None. Files from before the version was recorded are behaviour 1."""
    theirs = manifest.get("kernel_behaviour", 1)
    if theirs == KERNEL_BEHAVIOUR_VERSION:
        return None
    return (
        f"made by kernel behaviour {theirs!r}; this unosim plays behaviour "
        f"{KERNEL_BEHAVIOUR_VERSION}, so its games cannot be reproduced"
    )
