"""`torch.fx`: symbolic tracing of ``nn.Module`` forward functions into a `Graph` of nodes
(``placeholder``, ``get_attr``, ``call_function``, ``call_module``, ``call_method``,
``output``) and a `GraphModule` that runs the graph's generated Python code.

`symbolic_trace` runs ``forward`` on `Proxy` objects: torch functions reach their
``__torch_function__`` (`fgrad.torch.overrides`), methods and operators record nodes, leaf
modules (those of ``torch.nn``, except ``Sequential``) become ``call_module`` nodes and
parameters read in ``forward`` become ``get_attr`` nodes.  ``print(gm.graph)`` and
``gm.code`` are PyTorch's text.

Example::

    >>> import fgrad.torch as torch
    >>> class Net(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.linear = torch.nn.Linear(3, 2)
    ...     def forward(self, x):
    ...         return torch.relu(self.linear(x)) + 1
    >>> gm = torch.fx.symbolic_trace(Net())
    >>> [n.op for n in gm.graph.nodes]
    ['placeholder', 'call_module', 'call_function', 'call_function', 'output']
"""

from __future__ import annotations

import builtins
import inspect
import keyword
import math
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any

import fgrad.torch as _torch

from .nn.modules.module import Module
from .overrides import is_tensor_method_or_property

__all__ = ["Graph", "GraphModule", "Node", "Proxy", "PythonCode", "Tracer", "symbolic_trace"]

_BINARY = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
    "matmul": "@", "and_": "&", "or_": "|", "xor": "^", "lshift": "<<", "rshift": ">>", "eq": "==",
    "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
}
_UNARY = {"neg": "-", "pos": "+", "invert": "~"}


class TraceError(ValueError):
    """A traced program used a `Proxy` where a concrete value is needed (``bool``, ``len``,
    iteration), as PyTorch's ``torch.fx.proxy.TraceError``.

    >>> TraceError("x").args
    ('x',)
    """


def _qualified_name(func: Any) -> str:
    if getattr(func, "__module__", None) == "_operator" or func in vars(operator).values():
        return f"operator.{func.__name__}"
    if func is getattr(builtins, getattr(func, "__name__", ""), None):
        return f"builtins.{func.__name__}"
    name = getattr(func, "__name__", None)
    for prefix, space in (("torch", _torch), ("torch.nn.functional", _torch.nn.functional),
                          ("torch.linalg", _torch.linalg), ("torch.Tensor", _torch.Tensor)):
        public = vars(space).get(name) if name is not None else None
        if public is not None and (public is func or getattr(public, "unrefused", None) is func):
            return f"{prefix}.{name}"  # (a function `_refusals.install` wrapped: its checked face)
    return f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', name)}"


