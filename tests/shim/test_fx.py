"""`fgrad.torch.fx`: symbolic tracing of module forwards into graphs, their text
(``print(gm.graph)``, ``gm.code``), running the `GraphModule`, and the "fx graph mode"
tutorial edits (replace an op, count nodes).  The scenario's lines are PyTorch 2.13's
(stored), compared with live PyTorch when it is installed."""

from __future__ import annotations

import operator

import pytest

import fgrad.torch as ft


def scenario(torch):
    if not hasattr(torch, "fx"):
        import torch.fx  # noqa: F401 - PyTorch loads torch.fx on import too; explicit for clarity

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = torch.nn.Linear(3, 4)
            self.w = torch.nn.Parameter(torch.ones(4))
            self.seq = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(4, 4))

        def forward(self, x, scale=2.0):
            y = torch.relu(self.linear(x)) + self.w
            y = self.seq(y)
            z = torch.sigmoid(y).sum(dim=-1) * scale
            return -z[0], y.shape, y.reshape(-1).mean()

    torch.manual_seed(0)
    gm = torch.fx.symbolic_trace(M())
    out = [str(gm.graph), gm.code, type(gm).__name__]
    x = torch.randn(2, 3)
    neg, shape, mean = gm(x)
    out += [round(neg.detach().item(), 4), tuple(shape), round(mean.detach().item(), 4)]
    out.append([n.op for n in gm.graph.nodes])
    out.append(sum(n.op == "call_module" for n in gm.graph.nodes))
    for n in gm.graph.nodes:  # replace every add by a mul
        if n.op == "call_function" and n.target is operator.add:
            with gm.graph.inserting_after(n):
                new = gm.graph.call_function(torch.mul, n.args)
            n.replace_all_uses_with(new)
            gm.graph.erase_node(n)
    gm.graph.lint()
    gm.recompile()
    out += [str(gm.graph), gm.code, round(gm(x)[2].detach().item(), 4)]
    seq = torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()))
    out += [str(seq.graph), seq.code]
    fn = torch.fx.symbolic_trace(lambda a, b: torch.cat([a, b], 1).t() @ a)
    out += [str(fn.graph), fn.code]
    g = torch.fx.Graph()
    out += [g.get_attr("linear.weight").name, g.call_method("sum").name, g.call_module("layers.0").name]
    try:
        first = next(iter(fn.graph.nodes))
        fn.graph.erase_node(first)
    except RuntimeError as e:
        out.append(f"RuntimeError: {e}")
    return out


def _text(*lines):
    return "\n".join(lines)


