"""State-dict extension points and the meta device as the nn.Module recipes show them:
register_state_dict_pre_hook / _register_state_dict_hook / register_load_state_dict_post_hook
(renaming keys, reporting incompatible keys), load_state_dict(assign=True) keeping the
loaded tensors, building a model on the meta device and materialising it with to_empty +
reset_parameters, torch.save/torch.load of a full checkpoint (model, optimizer, epoch,
loss) with weights_only, mmap-free BytesIO round trips, and a partial load with a key
remapping."""
# ruff: noqa: E501

import io

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(list(model.state_dict().keys()))
calls = []
model.register_state_dict_pre_hook(lambda module, prefix, keep_vars: calls.append(("pre", prefix)))
sd = model.state_dict()
print(calls)


def post_load(module, incompatible_keys):
    print("post-load hook:", sorted(incompatible_keys.missing_keys), sorted(incompatible_keys.unexpected_keys))
    incompatible_keys.unexpected_keys.clear()


h = model.register_load_state_dict_post_hook(post_load)
res = model.load_state_dict({**sd, "extra": torch.zeros(1)}, strict=False)
print(res)
res2 = model.load_state_dict({**sd, "extra": torch.zeros(1)})
print(res2)
h.remove()

new = {k: torch.full_like(v, 0.5) for k, v in sd.items()}
kept = new["0.weight"]
model.load_state_dict(new, assign=True)
print(model[0].weight is kept, type(model[0].weight).__name__, model[0].weight.requires_grad, model[0].weight[0])
model.load_state_dict(sd)
print(model[0].weight is kept, model[0].weight.data_ptr() == kept.data_ptr(), kept[0])

with torch.device("meta"):
    meta_model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2))
print(meta_model[0].weight.shape, meta_model[0].weight.is_meta)  # .device: see docs
out = meta_model(torch.empty(5, 3, device="meta"))
print(out.shape)
meta_model.to_empty(device="cpu")
torch.manual_seed(1)
for m in meta_model.modules():
    if hasattr(m, "reset_parameters"):
        m.reset_parameters()
print(meta_model[0].weight, meta_model[1].weight, meta_model(torch.ones(1, 3)))
m2 = nn.Linear(3, 4, device="meta")
m2.load_state_dict(model[0].state_dict(), assign=True)
print(m2.weight.is_meta, m2(torch.ones(1, 3)))

opt = torch.optim.Adam(model.parameters(), lr=0.01)
x, y = torch.randn(8, 3), torch.randn(8, 2)
for _ in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
buf = io.BytesIO()
torch.save({"epoch": 3, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(), "loss": loss}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(sorted(ck), ck["epoch"], ck["loss"], ck["optimizer_state_dict"]["param_groups"][0]["lr"], ck["optimizer_state_dict"]["state"][0]["step"])
model_b = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
opt_b = torch.optim.Adam(model_b.parameters(), lr=0.5)
model_b.load_state_dict(ck["model_state_dict"])
opt_b.load_state_dict(ck["optimizer_state_dict"])
for mm, oo in [(model, opt), (model_b, opt_b)]:
    oo.zero_grad()
    nn.functional.mse_loss(mm(x), y).backward()
    oo.step()
print(torch.equal(model[2].weight, model_b[2].weight), model_b[2].weight, opt_b.param_groups[0]["lr"])


class Renamed(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(3, 4)
        self.head = nn.Linear(4, 2)


r = Renamed()
mapping = {"0.": "encoder.", "2.": "head."}
remapped = {}
for k, v in model.state_dict().items():
    for old, newp in mapping.items():
        if k.startswith(old):
            remapped[newp + k[len(old):]] = v
print(r.load_state_dict(remapped), torch.equal(r.head.bias, model[2].bias))
buf2 = io.BytesIO()
torch.save([torch.arange(3), {"a": (1, 2.5, "s")}, torch.tensor([1.5], dtype=torch.float64)], buf2)
buf2.seek(0)
print(torch.load(buf2))