class Node:
    """One operation of a `Graph`: ``op`` (``placeholder``, ``get_attr``, ``call_function``,
    ``call_module``, ``call_method``, ``output``), its ``target``, ``args``/``kwargs`` (which
    may hold other nodes) and ``users`` (the nodes that read it).

    >>> import fgrad.torch as torch
    >>> g = torch.fx.Graph()
    >>> x = g.placeholder("x")
    >>> y = g.call_function(torch.relu, (x,))
    >>> list(x.users) == [y], y.all_input_nodes == [x]
    (True, True)
    """

    def __init__(self, graph: Graph, name: str, op: str, target: Any, args: tuple, kwargs: dict,
                 return_type: Any | None = None) -> None:
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self.type = return_type
        self.users: dict[Node, None] = {}
        self.meta: dict[str, Any] = {}
        self._args: tuple = ()
        self._kwargs: dict = {}
        self._update(tuple(args), dict(kwargs))

    def _update(self, args: tuple, kwargs: dict) -> None:
        for n in self.all_input_nodes:
            n.users.pop(self, None)
        self._args, self._kwargs = args, kwargs
        for n in self.all_input_nodes:
            n.users[self] = None

    @property
    def args(self) -> tuple:
        return self._args

    @args.setter
    def args(self, value: tuple) -> None:
        self._update(tuple(value), self._kwargs)

    @property
    def kwargs(self) -> dict:
        return self._kwargs

    @kwargs.setter
    def kwargs(self, value: dict) -> None:
        self._update(self._args, dict(value))

    @property
    def all_input_nodes(self) -> list[Node]:
        found: dict[Node, None] = {}
        _map_nodes((self._args, self._kwargs), lambda n: found.setdefault(n))
        return list(found)

    def replace_all_uses_with(self, replace_with: Node, delete_user_cb: Callable[[Node], bool] | None = None,
                              *, propagate_meta: bool = False) -> list[Node]:
        """Make every user of this node read ``replace_with`` instead (those for which
        ``delete_user_cb`` is true, when given); returns the users changed.

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> x = g.placeholder("x")
        >>> a, b = g.call_function(torch.relu, (x,)), g.call_function(torch.sigmoid, (x,))
        >>> out = g.output(a)
        >>> _ = a.replace_all_uses_with(b)
        >>> out.args[0] is b
        True
        """
        if propagate_meta:
            replace_with.meta.update(self.meta)
        changed = []
        for user in list(self.users):
            if delete_user_cb is not None and not delete_user_cb(user):
                continue
            user.replace_input_with(self, replace_with)
            changed.append(user)
        return changed

    def replace_input_with(self, old_input: Node, new_input: Node) -> None:
        """Read ``new_input`` wherever this node read ``old_input``.

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> x, y = g.placeholder("x"), g.placeholder("y")
        >>> r = g.call_function(torch.relu, (x,))
        >>> r.replace_input_with(x, y)
        >>> r.args[0] is y
        True
        """
        args, kwargs = _map_nodes((self._args, self._kwargs), lambda n: new_input if n is old_input else n)
        self._update(args, kwargs)

    def __repr__(self) -> str:
        return self.name


