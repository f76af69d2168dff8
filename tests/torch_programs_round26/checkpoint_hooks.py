"""Activation checkpointing and hooks on a deep residual MLP: torch.utils.checkpoint (the
non-reentrant and the reentrant variants, checkpoint_sequential) gives the same loss and
gradients as the plain network while forward pre-hooks and forward hooks count the
recomputations; full backward hooks record gradient norms per block and a backward pre-hook
rescales one block's output gradient; retain_grad keeps an intermediate's gradient; a tensor
hook clips a gradient; hooks are removed by their handles; then the network is trained with
checkpointing on and gradient statistics from the hooks."""
# ruff: noqa: E501

import collections

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 2 * d)
        self.fc2 = nn.Linear(2 * d, d)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(self.norm(x))))


class Net(nn.Module):
    def __init__(self, d=8, depth=4, mode="none"):
        super().__init__()
        self.inp = nn.Linear(3, d)
        self.blocks = nn.ModuleList([Block(d) for _ in range(depth)])
        self.out = nn.Linear(d, 2)
        self.mode = mode

    def forward(self, x):
        h = self.inp(x)
        if self.mode == "sequential":
            h = checkpoint_sequential(nn.Sequential(*self.blocks), 2, h, use_reentrant=False)
        else:
            for b in self.blocks:
                if self.mode == "none":
                    h = b(h)
                else:
                    h = checkpoint(b, h, use_reentrant=self.mode == "reentrant")
        return self.out(h)


net = Net()
x = torch.randn(16, 3)
y = torch.randint(0, 2, (16,))
calls = collections.Counter()
pre_handles = [b.register_forward_pre_hook(lambda m, inp, i=i: calls.update([f"pre{i}"])) for i, b in enumerate(net.blocks)]
fwd_handles = [b.register_forward_hook(lambda m, inp, out, i=i: calls.update([f"fwd{i}"])) for i, b in enumerate(net.blocks)]
results = {}
for mode in ["none", "nonreentrant", "reentrant", "sequential"]:
    net.mode = mode
    calls.clear()
    net.zero_grad()
    loss = F.cross_entropy(net(x), y)
    after_forward = sum(v for k, v in calls.items() if k.startswith("fwd"))
    loss.backward()
    total = sum(v for k, v in calls.items() if k.startswith("fwd"))
    results[mode] = (loss.item(), [p.grad.clone() for p in net.parameters()])
    print(f"{mode:13s} loss {loss.item():.12f} block forwards: {after_forward} in forward, {total - after_forward} recomputed in backward")
ref = results["none"][1]
for mode in ["nonreentrant", "reentrant", "sequential"]:
    print(mode, "gradients equal plain:", all(torch.allclose(a, b, atol=1e-13) for a, b in zip(ref, results[mode][1])))
for h in pre_handles + fwd_handles:
    h.remove()
net.mode = "none"
calls.clear()
net(x)
print("after remove, hook calls:", sum(calls.values()))

# a forward pre-hook that changes the input, a forward hook that changes the output
h1 = net.out.register_forward_pre_hook(lambda m, inp: (inp[0] * 0.5,))
h2 = net.out.register_forward_hook(lambda m, inp, out: out - out.mean(-1, keepdim=True))
o = net(x)
print("hooked output rows sum to zero:", o.sum(-1).abs().max().item() < 1e-13, f"| o[0] {o[0].tolist()[0]:.10f}")
h1.remove()
h2.remove()

# full backward hooks and a backward pre-hook
grad_norms = {}
bh = [b.register_full_backward_hook(lambda m, gin, gout, i=i: grad_norms.__setitem__(i, (gin[0].norm().item(), gout[0].norm().item()))) for i, b in enumerate(net.blocks)]
bp = net.blocks[3].register_full_backward_pre_hook(lambda m, gout: (gout[0] * 2,))
net.zero_grad()
h = net.inp(x)
h.retain_grad()
for b in net.blocks:
    h2 = b(h) if b is not net.blocks[0] else b(h)
    h = h2
h.register_hook(lambda g: g.clamp(-0.01, 0.01))
logits = net.out(h)
loss = F.cross_entropy(logits, y)
loss.backward()
for i in sorted(grad_norms):
    gi, go = grad_norms[i]
    print(f"block {i} |grad in| {gi:.10f} |grad out| {go:.10f}")
print(f"retained grad of the input layer's output: {net.inp.weight.grad.norm().item():.10f}")
for hnd in bh + [bp]:
    hnd.remove()

# training with checkpointing, gradient norms gathered by hooks on the parameters
net = Net(mode="nonreentrant")
sq = collections.defaultdict(float)
for name, p in net.named_parameters():
    p.register_hook(lambda g, name=name: sq.__setitem__(name.split(".")[0], sq[name.split(".")[0]] + g.pow(2).sum().item()) or None)
opt = torch.optim.AdamW(net.parameters(), lr=3e-3)
X = torch.randn(256, 3)
Y = ((X[:, 0] * X[:, 1] + X[:, 2]) > 0).long()
for epoch in range(1, 61):
    sq.clear()
    loss = F.cross_entropy(net(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        acc = (net(X).argmax(1) == Y).double().mean().item()
        print(f"epoch {epoch} loss {loss.item():.8f} acc {acc:.4f} grad norms " + " ".join(f"{k}={v ** 0.5:.6f}" for k, v in sorted(sq.items())))
