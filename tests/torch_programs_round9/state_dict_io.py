"""Checkpointing as in PyTorch's "Saving and loading models" tutorial: state_dict round trips
through torch.save/torch.load on a BytesIO, optimizer and scheduler state, resuming training,
load_state_dict(strict=False) results, buffers, and partial (transfer) loading."""

import io
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(
            1, 3, 3, bias=False
        )  # (a bias before BatchNorm: Adam amplifies its ~0 gradient)
        self.bn = nn.BatchNorm2d(3)
        self.fc = nn.Linear(3 * 4 * 4, 4)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.register_buffer("scratch", torch.ones(2), persistent=False)

    def forward(self, x):
        self.steps += 1
        return self.fc(torch.relu(self.bn(self.conv(x))).flatten(1))


def train(model, opt, sched, n):
    for _ in range(n):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(X), Y)
        loss.backward()
        opt.step()
        sched.step()
    return loss.item()


X, Y = torch.randn(8, 1, 6, 6), torch.randint(0, 4, (8,))
model = Net()
opt = optim.Adam(model.parameters(), lr=1e-2)
sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
print("loss after 3:", f"{train(model, opt, sched, 3):.5f}")
print(list(model.state_dict().keys()))
for k, v in model.state_dict().items():
    print(f"{k:24s} {str(tuple(v.shape)):14s} {v.dtype}")
osd = opt.state_dict()
print(
    osd["param_groups"][0]["lr"], sorted(osd["param_groups"][0].keys())[:6], osd["param_groups"][0]["params"]
)
print(sorted(osd["state"][0].keys()), osd["state"][0]["step"])

buf = io.BytesIO()
torch.save(
    {
        "epoch": 3,
        "model_state_dict": model.state_dict(),
        "optimizer_state_dict": opt.state_dict(),
        "scheduler": sched.state_dict(),
        "loss": 0.5,
        "note": "ckpt",
    },
    buf,
)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print(sorted(ckpt.keys()), ckpt["epoch"], ckpt["note"], type(ckpt["model_state_dict"]).__name__)

model2 = Net()
opt2 = optim.Adam(model2.parameters(), lr=1e-2)
sched2 = optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5)
print(model2.load_state_dict(ckpt["model_state_dict"]))
opt2.load_state_dict(ckpt["optimizer_state_dict"])
sched2.load_state_dict(ckpt["scheduler"])
print(model2.steps, model2.bn.num_batches_tracked, sched2.get_last_lr())
a = train(model, opt, sched, 3)
b = train(model2, opt2, sched2, 3)
print(f"resumed: {a:.5f} {b:.5f} same={a == b}")
print(torch.equal(model.fc.weight, model2.fc.weight))

# strict=False and partial loading
sd = OrderedDict((k, v) for k, v in model.state_dict().items() if not k.startswith("fc"))
sd["extra.weight"] = torch.zeros(1)
res = Net().load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    Net().load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0])
bad = dict(model.state_dict())
bad["fc.weight"] = torch.zeros(5, 48)
try:
    Net().load_state_dict(bad)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())

# whole tensors, views and dtypes survive
buf = io.BytesIO()
base = torch.arange(12, dtype=torch.float64).reshape(3, 4)
torch.save([base, base[1], torch.tensor([1, 2], dtype=torch.int16), torch.tensor(True)], buf)
buf.seek(0)
t = torch.load(buf)
print(t[0].dtype, t[1], t[2], t[3])
model.eval()
with torch.no_grad():
    print(model(X[:2]))
