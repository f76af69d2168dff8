"""TabNet (Arik & Pfister 2021) on a synthetic tabular task: sparsemax (Martins & Astudillo
2016) as a custom torch.autograd.Function (threshold tau from sort + cumsum, backward
projected onto the support, saved with ctx.save_for_backward) checked by gradcheck and against
softmax; entmax-like sparsity statistics; ghost batch normalisation by chunking the batch into
virtual batches; GLU feature transformers with sqrt(0.5) residual scaling; attentive
transformers with prior scales (relaxation gamma); the sparsity regulariser (mean entropy of
the masks); feature importances from the aggregated masks compared with the true features."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)  # sparsemax supports flip on rounding differences: float64, 48 steps


class Sparsemax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z, dim=-1):
        z_sorted, _ = torch.sort(z, dim=dim, descending=True)
        k = torch.arange(1, z.shape[dim] + 1, dtype=z.dtype)
        k = k.view([-1 if d == (dim % z.dim()) else 1 for d in range(z.dim())])
        cssv = z_sorted.cumsum(dim) - 1
        support = (k * z_sorted > cssv)
        k_z = support.sum(dim=dim, keepdim=True)
        tau = cssv.gather(dim, k_z - 1) / k_z.to(z.dtype)
        out = torch.clamp(z - tau, min=0)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_out):
        out, = ctx.saved_tensors
        dim = ctx.dim
        nonzero = (out > 0).to(grad_out.dtype)
        v_hat = (grad_out * nonzero).sum(dim, keepdim=True) / nonzero.sum(dim, keepdim=True)
        return nonzero * (grad_out - v_hat), None


def sparsemax(z, dim=-1):
    return Sparsemax.apply(z, dim)


class GhostBatchNorm(nn.Module):
    def __init__(self, d, virtual_batch=32, momentum=0.02):
        super().__init__()
        self.vb = virtual_batch
        self.bn = nn.BatchNorm1d(d, momentum=momentum)

    def forward(self, x):
        if not self.training:
            return self.bn(x)
        chunks = x.chunk(math.ceil(x.shape[0] / self.vb), 0)
        return torch.cat([self.bn(c) for c in chunks], 0)


class GLUBlock(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.fc = nn.Linear(d_in, 2 * d_out, bias=False)
        self.bn = GhostBatchNorm(2 * d_out)

    def forward(self, x):
        return F.glu(self.bn(self.fc(x)), dim=-1)


class FeatureTransformer(nn.Module):
    def __init__(self, d_in, d, shared):
        super().__init__()
        self.shared, self.own = shared, GLUBlock(d, d)
        self.first = GLUBlock(d_in, d) if shared is None else None

    def forward(self, x):
        h = self.shared(x) if self.shared is not None else self.first(x)
        return (h + self.own(h)) * math.sqrt(0.5)


class TabNet(nn.Module):
    def __init__(self, d_in, n_d=8, n_steps=3, gamma=1.3):
        super().__init__()
        self.n_d, self.n_steps, self.gamma = n_d, n_steps, gamma
        self.bn_in = nn.BatchNorm1d(d_in)
        shared = GLUBlock(d_in, 2 * n_d)
        self.transformers = nn.ModuleList([FeatureTransformer(d_in, 2 * n_d, shared) for _ in range(n_steps + 1)])
        self.attentive = nn.ModuleList([nn.Sequential(nn.Linear(n_d, d_in, bias=False), GhostBatchNorm(d_in)) for _ in range(n_steps)])
        self.head = nn.Linear(n_d, 1)

    def forward(self, x):
        x = self.bn_in(x)
        prior = torch.ones_like(x)
        a = self.transformers[0](x)[:, self.n_d:]
        out, entropy, importance = 0, 0, torch.zeros_like(x)
        for step in range(self.n_steps):
            mask = sparsemax(self.attentive[step](a) * prior)
            prior = prior * (self.gamma - mask)
            entropy = entropy + (-mask * torch.log(mask + 1e-10)).sum(1).mean() / self.n_steps
            h = self.transformers[step + 1](mask * x)
            d, a = F.relu(h[:, :self.n_d]), h[:, self.n_d:]
            out = out + d
            importance = importance + mask * d.sum(1, keepdim=True)
        return self.head(out).squeeze(-1), entropy, importance


z = torch.randn(3, 6, dtype=torch.float64, requires_grad=True)
print("gradcheck sparsemax:", torch.autograd.gradcheck(sparsemax, (z,)))
p = sparsemax(torch.tensor([[1.0, 0.8, 0.1, -1.0], [0.5, 0.5, 0.5, 0.5]]))
print("sparsemax rows:", p.tolist(), "sums", p.sum(1).tolist())
print("softmax first row:", [round(v, 4) for v in F.softmax(torch.tensor([1.0, 0.8, 0.1, -1.0]), 0).tolist()])

gen = torch.Generator().manual_seed(0)
X = torch.randn(1024, 10, generator=gen)
y = ((X[:, 0] * X[:, 1] > 0) | (X[:, 2] > 1.0)).float()  # features 0, 1, 2 matter
Xtr, ytr, Xte, yte = X[:768], y[:768], X[768:], y[768:]
model = TabNet(10)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.8)
for epoch in range(8):
    model.train()
    for idx in torch.randperm(768, generator=gen).split(128):
        logits, ent, _ = model(Xtr[idx])
        loss = F.binary_cross_entropy_with_logits(logits, ytr[idx]) + 1e-3 * ent
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 2.0)
        opt.step()
    sched.step()
    if epoch % 2 == 1:
        model.eval()
        with torch.no_grad():
            logits, ent, imp = model(Xte)
            acc = ((logits > 0).float() == yte).float().mean()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} test acc {acc.item():.4f} mask entropy {ent.item():.4f}")

importance = imp.sum(0)
importance = importance / importance.sum()
print("feature importance:", [round(v, 3) for v in importance.tolist()])
print("top-3 features:", sorted(importance.topk(3).indices.tolist()))
with torch.no_grad():
    _, _, imp_one = model(Xte[:4])
print("features used per sample:", (imp_one > 0).sum(1).tolist())