TORCH = [  # torch 2.13 (CPU); multi-line texts as lists of lines
    _text(
        'graph():',
        '    %x : [num_users=1] = placeholder[target=x]',
        '    %scale : [num_users=1] = placeholder[target=scale](default=2.0)',
        '    %linear : [num_users=1] = call_module[target=linear](args = (%x,), kwargs = {})',
        '    %relu : [num_users=1] = call_function[target=torch.relu](args = (%linear,), kwargs = {})',
        '    %w : [num_users=1] = get_attr[target=w]',
        '    %add : [num_users=1] = call_function[target=operator.add](args = (%relu, %w), kwargs = {})',
        '    %seq_0 : [num_users=1] = call_module[target=seq.0](args = (%add,), kwargs = {})',
        '    %seq_1 : [num_users=3] = call_module[target=seq.1](args = (%seq_0,), kwargs = {})',
        '    %sigmoid : [num_users=1] = call_function[target=torch.sigmoid](args = (%seq_1,), kwargs = {})',
        '    %sum_1 : [num_users=1] = call_method[target=sum](args = (%sigmoid,), kwargs = {dim: -1})',
        '    %mul : [num_users=1] = call_function[target=operator.mul](args = (%sum_1, %scale), kwargs = {})',
        '    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%mul, 0), '
        'kwargs = {})',
        '    %neg : [num_users=1] = call_function[target=operator.neg](args = (%getitem,), kwargs = {})',
        '    %reshape : [num_users=1] = call_method[target=reshape](args = (%seq_1, -1), kwargs = {})',
        '    %mean : [num_users=1] = call_method[target=mean](args = (%reshape,), kwargs = {})',
        '    %getattr_1 : [num_users=1] = call_function[target=builtins.getattr](args = (%seq_1, shape), '
        'kwargs = {})',
        '    return (neg, getattr_1, mean)',
    ),
    _text(
        '',
        '',
        '',
        'def forward(self, x, scale = 2.0):',
        '    linear = self.linear(x);  x = None',
        '    relu = torch.relu(linear);  linear = None',
        '    w = self.w',
        '    add = relu + w;  relu = w = None',
        '    seq_0 = getattr(self.seq, "0")(add);  add = None',
        '    seq_1 = getattr(self.seq, "1")(seq_0);  seq_0 = None',
        '    sigmoid = torch.sigmoid(seq_1)',
        '    sum_1 = sigmoid.sum(dim = -1);  sigmoid = None',
        '    mul = sum_1 * scale;  sum_1 = scale = None',
        '    getitem = mul[0];  mul = None',
        '    neg = -getitem;  getitem = None',
        '    reshape = seq_1.reshape(-1)',
        '    mean = reshape.mean();  reshape = None',
        '    getattr_1 = seq_1.shape;  seq_1 = None',
        '    return (neg, getattr_1, mean)',
        '    ',
    ),
    'M',
    -3.7219,
    (2, 4),
    -0.1717,
    [
        'placeholder', 'placeholder', 'call_module', 'call_function', 'get_attr', 'call_function',
        'call_module', 'call_module', 'call_function', 'call_method', 'call_function', 'call_function',
        'call_function', 'call_method', 'call_method', 'call_function', 'output',
    ],
    3,
    _text(
        'graph():',
        '    %x : [num_users=1] = placeholder[target=x]',
        '    %scale : [num_users=1] = placeholder[target=scale](default=2.0)',
        '    %linear : [num_users=1] = call_module[target=linear](args = (%x,), kwargs = {})',
        '    %relu : [num_users=1] = call_function[target=torch.relu](args = (%linear,), kwargs = {})',
        '    %w : [num_users=1] = get_attr[target=w]',
        '    %mul_1 : [num_users=1] = call_function[target=torch.mul](args = (%relu, %w), kwargs = {})',
        '    %seq_0 : [num_users=1] = call_module[target=seq.0](args = (%mul_1,), kwargs = {})',
        '    %seq_1 : [num_users=3] = call_module[target=seq.1](args = (%seq_0,), kwargs = {})',
        '    %sigmoid : [num_users=1] = call_function[target=torch.sigmoid](args = (%seq_1,), kwargs = {})',
        '    %sum_1 : [num_users=1] = call_method[target=sum](args = (%sigmoid,), kwargs = {dim: -1})',
        '    %mul : [num_users=1] = call_function[target=operator.mul](args = (%sum_1, %scale), kwargs = {})',
        '    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%mul, 0), '
        'kwargs = {})',
        '    %neg : [num_users=1] = call_function[target=operator.neg](args = (%getitem,), kwargs = {})',
        '    %reshape : [num_users=1] = call_method[target=reshape](args = (%seq_1, -1), kwargs = {})',
        '    %mean : [num_users=1] = call_method[target=mean](args = (%reshape,), kwargs = {})',
        '    %getattr_1 : [num_users=1] = call_function[target=builtins.getattr](args = (%seq_1, shape), '
        'kwargs = {})',
        '    return (neg, getattr_1, mean)',
    ),
    _text(
        '',
        '',
        '',
        'def forward(self, x, scale = 2.0):',
        '    linear = self.linear(x);  x = None',
        '    relu = torch.relu(linear);  linear = None',
        '    w = self.w',
        '    mul_1 = torch.mul(relu, w);  relu = w = None',
        '    seq_0 = getattr(self.seq, "0")(mul_1);  mul_1 = None',
        '    seq_1 = getattr(self.seq, "1")(seq_0);  seq_0 = None',
        '    sigmoid = torch.sigmoid(seq_1)',
        '    sum_1 = sigmoid.sum(dim = -1);  sigmoid = None',
        '    mul = sum_1 * scale;  sum_1 = scale = None',
        '    getitem = mul[0];  mul = None',
        '    neg = -getitem;  getitem = None',
        '    reshape = seq_1.reshape(-1)',
        '    mean = reshape.mean();  reshape = None',
        '    getattr_1 = seq_1.shape;  seq_1 = None',
        '    return (neg, getattr_1, mean)',
        '    ',
    ),
    -0.3132,
    _text(
        'graph():',
        '    %input_1 : [num_users=1] = placeholder[target=input]',
        '    %_0 : [num_users=1] = call_module[target=0](args = (%input_1,), kwargs = {})',
        '    %_1 : [num_users=1] = call_module[target=1](args = (%_0,), kwargs = {})',
        '    return _1',
    ),
    _text(
        '',
        '',
        '',
        'def forward(self, input):',
        '    input_1 = input',
        '    _0 = getattr(self, "0")(input_1);  input_1 = None',
        '    _1 = getattr(self, "1")(_0);  _0 = None',
        '    return _1',
        '    ',
    ),
    _text(
        'graph():',
        '    %a : [num_users=2] = placeholder[target=a]',
        '    %b : [num_users=1] = placeholder[target=b]',
        '    %cat : [num_users=1] = call_function[target=torch.cat](args = ([%a, %b], 1), kwargs = {})',
        '    %t : [num_users=1] = call_method[target=t](args = (%cat,), kwargs = {})',
        '    %matmul : [num_users=1] = call_function[target=operator.matmul](args = (%t, %a), kwargs = {})',
        '    return matmul',
    ),
    _text(
        '',
        '',
        '',
        'def forward(self, a, b):',
        '    cat = torch.cat([a, b], 1);  b = None',
        '    t = cat.t();  cat = None',
        '    matmul = t @ a;  t = a = None',
        '    return matmul',
        '    ',
    ),
    'linear_weight',
    'sum_1',
    'layers_0',
    'RuntimeError: Tried to erase Node a but it still had 2 users in the graph: {cat: None, matmul: None}!',
]


def test_matches_stored_torch():
    assert scenario(ft) == TORCH


def test_live_torch():
    torch = pytest.importorskip("torch")
    assert scenario(torch) == TORCH


def test_control_flow_on_a_proxy_raises():
    def f(x):
        return x if x.sum() > 0 else -x

    with pytest.raises(ft.fx.TraceError, match="control flow"):
        ft.fx.symbolic_trace(f)
