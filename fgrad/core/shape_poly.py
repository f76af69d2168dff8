"""Symbolic dimensions (JAX's shape polymorphism, ``jax.export.symbolic_shape``): a dimension
size that is a polynomial with integer coefficients in named dimension variables
(``b``, ``2*b + 1``, ``a*b``), each variable an integer >= 1.

fgrad's programs have concrete shapes: a symbolic dimension stands in a `ShapeDtypeStruct` that
`fgrad.export.export` receives, which stages the function at concrete sizes when it is called
(docs/jax-api-round14.md).  Arithmetic (``+``, ``-``, ``*``) gives symbolic dimensions;
comparisons are answered when they hold (or fail) for every value of the variables and raise
`fgrad.errors.InconclusiveDimensionOperation` otherwise, as JAX's; ``int(b)`` raises too.

Example::

    >>> from fgrad.core.shape_poly import symbolic_shape
    >>> b, n = symbolic_shape("b, 2*b + 1")
    >>> n, n - 2 * b, b >= 1, n.evaluate({"b": 3})
    (2*b + 1, 1, True, 7)
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

Monomial = tuple  # ((name, power), ...) sorted by name; () is the constant term


class SymbolicScope:
    """The scope symbolic dimensions belong to: expressions of different scopes do not mix
    (JAX's ``jax.export.SymbolicScope``); ``constraints_str`` are checked when an exported
    function is called with concrete sizes.

    Example::

        >>> from fgrad.core.shape_poly import SymbolicScope, symbolic_shape
        >>> scope = SymbolicScope(("a >= b",))
        >>> a, b = symbolic_shape("a, b", scope=scope)
        >>> (a + b).scope is scope
        True
    """

    def __init__(self, constraints_str: Sequence[str] = ()) -> None:
        if isinstance(constraints_str, str):
            raise ValueError("SymbolicScope: constraints_str must be a sequence of strings, got the "
                             f"string {constraints_str!r}")
        self.constraints_str = tuple(constraints_str)
        self.constraints = [_parse_constraint(c, self) for c in self.constraints_str]

    def __repr__(self) -> str:
        return f"SymbolicScope({list(self.constraints_str)})"

    def check(self, env: dict[str, int], where: str) -> None:
        """Raise a ValueError naming a constraint the sizes ``env`` violate."""
        for text, (lhs, op, rhs) in zip(self.constraints_str, self.constraints):
            lv, rv = _value(lhs, env), _value(rhs, env)
            ok = lv >= rv if op == ">=" else lv <= rv if op == "<=" else lv == rv
            if not ok:
                raise ValueError(f"{where}: the sizes {env} violate the constraint {text!r} "
                                 f"({lv} {op} {rv} is False)")


def _value(d: Any, env: dict[str, int]) -> int:
    return d.evaluate(env) if isinstance(d, DimExpr) else int(d)


class DimExpr:
    """A symbolic dimension: ``sum(coeff * prod(var ** power))`` (JAX's ``_DimExpr``).

    Example::

        >>> from fgrad.core.shape_poly import symbolic_shape
        >>> (b,) = symbolic_shape("b")
        >>> (b * b + 3 * b - 1), (b + 1) - b
        (b^2 + 3*b - 1, 1)
    """

    __slots__ = ("terms", "scope")

    def __init__(self, terms: dict, scope: SymbolicScope) -> None:
        self.terms = {m: c for m, c in terms.items() if c != 0}
        self.scope = scope

    # -- construction
    @staticmethod
    def var(name: str, scope: SymbolicScope) -> DimExpr:
        return DimExpr({((name, 1),): 1}, scope)

    def _lift(self, other: Any) -> DimExpr | None:
        if isinstance(other, DimExpr):
            if other.scope is not self.scope:
                raise ValueError(
                    f"Invalid mixing of symbolic scopes: {self} and {other} come from different "
                    "symbolic_shape calls; pass scope= (one SymbolicScope) to each, or parse the "
                    "dimensions in one call")
            return other
        if isinstance(other, bool) or not isinstance(other, int) and not hasattr(other, "__index__"):
            return None
        return DimExpr({(): int(other.__index__())}, self.scope)

    @staticmethod
    def _normal(terms: dict, scope: SymbolicScope) -> DimExpr | int:
        e = DimExpr(terms, scope)
        if not e.terms:
            return 0
        if list(e.terms) == [()]:
            return e.terms[()]
        return e

    # -- arithmetic
    def __add__(self, other: Any) -> Any:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        terms = dict(self.terms)
        for m, c in o.terms.items():
            terms[m] = terms.get(m, 0) + c
        return DimExpr._normal(terms, self.scope)

    __radd__ = __add__

    def __neg__(self) -> Any:
        return DimExpr._normal({m: -c for m, c in self.terms.items()}, self.scope)

    def __sub__(self, other: Any) -> Any:
        o = self._lift(other)
        return NotImplemented if o is None else self + (-o)

    def __rsub__(self, other: Any) -> Any:
        o = self._lift(other)
        return NotImplemented if o is None else o + (-self)

    def __mul__(self, other: Any) -> Any:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        terms: dict = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in o.terms.items():
                m = _mul_monomials(m1, m2)
                terms[m] = terms.get(m, 0) + c1 * c2
        return DimExpr._normal(terms, self.scope)

    __rmul__ = __mul__

    # -- comparisons (every variable is >= 1)
    def _bounds(self) -> tuple[float, float]:
        lo = hi = self.terms.get((), 0)
        for m, c in self.terms.items():
            if m == ():
                continue
            if c > 0:
                lo, hi = lo + c, float("inf")
            else:
                lo, hi = float("-inf"), hi + c
        return lo, hi

    def _ge(self, other: Any, strict: bool, op: str) -> bool:
        o = self._lift(other)
        if o is None:
            return NotImplemented
        d = self - o
        if not isinstance(d, DimExpr):
            return d > 0 if strict else d >= 0
        lo, hi = d._bounds()
        if (lo > 0) if strict else (lo >= 0):
            return True
        if (hi <= 0) if strict else (hi < 0):
            return False
        from ..errors import InconclusiveDimensionOperation

        raise InconclusiveDimensionOperation(
            f"Symbolic dimension comparison '{self}' {op} '{other}' is inconclusive: it holds for "
            "some values of the dimension variables and not for others (JAX's shape "
            "polymorphism; see https://docs.jax.dev/en/latest/export/shape_poly.html)")

    def __ge__(self, other: Any) -> bool:
        return self._ge(other, False, ">=")

    def __gt__(self, other: Any) -> bool:
        return self._ge(other, True, ">")

    def __le__(self, other: Any) -> bool:
        o = self._lift(other)
        return NotImplemented if o is None else _flip(o, self, False, "<=", self, other)

    def __lt__(self, other: Any) -> bool:
        o = self._lift(other)
        return NotImplemented if o is None else _flip(o, self, True, "<", self, other)

    def __eq__(self, other: Any) -> bool:  # equal for every value of the variables
        if isinstance(other, DimExpr):
            return other.scope is self.scope and other.terms == self.terms
        return False if isinstance(other, int) else NotImplemented

    def __ne__(self, other: Any) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((frozenset(self.terms.items()), id(self.scope)))

    def __int__(self) -> int:
        from ..errors import InconclusiveDimensionOperation

        raise InconclusiveDimensionOperation(
            f"Symbolic dimension '{self}' used in a context that requires a constant")

    __index__ = __int__

    def __bool__(self) -> bool:
        return True  # a dimension variable is >= 1: no expression is the constant 0

    # -- values and text
    def variables(self) -> set[str]:
        return {v for m in self.terms for v, _ in m}

    def evaluate(self, env: dict[str, int]) -> int:
        """The size for the variables' values ``env`` (a KeyError names a missing one)."""
        total = 0
        for m, c in self.terms.items():
            v = c
            for name, p in m:
                v *= env[name] ** p
            total += v
        return total

    def __str__(self) -> str:
        # JAX's order: higher degree first, then the variables' names in reverse order
        monos = sorted((m for m in self.terms if m != ()), reverse=True,
                       key=lambda m: (sum(p for _, p in m), tuple(n for n, _ in m)))
        ordered = [(self.terms[m], "*".join(n if p == 1 else f"{n}^{p}" for n, p in m))
                   for m in monos]
        if () in self.terms:
            ordered.append((self.terms[()], ""))
        text = ""
        for i, (c, mono) in enumerate(ordered):
            body = mono if abs(c) == 1 and mono else (f"{abs(c)}*{mono}" if mono else f"{abs(c)}")
            sign = ("- " if c < 0 else "") if i == 0 else (" - " if c < 0 else " + ")
            text += sign + body
        return text

    __repr__ = __str__


def _flip(a: DimExpr, b: DimExpr, strict: bool, op: str, shown_l: Any, shown_r: Any) -> bool:
    d = a - b
    if not isinstance(d, DimExpr):
        return d > 0 if strict else d >= 0
    try:
        return d._ge(0, strict, op)
    except Exception as e:
        raise type(e)(f"Symbolic dimension comparison '{shown_l}' {op} '{shown_r}' is inconclusive: "
                      "it holds for some values of the dimension variables and not for others") from None


def _mul_monomials(m1: Monomial, m2: Monomial) -> Monomial:
    powers: dict = dict(m1)
    for n, p in m2:
        powers[n] = powers.get(n, 0) + p
    return tuple(sorted(powers.items()))


def is_symbolic_dim(d: Any) -> bool:
    """Is ``d`` a symbolic dimension (JAX's ``jax.export.is_symbolic_dim``)?

    Example::

        >>> from fgrad.core.shape_poly import is_symbolic_dim, symbolic_shape
        >>> is_symbolic_dim(symbolic_shape("b")[0]), is_symbolic_dim(3)
        (True, False)
    """
    return isinstance(d, DimExpr)


# ---- parsing --------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<op>\.\.\.|//|\*\*|[-+*^(),%]|>=|<=|==))")


def _tokens(text: str, where: str) -> list[str]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"syntax error in symbolic shape {where}: unexpected {text[pos:].strip()!r}")
        out.append(m.group(m.lastgroup))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, toks: list[str], scope: SymbolicScope, where: str) -> None:
        self.toks, self.i, self.scope, self.where = toks, 0, scope, where

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        t = self.peek()
        if t is None:
            self.fail("expecting a name, a number or '-' but found the end")
        self.i += 1
        return t

    def fail(self, msg: str):
        raise ValueError(f"syntax error in symbolic shape {self.where}: {msg}")

    def expr(self) -> Any:
        neg = self.peek() == "-"
        if neg:
            self.i += 1
        v = self.term()
        v = -v if neg else v
        while self.peek() in ("+", "-"):
            op = self.take()
            t = self.term()
            v = v + t if op == "+" else v - t
        return v

    def term(self) -> Any:
        v = self.power()
        while self.peek() == "*":
            self.i += 1
            v = v * self.power()
        if self.peek() in ("//", "%", "**"):  # JAX writes floordiv(b, 2), mod(b, 2), b^2
            self.fail(f"unexpected {self.peek()!r} (dimensions use +, -, * and ^)")
        return v

    def power(self) -> Any:
        v = self.atom()
        if self.peek() == "^":
            self.i += 1
            t = self.take()
            if not t.isdigit():
                self.fail(f"expecting an integer exponent after '^', found {t!r}")
            p = int(t)
            out: Any = 1
            for _ in range(p):
                out = out * v
            return out
        return v

    def atom(self) -> Any:
        t = self.take()
        if t.isdigit():
            if self.peek() is not None and re.match(r"[A-Za-z_]", self.peek() or ""):
                self.fail(f"expecting '*' between {t!r} and {self.peek()!r}")
            return int(t)
        if t == "(":
            v = self.expr()
            if self.take() != ")":
                self.fail("expecting ')'")
            return v
        if re.match(r"[A-Za-z_]", t):
            if self.peek() == "(":
                raise NotImplementedError(
                    f"symbolic shape {self.where}: the function {t}(...) is not supported by fgrad "
                    "(+, -, *, ^ of dimension variables and integers are)")
            return DimExpr.var(t, self.scope)
        self.fail(f"expecting a name, a number or '-' but found {t!r}")


