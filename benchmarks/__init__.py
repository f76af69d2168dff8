"""Side-by-side benchmarks of fgrad against numpy and the installed peers (``bench`` extra).

Run ``python -m benchmarks`` (see ``benchmarks/run.py``).  Thread pinning happens on import,
before numpy is loaded.
"""

from . import _env  # noqa: F401  (must stay the first import)
