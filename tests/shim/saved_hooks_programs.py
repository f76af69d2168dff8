"""PyTorch's tutorial "Hooks for autograd saved tensors" as programs, for PyTorch or
``fgrad.torch``: ``tutorial(torch)`` and ``counts(torch)`` return the lines they print
(`test_saved_tensor_hooks.py` compares them with PyTorch's, stored and live).  Regenerate the
stored lines with ``python tests/shim/saved_hooks_programs.py > tests/stored/torch_saved_hooks.json``
(needs PyTorch)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import uuid


def tutorial(torch) -> list:
    """The tutorial's code, in its order, with what it prints collected."""
    out = []

    def say(*a):
        out.append(" ".join(str(v) for v in a))

    nn = torch.nn
    torch.manual_seed(0)
    # saved tensors: y = a * b saves a and b
    a = torch.randn(5, requires_grad=True)
    b = torch.ones(5, requires_grad=True)
    y = a * b
    say(y.grad_fn._saved_self)
    say(y.grad_fn._saved_other)

    def f(x):
        return x * x

    x = torch.randn(5, requires_grad=True)
    y = f(f(f(x)))
    say(y.grad_fn._saved_self.equal(f(f(x))))
    # packing / unpacking: inputs come back as themselves, results as equal tensors
    a = torch.randn(5, requires_grad=True)
    b = torch.ones(5, requires_grad=True)
    y = a * b
    say(y.grad_fn._saved_self is a, y.grad_fn._saved_other is b)
    a = torch.randn(5, requires_grad=True)
    y = torch.exp(a)
    say(y.grad_fn._saved_result.equal(y), y.grad_fn._saved_result is y)

    def pack_hook(x):
        say("Packing", x)
        return x

    def unpack_hook(x):
        say("Unpacking", x)
        return x

    a = torch.ones(5, requires_grad=True)
    b = torch.ones(5, requires_grad=True) * 2
    with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        y = a * b
    y.sum().backward()

    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 4, lambda x: x / 4):
        y = torch.pow(x, 2)
    y.sum().backward()
    say(x.grad.equal(2 * x))

    # any Python object: an index into a list
    storage = []

    def pack(x):
        storage.append(x)
        return len(storage) - 1

    def unpack(x):
        return storage[x]

    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x * x
    y.sum().backward()
    say(x.grad.equal(2 * x))

    # a tuple with a closure
    def pack2(x):
        delta = torch.randn(*x.size())
        return x - delta, lambda x: x + delta

    def unpack2(packed):
        x, f = packed
        return f(x)

    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack2, unpack2):
        y = x * x
    y.sum().backward()
    say(torch.allclose(x.grad, 2 * x))

    # a str (the repr)
    x = torch.randn(5, requires_grad=True)
    env = {"torch": torch}
    with torch.autograd.graph.saved_tensors_hooks(lambda x: repr(x), lambda x: eval("torch." + x, env)):
        y = x * x
    y.sum().backward()
    say(bool(torch.all(x.grad - 2 * x <= 1e-4)))

    # saving to the CPU by hand, then with save_on_cpu
    def pack_cpu(x):
        return (x.device, x.cpu())

    def unpack_cpu(packed):
        device, tensor = packed
        return tensor.to(device)

    x = torch.randn(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack_cpu, unpack_cpu):
        y = x * x
    y.sum().backward()
    say(torch.allclose(x.grad, 2 * x))

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(5))

        def forward(self, x):
            with torch.autograd.graph.save_on_cpu(pin_memory=True):
                return self.w * x

    x = torch.randn(5)
    model = Model()
    loss = model(x).sum()
    loss.backward()
    say(model.w.grad.equal(x))

    class SaveToCpu(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, *args, **kwargs):
            with torch.autograd.graph.save_on_cpu(pin_memory=True):
                return self.module(*args, **kwargs)

    model = nn.Sequential(nn.Linear(10, 100), SaveToCpu(nn.Linear(100, 100)), nn.Linear(100, 10))
    x = torch.randn(10)
    loss = model(x).sum()
    loss.backward()
    say(f"{loss.item():.4f}", model[1].module.weight.grad.abs().sum().item() > 0)

    # saving to disk: a file deleted on unpack cannot be read twice
    tmp = tempfile.TemporaryDirectory()

    def pack_disk(tensor):
        name = os.path.join(tmp.name, str(uuid.uuid4()))
        torch.save(tensor, name)
        return name

    def unpack_disk(name):
        tensor = torch.load(name)
        os.remove(name)
        return tensor

    x = torch.ones(5, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack_disk, unpack_disk):
        y = x.pow(2)
    say(y.grad_fn._saved_self)
    try:
        say(y.grad_fn._saved_self)
        say("Double access succeeded!")
    except Exception:
        say("Double access failed!")

    # a file removed when the graph frees the packed value
    class SelfDeletingTempFile:
        def __init__(self):
            self.name = os.path.join(tmp.name, str(uuid.uuid4()))

        def __del__(self):
            os.remove(self.name)

    def pack_del(tensor):
        temp_file = SelfDeletingTempFile()
        torch.save(tensor, temp_file.name)
        return temp_file

    def unpack_del(temp_file):
        return torch.load(temp_file.name)

    threshold = 1000

    def pack_big(x):
        if x.numel() < threshold:
            return x
        return pack_del(x)

    def unpack_big(tensor_or_sctf):
        if isinstance(tensor_or_sctf, torch.Tensor):
            return tensor_or_sctf
        return unpack_del(tensor_or_sctf)

    class SaveToDisk(nn.Module):
        def __init__(self, module):
            super().__init__()
            self.module = module

        def forward(self, *args, **kwargs):
            with torch.autograd.graph.saved_tensors_hooks(pack_big, unpack_big):
                return self.module(*args, **kwargs)

    net = nn.DataParallel(SaveToDisk(nn.Linear(40, 40)))
    x = torch.randn(40, 40, requires_grad=True)
    loss = net(x).pow(2).sum()
    say("files while the graph lives:", len(os.listdir(tmp.name)))
    loss.backward()
    say("files after backward:", len(os.listdir(tmp.name)), f"{x.grad.abs().sum().item():.3f}")
    tmp.cleanup()
    return out