def _map_nodes(a: Any, fn: Callable[[Node], Any]) -> Any:
    if isinstance(a, Node):
        return fn(a)
    if isinstance(a, tuple):
        items = [_map_nodes(e, fn) for e in a]
        return type(a)(*items) if hasattr(a, "_fields") else tuple(items)
    if isinstance(a, list):
        return [_map_nodes(e, fn) for e in a]
    if isinstance(a, dict):
        return {k: _map_nodes(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(_map_nodes(a.start, fn), _map_nodes(a.stop, fn), _map_nodes(a.step, fn))
    return a


class _InsertPoint:
    def __init__(self, graph: Graph, index: Callable[[], int]) -> None:
        self.graph, self.index = graph, index

    def __enter__(self) -> None:
        self.prev, self.graph._insert_at = self.graph._insert_at, self.index

    def __exit__(self, *exc: object) -> None:
        self.graph._insert_at = self.prev


_RESERVED = set(dir(builtins)) | set(keyword.kwlist) | {"self", "torch", "operator", "inf", "nan"}


class Graph:
    """The nodes of a traced program, in order, with the methods that make them and
    ``print``'s text form.

    >>> import fgrad.torch as torch
    >>> g = torch.fx.Graph()
    >>> x = g.placeholder("x")
    >>> _ = g.output(g.call_method("relu", (x,)))
    >>> print(g)
    graph():
        %x : [num_users=1] = placeholder[target=x]
        %relu : [num_users=1] = call_method[target=relu](args = (%x,), kwargs = {})
        return relu
    """

    def __init__(self, owning_module: GraphModule | None = None, tracer_cls: type[Tracer] | None = None,
                 tracer_extras: dict[str, Any] | None = None) -> None:
        self.owning_module = owning_module
        self._nodes: list[Node] = []
        self._names: dict[str, int] = {}
        self._used: set[str] = set()
        self._insert_at: Callable[[], int] | None = None

    @property
    def nodes(self) -> list[Node]:
        return list(self._nodes)

    def _unique(self, candidate: str) -> str:
        candidate = re.sub(r"[^0-9a-zA-Z_]+", "_", candidate)
        if candidate[:1].isdigit():
            candidate = "_" + candidate
        m = re.match(r"(.*)_(\d+)$", candidate)
        base, num = (m.group(1), int(m.group(2))) if m else (candidate, None)
        name = candidate
        if name in self._used or name in _RESERVED:
            num = self._names.get(base, 0) if num is None else num
            while name in self._used or name in _RESERVED:
                num += 1
                name = f"{base}_{num}"
            self._names[base] = num
        self._used.add(name)
        return name

    def create_node(self, op: str, target: Any, args: tuple | None = None, kwargs: dict | None = None,
                    name: str | None = None, type_expr: Any | None = None) -> Node:
        """A new node (at the insertion point: the end, or where `inserting_before`/
        `inserting_after` say).

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> g.create_node("placeholder", "x").name
        'x'
        """
        if name is None:
            if op == "call_function":
                name = getattr(target, "__name__", "fn")
            else:
                name = str(target).replace(".", "_")
        node = Node(self, self._unique(name), op, target, args or (), kwargs or {}, type_expr)
        at = len(self._nodes) if self._insert_at is None else self._insert_at()
        self._nodes.insert(at, node)
        return node

    def placeholder(self, name: str, type_expr: Any | None = None,
                    default_value: Any = inspect.Signature.empty) -> Node:
        """An input of the graph.

        >>> import fgrad.torch as torch
        >>> torch.fx.Graph().placeholder("x").op
        'placeholder'
        """
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args, type_expr=type_expr)

    def get_attr(self, qualified_name: str, type_expr: Any | None = None) -> Node:
        """A read of the module's attribute ``qualified_name`` (a parameter, a buffer).

        >>> import fgrad.torch as torch
        >>> torch.fx.Graph().get_attr("linear.weight").name
        'linear_weight'
        """
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name: str, args: tuple | None = None, kwargs: dict | None = None,
                    type_expr: Any | None = None) -> Node:
        """A call of the submodule ``module_name``.

        >>> import fgrad.torch as torch
        >>> torch.fx.Graph().call_module("layers.0").name
        'layers_0'
        """
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name: str, args: tuple | None = None, kwargs: dict | None = None,
                    type_expr: Any | None = None) -> Node:
        """A call of the method ``method_name`` of ``args[0]``.

        >>> import fgrad.torch as torch
        >>> torch.fx.Graph().call_method("sum").name
        'sum_1'
        """
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function: Callable[..., Any], args: tuple | None = None,
                      kwargs: dict | None = None, type_expr: Any | None = None,
                      name: str | None = None) -> Node:
        """A call of the function ``the_function``.

        >>> import fgrad.torch as torch
        >>> torch.fx.Graph().call_function(torch.relu).target is torch.relu
        True
        """
        return self.create_node("call_function", the_function, args, kwargs, name, type_expr)

    def output(self, result: Any, type_expr: Any | None = None) -> Node:
        """The graph's result.

        >>> import fgrad.torch as torch
        >>> torch.fx.Graph().output(None).op
        'output'
        """
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def erase_node(self, to_erase: Node) -> None:
        """Remove a node that no other node reads.

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> g.erase_node(g.placeholder("x"))
        >>> len(g.nodes)
        0
        """
        if to_erase.users:
            raise RuntimeError(f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} users "
                               f"in the graph: {to_erase.users}!")
        to_erase._update((), {})
        self._nodes.remove(to_erase)

    def inserting_before(self, n: Node | None = None) -> _InsertPoint:
        """``with graph.inserting_before(n):`` new nodes go just before ``n`` (the start
        when ``n`` is None).

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> x = g.placeholder("x")
        >>> with g.inserting_before(x):
        ...     y = g.placeholder("y")
        >>> [n.name for n in g.nodes]
        ['y', 'x']
        """
        return _InsertPoint(self, (lambda: 0) if n is None else (lambda: self._nodes.index(n)))

    def inserting_after(self, n: Node | None = None) -> _InsertPoint:
        """``with graph.inserting_after(n):`` new nodes go just after ``n`` (each after the
        previous one).

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> x, out = g.placeholder("x"), g.placeholder("z")
        >>> with g.inserting_after(x):
        ...     y = g.call_function(torch.relu, (x,))
        >>> [n.name for n in g.nodes]
        ['x', 'relu', 'z']
        """
        last = [n]

        def index() -> int:
            at = 0 if last[0] is None else self._nodes.index(last[0]) + 1
            return at

        point = _InsertPoint(self, index)
        create = self.create_node

        def track(*args: Any, **kwargs: Any) -> Node:
            node = create(*args, **kwargs)
            last[0] = node
            return node

        enter, exit_ = point.__enter__, point.__exit__

        def entering() -> None:
            enter()
            self.create_node = track  # type: ignore[method-assign]

        def exiting(*exc: object) -> None:
            exit_(*exc)
            self.__dict__.pop("create_node", None)

        point.__enter__, point.__exit__ = entering, exiting  # type: ignore[method-assign]
        return point

    def lint(self) -> None:
        """Check that every node reads only nodes of this graph defined before it.

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> _ = g.output(g.placeholder("x"))
        >>> g.lint()
        """
        seen: set[Node] = set()
        for node in self._nodes:
            for n in node.all_input_nodes:
                if n.graph is not self or n not in seen:
                    raise RuntimeError(
                        f"Argument '{n}' of Node '{node}' was used before it has been defined!")
            seen.add(node)

    def _format(self, a: Any) -> str:
        if isinstance(a, Node):
            return f"%{a.name}"
        if isinstance(a, tuple) and not hasattr(a, "_fields"):
            inner = ", ".join(self._format(e) for e in a)
            return f"({inner},)" if len(a) == 1 else f"({inner})"
        if isinstance(a, list):
            return "[" + ", ".join(self._format(e) for e in a) + "]"
        if isinstance(a, dict):
            return "{" + ", ".join(f"{k}: {self._format(v)}" for k, v in a.items()) + "}"
        return str(a)

    def __str__(self) -> str:
        params = ", ".join(n.name for n in self._nodes if n.op == "placeholder" and False)
        lines = [f"graph({params}):"]
        for n in self._nodes:
            if n.op == "output":
                lines.append(f"    return {_code_arg(n.args[0])}")
                continue
            target = _qualified_name(n.target) if n.op == "call_function" else n.target
            head = f"    %{n.name} : [num_users={len(n.users)}] = {n.op}[target={target}]"
            if n.op in ("placeholder", "get_attr"):
                if n.op == "placeholder" and n.args:
                    head += f"(default={n.args[0]!r})"
                lines.append(head)
            else:
                lines.append(f"{head}(args = {self._format(n.args)}, kwargs = {self._format(n.kwargs)})")
        return "\n".join(lines)

    def python_code(self, root_module: str, *, verbose: bool = False, include_stride: bool = False,
                    include_device: bool = False, colored: bool = False, expanded_def: bool = False,
                    record_func: bool = False, additional_meta: list[str] | None = None) -> PythonCode:
        """The Python source of a ``forward`` running the graph (what `GraphModule` runs).
        The keywords that add annotations or colours to PyTorch's source are accepted and
        change nothing here.

        >>> import fgrad.torch as torch
        >>> g = torch.fx.Graph()
        >>> _ = g.output(g.call_function(torch.relu, (g.placeholder("x"),)))
        >>> print(g.python_code("self").src.strip())
        def forward(self, x):
            relu = torch.relu(x);  x = None
            return relu
        """
        env: dict[str, Any] = {"torch": _torch, "operator": operator, "builtins": builtins}
        last_use: dict[Node, Node] = {}
        for node in self._nodes:
            for n in node.all_input_nodes:
                last_use[n] = node
        freed: dict[Node, list[Node]] = {}
        for value, user in last_use.items():
            freed.setdefault(user, []).append(value)
        params, body = [], []
        for node in self._nodes:
            if node.op == "placeholder":
                params.append(node.target if not node.args else f"{node.target} = {node.args[0]!r}")
                if node.name != node.target:  # a reserved name: renamed in the body, as PyTorch
                    body.append(f"{node.name} = {node.target}")
                continue
            if node.op == "output":
                body.append(f"return {_code_arg(node.args[0])}")
                continue
            line = f"{node.name} = {_code_expr(node, root_module, env)}"
            gone = [v.name for v in node.all_input_nodes if v in freed.get(node, ())]
            if gone:
                line += ";  " + " = ".join(gone) + " = None"
            body.append(line)
        src = f"\n\n\ndef forward({', '.join([root_module] + params)}):\n" + "".join(
            f"    {line}\n" for line in body) + "    "
        return PythonCode(src, env)


