"""Weight initialisation and random numbers as in research code that must be reproducible:
nn.init (uniform_, normal_, xavier_uniform_/normal_ with gain, kaiming_uniform_/normal_ fan_in
and fan_out, trunc_normal_, orthogonal_, sparse_, dirac_, eye_, constant_, zeros_), default
initialisations of Linear/Conv2d/Embedding/LSTM/LayerNorm under a seed, torch.Generator
objects, get_rng_state/set_rng_state, torch.random.fork_rng, randperm, randint, bernoulli,
poisson, normal with tensor arguments, multinomial without replacement, rand_like, and
dropout masks."""
# ruff: noqa: B007, E501  (written as the published program is)

import math

import torch
import torch.nn as nn

torch.manual_seed(42)
torch.set_printoptions(precision=4)
w = torch.empty(3, 5)
print(nn.init.uniform_(w, -0.1, 0.1))
print(nn.init.normal_(w, 0.0, 0.02))
print(nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu")))
print(nn.init.xavier_normal_(w))
print(nn.init.kaiming_uniform_(w, a=math.sqrt(5)))
print(nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
print(nn.init.trunc_normal_(w, std=0.02, a=-0.04, b=0.04))
print(nn.init.orthogonal_(torch.empty(3, 5), gain=2.0))
print(nn.init.sparse_(torch.empty(4, 3), sparsity=0.5))
print(nn.init.dirac_(torch.empty(2, 2, 3))[:, :, 1])
print(nn.init.eye_(torch.empty(2, 3)), nn.init.constant_(torch.empty(2), 0.3), nn.init.zeros_(torch.empty(2)))
print([nn.init.calculate_gain(n) for n in ["linear", "tanh", "leaky_relu", "selu"]], nn.init.calculate_gain("leaky_relu", 0.2))

torch.manual_seed(0)
lin, conv, emb, ln = nn.Linear(4, 3), nn.Conv2d(2, 3, 3), nn.Embedding(5, 2), nn.LayerNorm(3)
lstm = nn.LSTM(2, 3)
print(lin.weight, lin.bias)
print(conv.weight[0, 0], conv.bias)
print(emb.weight[:2], ln.weight, ln.bias)
print(lstm.weight_hh_l0[:2], lstm.bias_ih_l0[:4])

g = torch.Generator().manual_seed(7)
print(torch.rand(3, generator=g), torch.randn(2, generator=g), g.initial_seed())
state = g.get_state()
a = torch.randint(0, 10, (5,), generator=g)
g.set_state(state)
print(a, torch.equal(a, torch.randint(0, 10, (5,), generator=g)))
s = torch.get_rng_state()
r1 = torch.rand(2)
torch.set_rng_state(s)
print(torch.equal(r1, torch.rand(2)))
with torch.random.fork_rng():
    torch.manual_seed(999)
    inside = torch.rand(1)
print(inside, torch.rand(1))
torch.manual_seed(3)
print(torch.randperm(8), torch.randint(-3, 3, (2, 3)), torch.randint(5, (4,), dtype=torch.int32))
print(torch.bernoulli(torch.full((6,), 0.3)), torch.bernoulli(torch.tensor([0.0, 1.0]), 0.5))
print(torch.poisson(torch.tensor([1.0, 4.0, 10.0])))
print(torch.normal(torch.tensor([0.0, 10.0]), torch.tensor([1.0, 0.1])), torch.normal(2.0, 3.0, (3,)))
print(torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.4]), 3), torch.multinomial(torch.tensor([[1.0, 1.0, 8.0]]), 2))
print(torch.rand_like(torch.zeros(2, 2)), torch.randn_like(torch.zeros(3, dtype=torch.float64)), torch.randint_like(torch.zeros(3), 100))
print(torch.empty(4).uniform_(2, 3), torch.empty(3).normal_(), torch.empty(3).exponential_(), torch.empty(4).geometric_(0.5))
print(torch.empty(3).log_normal_(), torch.empty(3).cauchy_(), torch.empty(5).random_(0, 4), torch.empty(4).bernoulli_(0.5))
drop = nn.Dropout(0.5)
print(drop(torch.ones(8)), nn.functional.dropout(torch.ones(2, 4), 0.25, training=True))
print(nn.AlphaDropout(0.2)(torch.ones(5)), nn.Dropout2d(0.5)(torch.ones(1, 4, 1, 1)).flatten())
print(torch.seed() > 0, torch.initial_seed() != 3)
