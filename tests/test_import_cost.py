"""What `import fgrad` loads: optional heavy dependencies (SciPy: ~200 ms) are imported on first
use, by the functions that compute with them, not when fgrad or its faces are imported."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

import fgrad.numpy as fnp


def _modules_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_importing_fgrad_and_its_faces_does_not_import_scipy():
    loaded = _modules_after("import fgrad, fgrad.numpy, fgrad.lax, fgrad.nn, fgrad.random, fgrad.torch, "
                            "fgrad.scipy, fgrad.scipy.special, fgrad.scipy.stats")
    assert not {m for m in loaded if m == "scipy" or m.startswith("scipy.")}


def test_functions_computed_by_scipy_still_work_after_a_lazy_import():
    a = np.array([[2.0, 0.0], [1.0, 3.0]])
    x = fnp.linalg.solve(a, np.array([2.0, 5.0]))  # triangular solves go through scipy.linalg
    np.testing.assert_allclose(np.asarray(x), [1.0, 4.0 / 3.0])
    from fgrad.scipy import linalg

    np.testing.assert_allclose(np.asarray(linalg.solve_triangular(a, np.array([2.0, 5.0]), lower=True)),
                               [1.0, 4.0 / 3.0])
    t, z = linalg.schur(np.array([[1.0, 2.0], [0.0, 3.0]]))
    np.testing.assert_allclose(np.asarray(z @ t @ z.T), [[1.0, 2.0], [0.0, 3.0]], atol=1e-12)


def test_submodules_load_on_attribute_access_as_jax_does():
    # `import jax; jax.scipy.special.logsumexp(...)` works in JAX without importing jax.scipy
    out = subprocess.run([sys.executable, "-c", "import fgrad; print(float(fgrad.scipy.special.logsumexp("
                          "fgrad.numpy.zeros(2))), fgrad.example_libraries.optimizers.__name__)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.split() == [repr(float(np.log(2.0))), "fgrad.example_libraries.optimizers"]
