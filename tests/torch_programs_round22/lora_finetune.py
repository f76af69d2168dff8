"""LoRA fine-tuning (Hu et al. 2021, the loralib / PEFT recipe): a pretrained MLP classifier
whose Linear layers are swapped for LoRA wrappers by named_modules + set_submodule, the base
weights frozen with requires_grad_(False), only the low-rank A/B matrices trained (B zero-
initialised so the start is the base model, A kaiming_uniform_), scaling alpha / r, merging the
update into the base weight for inference and unmerging, saving only the adapter state_dict to
a BytesIO with torch.save and loading it with weights_only=True into a fresh model, and the same
adapter written as a torch.nn.utils.parametrize parametrization."""
# ruff: noqa: E501

import io
import math

import torch
import torch.nn.functional as F
import torch.nn.utils.parametrize as parametrize
from torch import nn

torch.manual_seed(0)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8, dropout=0.0):
        super().__init__()
        self.base = base
        self.r, self.scaling = r, alpha / r
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r))
        self.dropout = nn.Dropout(dropout) if dropout > 0 else nn.Identity()
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.merged = False

    def forward(self, x):
        out = self.base(x)
        if not self.merged:
            out = out + (self.dropout(x) @ self.lora_A.T @ self.lora_B.T) * self.scaling
        return out

    @torch.no_grad()
    def merge(self):
        if not self.merged:
            self.base.weight += (self.lora_B @ self.lora_A) * self.scaling
            self.merged = True

    @torch.no_grad()
    def unmerge(self):
        if self.merged:
            self.base.weight -= (self.lora_B @ self.lora_A) * self.scaling
            self.merged = False

    def extra_repr(self):
        return f"r={self.r}, scaling={self.scaling}"


def build_model():
    return nn.Sequential(nn.Linear(6, 32), nn.GELU(), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 3))


def add_lora(model, r=4, alpha=8, targets=("2", "4")):
    for name, module in list(model.named_modules()):
        if isinstance(module, nn.Linear) and name in targets:
            model.set_submodule(name, LoRALinear(module, r, alpha))
    for n, p in model.named_parameters():
        p.requires_grad_("lora_" in n)
    return model


def lora_state_dict(model):
    return {k: v for k, v in model.state_dict().items() if "lora_" in k}


gen = torch.Generator().manual_seed(0)
X = torch.randn(240, 6, generator=gen)
W_true = torch.randn(6, 3, generator=gen)
y_pre = (X @ W_true).argmax(1)
y_new = (X @ W_true + 1.5 * X[:, :1] * torch.tensor([1.0, -1.0, 0.0])).argmax(1)
print("label shift", (y_pre != y_new).float().mean().item())

base = build_model()
opt = torch.optim.Adam(base.parameters(), lr=1e-2)
for _ in range(60):
    loss = F.cross_entropy(base(X), y_pre)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    print(f"pretrained loss {loss.item():.4f} acc old {(base(X).argmax(1) == y_pre).float().mean().item():.4f} new {(base(X).argmax(1) == y_new).float().mean().item():.4f}")
base_sd = {k: v.clone() for k, v in base.state_dict().items()}

model = add_lora(build_model())
missing = model.load_state_dict({k.replace("2.", "2.base.").replace("4.", "4.base."): v for k, v in base_sd.items()}, strict=False)
print("missing", sorted(missing.missing_keys), "unexpected", missing.unexpected_keys)
print(model[2])
print("trainable", sum(p.numel() for p in model.parameters() if p.requires_grad), "of", sum(p.numel() for p in model.parameters()))
print("trainable names", [n for n, p in model.named_parameters() if p.requires_grad])
with torch.no_grad():
    print("starts at base", torch.allclose(model(X), base(X)))

opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2, weight_decay=0.0)
for ep in range(80):
    loss = F.cross_entropy(model(X), y_new)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if ep % 20 == 0 or ep == 79:
        print(f"ep {ep:2d} loss {loss.item():.4f} base grad {model[0].weight.grad is None} B norm {model[2].lora_B.norm().item():.4f}")
with torch.no_grad():
    logits = model(X)
    print(f"adapted acc new {(logits.argmax(1) == y_new).float().mean().item():.4f}")
    frozen_same = all(torch.equal(model[0].state_dict()[k], base_sd["0." + k]) for k in ("weight", "bias"))
    print("frozen layer unchanged", frozen_same)
    model[2].merge()
    model[4].merge()
    print("merged same", torch.allclose(model(X), logits, atol=1e-5), model[2].merged)
    delta = model[4].base.weight - base_sd["4.weight"]
    print("update rank", torch.linalg.matrix_rank(delta).item(), "svals", [round(v, 4) for v in torch.linalg.svdvals(delta)[:5].tolist()])
    model[2].unmerge()
    model[4].unmerge()
    print("unmerged back", torch.allclose(model[4].base.weight, base_sd["4.weight"], atol=1e-6))

buf = io.BytesIO()
torch.save(lora_state_dict(model), buf)
buf.seek(0)
adapter = torch.load(buf, weights_only=True)
print("adapter keys", list(adapter.keys()), [tuple(v.shape) for v in adapter.values()])
fresh = add_lora(build_model())
fresh.load_state_dict(base_sd | {}, strict=False)
for k, v in base_sd.items():
    parts = k.split(".")
    target = fresh.get_submodule(parts[0])
    target = target.base if isinstance(target, LoRALinear) else target
    getattr(target, parts[1]).data.copy_(v)
fresh.load_state_dict(adapter, strict=False)
with torch.no_grad():
    print("reloaded same", torch.allclose(fresh(X), logits, atol=1e-6))


class LoRAParametrization(nn.Module):
    def __init__(self, out_f, in_f, r=4, alpha=8):
        super().__init__()
        self.lora_A = nn.Parameter(torch.randn(r, in_f) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(out_f, r))
        self.scaling = alpha / r

    def forward(self, W):
        return W + (self.lora_B @ self.lora_A) * self.scaling


torch.manual_seed(1)
pm = build_model()
pm.load_state_dict(base_sd)
for idx in (2, 4):
    lin = pm[idx]
    parametrize.register_parametrization(lin, "weight", LoRAParametrization(lin.out_features, lin.in_features))
for n, p in pm.named_parameters():
    p.requires_grad_("lora_" in n)
print("parametrized keys", [k for k in pm.state_dict() if "parametrizations" in k])
opt = torch.optim.Adam([p for p in pm.parameters() if p.requires_grad], lr=1e-2)
for _ in range(40):
    loss = F.cross_entropy(pm(X), y_new)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"parametrize loss {loss.item():.4f}")
parametrize.remove_parametrizations(pm[2], "weight", leave_parametrized=True)
parametrize.remove_parametrizations(pm[4], "weight", leave_parametrized=True)
print("after remove", type(pm[2]).__name__, [k for k in pm.state_dict()], pm[2].weight.requires_grad)
