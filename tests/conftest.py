"""Shared pytest configuration: hypothesis profiles.

* ``ci`` (default): few examples, deterministic (derandomized), no deadline — fast and
  reproducible.
* ``thorough``: many examples, randomized, e.g. ``HYPOTHESIS_PROFILE=thorough pytest``.
* ``dev``: a middle ground for local runs.
"""

import os

from hypothesis import HealthCheck, Phase, settings

_common = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much, HealthCheck.differing_executors],
    print_blob=True,
)
settings.register_profile("ci", max_examples=5, derandomize=True, database=None,
                          phases=[Phase.explicit, Phase.generate], **_common)
settings.register_profile("dev", max_examples=25, **_common)
settings.register_profile("thorough", max_examples=200, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
