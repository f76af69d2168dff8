"""The nn.Module API as the "What is torch.nn really?" and model-surgery notebooks use it:
named_modules/named_children/named_buffers, register_buffer (persistent or not), state_dict
keys and load_state_dict(strict=False) results, get_submodule/get_parameter, requires_grad_
freezing, zero_grad(set_to_none), apply with a custom init, train/eval flags, dtype
conversion of a whole model, parameters_to_vector / vector_to_parameters, copy of weights
between models, replacing a layer in place, and a model surgery that keeps the outputs."""
# ruff: noqa: E501

import copy

import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.bn = nn.BatchNorm2d(c)
        self.register_buffer("scale", torch.tensor(0.5))
        self.register_buffer("cache", torch.zeros(1), persistent=False)

    def forward(self, x):
        return x + self.scale * torch.relu(self.bn(self.conv(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 4, 3)
        self.blocks = nn.Sequential(Block(4), Block(4))
        self.head = nn.Linear(4, 3)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(x.mean((2, 3)))


torch.manual_seed(0)
net = Net()
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print([(n, tuple(b.shape)) for n, b in net.named_buffers()])
print(list(net.state_dict().keys()))
print(net.get_submodule("blocks.1.bn"), net.get_parameter("blocks.0.conv.bias"))


def init_weights(m):
    if isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        if m.bias is not None:
            nn.init.constant_(m.bias, 0.01)
    elif isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight, gain=nn.init.calculate_gain("tanh"))
        nn.init.zeros_(m.bias)


net.apply(init_weights)
x = torch.randn(2, 1, 8, 8)
print(net(x))
net.eval()
print(net.training, net.blocks[0].bn.training, net(x))
net.train()
out = net(x)
print(net.blocks[0].bn.running_mean, net.blocks[1].bn.num_batches_tracked)

vec = parameters_to_vector(net.parameters())
print(vec.shape, vec[:5], vec.norm())
vector_to_parameters(vec * 0.5, net.parameters())
print(net.head.weight)

other = Net()
missing = other.load_state_dict({k: v for k, v in net.state_dict().items() if not k.startswith("head")}, strict=False)
print(missing)
print(missing.missing_keys, missing.unexpected_keys)
r = other.load_state_dict({**net.state_dict(), "extra.weight": torch.ones(1)}, strict=False)
print(r)
try:
    other.load_state_dict({"stem.weight": torch.ones(3)}, strict=True)
except RuntimeError as err:
    print(str(err).splitlines()[0])

net.stem.requires_grad_(False)
print([n for n, p in net.named_parameters() if p.requires_grad][:3])
loss = net(x).sum()
loss.backward()
print(net.stem.weight.grad, net.head.bias.grad)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, net.parameters()), lr=0.1)
opt.zero_grad(set_to_none=False)
print(net.head.bias.grad)
opt.zero_grad()
print(net.head.bias.grad)
net.zero_grad()

d = copy.deepcopy(net).double()
print(d.head.weight.dtype, d.blocks[0].scale.dtype, d.blocks[0].bn.num_batches_tracked.dtype)
print(d(x.double()).dtype)
hnet = copy.deepcopy(net).half()
print(hnet.head.weight.dtype, hnet.blocks[0].cache.dtype)

net.eval()
before = net(x)
net.head = nn.Sequential(nn.Identity(), copy.deepcopy(net.head))
after = net(x)
print(torch.allclose(before, after), net.head)
new_head = nn.Linear(4, 5)
with torch.no_grad():
    new_head.weight[:3] = net.head[1].weight
    new_head.bias[:3] = net.head[1].bias
    new_head.weight[3:] = 0
    new_head.bias[3:] = -1
net.head = new_head
print(net(x))
print(sum(p.numel() for p in net.parameters()), len(list(net.buffers())), len(net.state_dict()))
print(net.state_dict()["blocks.0.scale"], "blocks.0.cache" in net.state_dict())
sd = net.state_dict()
sd["head.bias"] += 1
print(net.head.bias)
sd2 = net.state_dict(keep_vars=True)
print(type(sd2["head.bias"]).__name__, sd2["head.bias"].requires_grad)
print(net.blocks[0].bn.state_dict().keys())
