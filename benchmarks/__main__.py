from . import _env  # noqa: F401  (thread pinning before numpy)
from .run import main

raise SystemExit(main())