def _code_arg(a: Any) -> str:
    if isinstance(a, Node):
        return a.name
    if isinstance(a, tuple) and not hasattr(a, "_fields"):
        inner = ", ".join(_code_arg(e) for e in a)
        return f"({inner},)" if len(a) == 1 else f"({inner})"
    if isinstance(a, list):
        return "[" + ", ".join(_code_arg(e) for e in a) + "]"
    if isinstance(a, dict):
        return "{" + ", ".join(f"{k!r}: {_code_arg(v)}" for k, v in a.items()) + "}"
    if isinstance(a, slice):
        return f"slice({_code_arg(a.start)}, {_code_arg(a.stop)}, {_code_arg(a.step)})"
    if isinstance(a, _torch.dtype):
        return str(a)
    if a is Ellipsis:
        return "Ellipsis"
    return repr(a)


def _call_args(args: tuple, kwargs: dict) -> str:
    return ", ".join([_code_arg(a) for a in args] + [f"{k} = {_code_arg(v)}" for k, v in kwargs.items()])


def _module_path(root: str, target: str) -> str:
    expr = root
    for atom in target.split("."):
        expr = f"{expr}.{atom}" if atom.isidentifier() else f'getattr({expr}, "{atom}")'
    return expr


def _code_expr(node: Node, root: str, env: dict) -> str:
    t, args, kwargs = node.target, node.args, node.kwargs
    if node.op == "get_attr":
        return _module_path(root, t)
    if node.op == "call_module":
        return f"{_module_path(root, t)}({_call_args(args, kwargs)})"
    if node.op == "call_method":
        return f"{_code_arg(args[0])}.{t}({_call_args(args[1:], kwargs)})"
    name = getattr(t, "__name__", "")
    if t is getattr(operator, name, None) and not kwargs:
        if name in _BINARY and len(args) == 2:
            return f"{_code_arg(args[0])} {_BINARY[name]} {_code_arg(args[1])}"
        if name in _UNARY and len(args) == 1:
            return f"{_UNARY[name]}{_code_arg(args[0])}"
        if name == "getitem":
            return f"{_code_arg(args[0])}[{_code_arg(args[1])}]"
    if t is builtins.getattr and len(args) == 2 and isinstance(args[1], str) and args[1].isidentifier():
        return f"{_code_arg(args[0])}.{args[1]}"
    qual = _qualified_name(t)
    if not qual.startswith(("torch.", "operator.", "builtins.")):
        qual = f"_fx_fn_{len(env)}"
        env[qual] = t
    return f"{qual}({_call_args(args, kwargs)})"