def _split_dims(spec: str) -> list[str]:
    s = spec.strip()
    if s.startswith("(") and s.endswith(")") and _balanced(s[1:-1]):
        s = s[1:-1]
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"syntax error in symbolic shape {spec!r}: unbalanced ')'")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip() or parts:
        parts.append(cur)
    if parts and not parts[-1].strip():
        parts.pop()  # a trailing comma: "b," is (b,)
    return parts


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def _parse_dim(text: str, scope: SymbolicScope, where: str) -> Any:
    p = _Parser(_tokens(text, where), scope, where)
    v = p.expr()
    if p.peek() is not None:
        p.fail(f"unexpected {p.peek()!r} after {text[:len(text)].strip()!r}")
    return v


def _parse_constraint(text: str, scope: SymbolicScope) -> tuple[Any, str, Any]:
    m = re.fullmatch(r"(.*?)(>=|<=|==)(.*)", text.strip())
    if m is None:
        raise ValueError(f"symbolic shape constraint {text!r}: expecting 'e1 >= e2', 'e1 <= e2' or "
                         "'e1 == e2'")
    return (_parse_dim(m.group(1), scope, repr(text)), m.group(2),
            _parse_dim(m.group(3), scope, repr(text)))


def symbolic_shape(shape_spec: str | None, *, constraints: Sequence[str] = (),
                   scope: SymbolicScope | None = None,
                   like: Sequence[int | None] | None = None) -> tuple:
    """The dimensions of a shape written as text (JAX's ``jax.export.symbolic_shape``):
    integers, dimension variables and ``+``, ``-``, ``*``, ``^`` of them, separated by commas;
    with ``like`` (a concrete shape), ``_`` takes its size and ``...`` the rest of it.

    Example::

        >>> from fgrad.core.shape_poly import symbolic_shape
        >>> symbolic_shape("b, 4"), symbolic_shape("(b, _, ...)", like=(3, 5, 6, 7))
        ((b, 4), (b, 5, 6, 7))
    """
    if scope is None:
        scope = SymbolicScope(constraints)
    elif constraints:
        raise ValueError("symbolic_shape: pass constraints to the SymbolicScope when you pass scope=")
    if shape_spec is None:
        shape_spec = "..."
    if not isinstance(shape_spec, str):
        raise ValueError(f"symbolic_shape: the shape specification must be a string, got {shape_spec!r}")
    where = repr(shape_spec)
    out: list = []
    parts = _split_dims(shape_spec)
    for k, part in enumerate(parts):
        t = part.strip()
        if t == "...":
            if like is None:
                raise ValueError(f"symbolic_shape {where}: '...' needs like= (the concrete shape)")
            if k != len(parts) - 1:
                raise ValueError(f"syntax error in symbolic shape {where}: '...' must be last")
            out.extend(int(d) for d in like[len(out):])
            break
        if t == "_":
            if like is None or k >= len(like) or like[k] is None:
                raise ValueError(f"symbolic_shape {where}: '_' in dimension {k} needs like= with a "
                                 "known size there")
            out.append(int(like[k]))
            continue
        if not t:
            raise ValueError(f"syntax error in symbolic shape {where}: dimension {k} is empty")
        out.append(_parse_dim(t, scope, f"{where} in dimension {k}"))
    if like is not None and len(out) != len(like):
        raise ValueError(f"symbolic_shape {where}: {len(out)} dimensions, like= has {len(like)}")
    return tuple(out)


def variables_of(shapes: Iterable[Sequence[Any]]) -> list[str]:
    """The dimension variables the shapes use, in order of first appearance."""
    seen: dict[str, None] = {}
    for shape in shapes:
        for d in shape:
            if isinstance(d, DimExpr):
                for m in d.terms:
                    for n, _ in m:
                        seen.setdefault(n, None)
    return list(seen)


__all__ = ["DimExpr", "SymbolicScope", "is_symbolic_dim", "symbolic_shape", "variables_of"]