def counts(torch) -> list:
    """Pack and unpack calls (and the values they see) through custom Functions, double
    backward, retain_graph and nested hooks."""
    out = []
    log = []

    def pack(t):
        log.append(("pack", [round(v, 4) for v in t.detach().reshape(-1).tolist()]))
        return t

    def unpack(t):
        log.append(("unpack", [round(v, 4) for v in t.detach().reshape(-1).tolist()]))
        return t

    def flush(label):
        out.append(f"{label}: {log}")
        log.clear()

    class Mul(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            z = x * y
            ctx.save_for_backward(y, x, z)
            return z

        @staticmethod
        def backward(ctx, g):
            y, x, z = ctx.saved_tensors
            return g * y, g * x

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        z = Mul.apply(x, w)
        y = (z * x).sin()
    flush("forward")
    (gx,) = torch.autograd.grad(y.sum(), x, create_graph=True, retain_graph=True)
    flush("grad create_graph")
    out.append(f"gx {[round(v, 4) for v in gx.tolist()]}")
    gx.sum().backward(retain_graph=True)
    flush("double backward")
    out.append(f"x.grad {[round(v, 4) for v in x.grad.tolist()]} "
               f"w.grad {[round(v, 4) for v in w.grad.tolist()]}")
    y.sum().backward(retain_graph=True)
    flush("retain_graph again")
    # nested hooks: the innermost pair applies
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 2, lambda t: t / 2):
            v = x.exp() * w
        u = v.cos()
    flush("nested forward")
    u.sum().backward()
    flush("nested backward")
    out.append(f"x.grad {[round(v, 4) for v in x.grad.tolist()]}")
    # a raw saved tensor with its own hooks
    y = x.pow(3)
    y.grad_fn._raw_saved_self.register_hooks(pack, unpack)
    flush("register_hooks")
    s = y.grad_fn._saved_self
    flush("access")
    out.append(f"{s.requires_grad} {s.grad_fn} {s is x}")
    y.sum().backward()
    flush("backward")
    return out


if __name__ == "__main__":
    import torch

    json.dump({"tutorial": tutorial(torch), "counts": counts(torch)}, sys.stdout, indent=1)
    sys.stdout.write("\n")