class PythonCode:
    """The source of a graph's ``forward`` (``src``) and the globals it runs with.

    >>> PythonCode("def forward(self):\\n    return 1\\n", {}).src.startswith("def")
    True
    """

    def __init__(self, src: str, globals: dict[str, Any]) -> None:  # noqa: A002 - PyTorch's name
        self.src = src
        self.globals = globals


class Proxy:
    """A value of a program being traced: torch functions, methods and operators applied to
    it record nodes of the tracer's graph.

    >>> import fgrad.torch as torch
    >>> tracer = torch.fx.Tracer()
    >>> tracer.graph = torch.fx.Graph()
    >>> x = tracer.create_proxy("placeholder", "x", (), {})
    >>> (torch.sin(x) * 2).node.op
    'call_function'
    """

    def __init__(self, node: Node, tracer: Any | None = None) -> None:
        self.node = node
        self.tracer = tracer

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"

    def __getattr__(self, k: str) -> Attribute:
        if k.startswith("__") or k in ("node", "tracer"):
            raise AttributeError(k)
        return Attribute(self, k)

    def __call__(self, *args: Any, **kwargs: Any) -> Proxy:
        return self.tracer.create_proxy("call_method", "__call__", (self, *args), kwargs)

    def __iter__(self) -> Iterator[Any]:
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the Proxy is used in a "
                         "loop or as a *args or **kwargs function argument. See the torch.fx docs on "
                         "pytorch.org for a more detailed explanation of what types of control flow can be "
                         "traced, and check out the Proxy docstring for help troubleshooting Proxy iteration "
                         "errors")

    def __bool__(self) -> bool:
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def __len__(self) -> int:
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this call to "
                           "be recorded, please call torch.fx.wrap('len') at module scope")

    @classmethod
    def __torch_function__(cls, orig_method: Callable, types: Any, args: tuple = (),
                           kwargs: dict | None = None) -> Any:
        tracer = None
        _map_proxies((args, kwargs), lambda p: p.tracer)
        found: list = []
        _map_proxies((args, kwargs or {}), found.append)
        tracer = found[0].tracer
        if is_tensor_method_or_property(orig_method):
            return tracer.create_proxy("call_method", orig_method.__name__, args, kwargs or {})
        return tracer.create_proxy("call_function", orig_method, args, kwargs or {})


