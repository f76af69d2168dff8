"""Resumable training as in ImageNet-style training scripts: a checkpoint dict with the model,
optimizer, scheduler and GradScaler state_dicts, the epoch, the best metric and the RNG state,
torch.save to a file and torch.load(weights_only=True) (the default), the UnpicklingError for
an unknown class and torch.serialization.add_safe_globals / safe_globals, map_location, and a
resumed run that continues exactly like an uninterrupted one."""
# ruff: noqa: B007, E501  (written as the published program is)

import io
import os
import pickle
import tempfile
from dataclasses import dataclass

import torch
import torch.nn as nn


def make():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.2), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return model, opt, sched


data_gen = torch.Generator().manual_seed(123)
X = torch.randn(32, 4, generator=data_gen)
y = (X[:, 0] > 0).long()


def train_epoch(model, opt, sched):
    model.train()
    total = 0.0
    for i in range(0, 32, 8):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(X[i:i + 8]), y[i:i + 8])
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    return total / 4


model, opt, sched = make()
scaler = torch.amp.GradScaler("cpu", enabled=False)
for epoch in range(2):
    print(epoch, round(train_epoch(model, opt, sched), 5), sched.get_last_lr())
ckpt = {"epoch": 2, "model": model.state_dict(), "optimizer": opt.state_dict(), "scheduler": sched.state_dict(),
        "scaler": scaler.state_dict(), "best_acc": 0.75, "rng": torch.get_rng_state(), "note": "resnet-ish"}
path = os.path.join(tempfile.mkdtemp(), "checkpoint.pth.tar")
torch.save(ckpt, path)
print(sorted(ckpt["optimizer"]["state"][0]), ckpt["optimizer"]["param_groups"][0]["lr"])
print(ckpt["scheduler"])
print(ckpt["scaler"])
rest = [round(train_epoch(model, opt, sched), 5) for epoch in range(2, 4)]
print("uninterrupted", rest)

model2, opt2, sched2 = make()
loaded = torch.load(path)
print(sorted(loaded), loaded["epoch"], loaded["best_acc"], loaded["note"], loaded["rng"].dtype)
model2.load_state_dict(loaded["model"])
opt2.load_state_dict(loaded["optimizer"])
sched2.load_state_dict(loaded["scheduler"])
torch.set_rng_state(loaded["rng"])
print(opt2.param_groups[0]["lr"], sched2.last_epoch, sched2.get_last_lr())
print("resumed", [round(train_epoch(model2, opt2, sched2), 5) for epoch in range(2, 4)])
print(all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))


@dataclass
class RunConfig:
    lr: float
    layers: int


buf = io.BytesIO()
torch.save({"config": RunConfig(0.1, 3), "w": torch.ones(2)}, buf)
buf.seek(0)
try:
    torch.load(buf)
except pickle.UnpicklingError as e:
    msg = str(e)
    print("UnpicklingError", "Weights only load failed" in msg, "RunConfig" in msg, "add_safe_globals" in msg)
buf.seek(0)
print(torch.load(buf, weights_only=False)["config"])
buf.seek(0)
with torch.serialization.safe_globals([RunConfig]):
    print(torch.load(buf)["config"])
torch.serialization.add_safe_globals([RunConfig])
buf.seek(0)
print(torch.load(buf, map_location="cpu")["w"], RunConfig in torch.serialization.get_safe_globals())
sd = torch.load(path, map_location=torch.device("cpu"), weights_only=True)["model"]
print(list(sd), sd["0.weight"].shape)
