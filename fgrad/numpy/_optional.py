"""Collects the NumPy-API modules that are filled in family by family (indexing, linalg
products, sorting, cumulative ops...).  Each import is explicit so a missing function is
an AttributeError, not a silent fallback."""
# ruff: noqa: F401,F403