def _map_proxies(a: Any, fn: Callable[[Proxy], Any]) -> None:
    if isinstance(a, Proxy):
        fn(a)
    elif isinstance(a, (tuple, list)):
        for e in a:
            _map_proxies(e, fn)
    elif isinstance(a, dict):
        for e in a.values():
            _map_proxies(e, fn)


class Attribute(Proxy):
    """``proxy.name``: called, a ``call_method`` node; used as a value, a ``getattr`` node.

    >>> import fgrad.torch as torch
    >>> tracer = torch.fx.Tracer()
    >>> tracer.graph = torch.fx.Graph()
    >>> x = tracer.create_proxy("placeholder", "x", (), {})
    >>> x.relu().node.op, x.shape.node.op
    ('call_method', 'call_function')
    """

    def __init__(self, root: Proxy, attr: str) -> None:
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node: Node | None = None

    @property
    def node(self) -> Node:  # type: ignore[override]
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args: Any, **kwargs: Any) -> Proxy:
        return self.tracer.create_proxy("call_method", self.attr, (self.root, *args), kwargs)


def _magic(name: str, reflected: bool) -> Callable:
    fn = getattr(operator, name)

    def method(self: Proxy, *rest: Any) -> Proxy:
        args = (rest[0], self) if reflected else (self, *rest)
        return self.tracer.create_proxy("call_function", fn, args, {})

    return method


for _name in list(_BINARY) + ["getitem"]:
    _dunder = _name.rstrip("_")
    setattr(Proxy, f"__{_dunder}__", _magic(_name, False))
    if _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor",
                 "lshift", "rshift"):
        setattr(Proxy, f"__r{_dunder}__", _magic(_name, True))
for _name in _UNARY:
    setattr(Proxy, f"__{_name}__", _magic(_name, False))
Proxy.__hash__ = object.__hash__  # type: ignore[method-assign]


class Tracer:
    """Records a module's ``forward`` (or a function) as a `Graph`: `trace` runs it on
    proxies; `is_leaf_module` decides which submodules stay whole (``call_module``).

    >>> import fgrad.torch as torch
    >>> g = torch.fx.Tracer().trace(torch.nn.Sequential(torch.nn.ReLU()))
    >>> [n.op for n in g.nodes]
    ['placeholder', 'call_module', 'output']
    """

    def __init__(self, autowrap_modules: tuple = (math,),
                 autowrap_functions: tuple[Callable[..., Any], ...] = (),
                 param_shapes_constant: bool = False) -> None:
        self.graph = Graph()
        self.root: Module = Module()

    def create_arg(self, a: Any) -> Any:
        """``a`` with its proxies replaced by their nodes (parameters by ``get_attr`` nodes).

        >>> import fgrad.torch as torch
        >>> torch.fx.Tracer().create_arg((1, [2.0]))
        (1, [2.0])
        """
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, _torch.nn.Parameter):
            for name, p in self.root.named_parameters():
                if p is a:
                    return self.create_node("get_attr", name, (), {})
            raise NameError("parameter is not a submodule's parameter")
        if isinstance(a, tuple):
            items = [self.create_arg(e) for e in a]
            return type(a)(*items) if hasattr(a, "_fields") else tuple(items)
        if isinstance(a, list):
            return [self.create_arg(e) for e in a]
        if isinstance(a, dict):
            return {k: self.create_arg(v) for k, v in a.items()}
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        return a

    def create_node(self, kind: str, target: Any, args: tuple, kwargs: dict, name: str | None = None,
                    type_expr: Any | None = None) -> Node:
        """A node of the graph being traced.

        >>> import fgrad.torch as torch
        >>> torch.fx.Tracer().create_node("placeholder", "x", (), {}).name
        'x'
        """
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def create_proxy(self, kind: str, target: Any, args: tuple, kwargs: dict, name: str | None = None,
                     type_expr: Any | None = None,
                     proxy_factory_fn: Callable[[Node], Proxy] | None = None) -> Proxy:
        """A node for the call, wrapped in a `Proxy`.

        >>> import fgrad.torch as torch
        >>> t = torch.fx.Tracer()
        >>> t.create_proxy("placeholder", "x", (), {})
        Proxy(x)
        """
        node = self.create_node(kind, target, self.create_arg(args), self.create_arg(kwargs), name, type_expr)
        return Proxy(node, self) if proxy_factory_fn is None else proxy_factory_fn(node)

    def is_leaf_module(self, m: Module, module_qualified_name: str) -> bool:
        """Whether ``m`` is recorded as one ``call_module`` node (a ``torch.nn`` layer other
        than ``Sequential``) rather than traced through.

        >>> import fgrad.torch as torch
        >>> torch.fx.Tracer().is_leaf_module(torch.nn.ReLU(), "act")
        True
        """
        return type(m).__module__.startswith("fgrad.torch.nn") and not isinstance(m, _torch.nn.Sequential)

    def path_of_module(self, mod: Module) -> str:
        """The qualified name of the submodule ``mod`` of the traced root.

        >>> import fgrad.torch as torch
        >>> t = torch.fx.Tracer()
        >>> t.root = torch.nn.Sequential(torch.nn.ReLU())
        >>> t.path_of_module(t.root[0])
        '0'
        """
        for name, m in self.root.named_modules():
            if m is mod:
                return name
        raise NameError("module is not installed as a submodule")

    def call_module(self, m: Module, forward: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        """Record a call of submodule ``m``: a ``call_module`` node for a leaf module, else
        its ``forward`` traced through.

        >>> import fgrad.torch as torch
        >>> torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.Tanh())).graph.nodes[1].target
        '0'
        """
        path = self.path_of_module(m)
        if not self.is_leaf_module(m, path):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", path, args, kwargs)

    def trace(self, root: Module | Callable[..., Any], concrete_args: dict[str, Any] | None = None) -> Graph:
        """Run ``root`` (a module's ``forward``, or a function) on proxies and return the
        recorded graph.

        >>> import fgrad.torch as torch
        >>> len(torch.fx.Tracer().trace(lambda x: x + 1).nodes)
        3
        """
        if isinstance(root, Module):
            self.root, fn, bound = root, type(root).forward, (root,)
        else:
            self.root, fn, bound = Module(), root, ()
        self.graph = Graph(tracer_cls=type(self))
        concrete = concrete_args or {}
        args = []
        for name, p in list(inspect.signature(fn).parameters.items())[len(bound):]:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise NotImplementedError(f"fgrad.torch.fx: tracing a forward with *{name} is not supported")
            if name in concrete:
                args.append(concrete[name])
            elif p.default is not p.empty:
                args.append(self.create_proxy("placeholder", name, (p.default,), {}))
            else:
                args.append(self.create_proxy("placeholder", name, (), {}))
        tracer = self
        call, getattr_ = Module.__call__, Module.__getattr__
        cache: dict[str, Proxy] = {}

        def module_call(mod: Module, *a: Any, **k: Any) -> Any:
            return tracer.call_module(mod, mod.forward, a, k)

        def module_getattr(mod: Module, attr: str) -> Any:
            value = getattr_(mod, attr)
            if isinstance(value, _torch.nn.Parameter):
                for name, p in tracer.root.named_parameters():
                    if p is value:
                        if name not in cache:
                            cache[name] = tracer.create_proxy("get_attr", name, (), {})
                        return cache[name]
            return value

        Module.__call__, Module.__getattr__ = module_call, module_getattr  # type: ignore[method-assign]
        try:
            out = fn(*bound, *args)
        finally:
            Module.__call__, Module.__getattr__ = call, getattr_  # type: ignore[method-assign]
        self.create_node("output", "output", (self.create_arg(out),), {})
        return self.graph


class GraphModule(Module):
    """A module whose ``forward`` is the Python code generated from ``graph`` (``code``),
    holding the submodules and parameters of ``root`` that the graph reads; after editing
    ``graph``, `recompile`.

    >>> import fgrad.torch as torch
    >>> gm = torch.fx.symbolic_trace(lambda x: torch.relu(x) * 2)
    >>> gm(torch.tensor([-1.0, 3.0]))
    tensor([0., 6.])
    """

    def __init__(self, root: Module | dict[str, Any], graph: Graph, class_name: str = "GraphModule") -> None:
        super().__init__()
        self.__class__ = type(class_name, (GraphModule,), {})
        for node in graph.nodes:
            if node.op in ("get_attr", "call_module"):
                _copy_attr(root, self, node.target)
        self.graph = graph
        graph.owning_module = self
        self.recompile()

    def recompile(self) -> PythonCode:
        """Generate ``code`` and ``forward`` from ``graph`` again.

        >>> import operator
        >>> import fgrad.torch as torch
        >>> gm = torch.fx.symbolic_trace(lambda x: x + 1)
        >>> for n in gm.graph.nodes:
        ...     if n.target is operator.add:
        ...         n.target = operator.mul
        >>> _ = gm.recompile()
        >>> gm(torch.tensor([3.0]))
        tensor([3.])
        """
        code = self.graph.python_code("self")
        self.code = code.src
        scope = dict(code.globals)
        exec(compile(code.src, f"<eval_with_key>.{id(self)}", "exec"), scope)  # noqa: S102 - generated code
        type(self).forward = scope["forward"]
        return code


def _copy_attr(src: Any, dst: Module, target: str) -> None:
    *prefix, last = target.split(".")
    for atom in prefix:
        src = src[atom] if isinstance(src, dict) else getattr(src, atom)
        if atom not in dst._modules:
            dst.add_module(atom, Module())
        dst = getattr(dst, atom)
    value = src[last] if isinstance(src, dict) else getattr(src, last)
    if isinstance(value, Module):
        dst.add_module(last, value)
    elif isinstance(value, _torch.nn.Parameter):
        dst.register_parameter(last, value)
    elif isinstance(value, _torch.Tensor):
        dst.register_buffer(last, value)
    else:
        setattr(dst, last, value)


def symbolic_trace(root: Module | Callable[..., Any],
                   concrete_args: dict[str, Any] | None = None) -> GraphModule:
    """Trace ``root`` (a module or a function) into a `GraphModule`.

    >>> import fgrad.torch as torch
    >>> gm = torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()))
    >>> print(gm.code.strip())
    def forward(self, input):
        input_1 = input
        _0 = getattr(self, "0")(input_1);  input_1 = None
        _1 = getattr(self, "1")(_0);  _0 = None
        return _1
    """
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = type(root).__name__ if isinstance(root, Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
