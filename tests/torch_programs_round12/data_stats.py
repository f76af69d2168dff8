"""Data processing with tensor statistics as in feature-engineering scripts: quantile and
nanquantile with every interpolation, histc and histogram (bins, range, density, weights),
bucketize/searchsorted (right, sorter), unique with inverse and counts, unique_consecutive,
mode/median/nanmedian/kthvalue, cummax/cummin, bincount with weights, topk, percentile-based
clipping and binning of a feature into one-hot buckets."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(101)
q = torch.tensor([0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(mode, torch.quantile(x, q, interpolation=mode))
m = torch.randn(4, 7)
print(torch.quantile(m, 0.3, dim=1, keepdim=True))
xn = x.clone()
xn[::10] = float("nan")
print(torch.quantile(xn, 0.5), torch.nanquantile(xn, q))
print(torch.histc(x, bins=8, min=-2, max=2))
h = torch.histogram(x, bins=5)
print(h.hist, h.bin_edges)
h2 = torch.histogram(x, bins=torch.tensor([-3.0, -1.0, 0.0, 1.0, 3.0]), density=True)
print(h2.hist)
print(torch.histogram(x, bins=4, range=(-1.0, 1.0), weight=x.abs()).hist)

edges = torch.tensor([-1.0, 0.0, 0.5, 1.0])
vals = torch.tensor([-2.0, -1.0, 0.0, 0.2, 0.5, 0.99, 1.0, 3.0])
print(torch.bucketize(vals, edges), torch.bucketize(vals, edges, right=True))
print(torch.searchsorted(edges, vals), torch.searchsorted(edges, vals, side="right"))
unsorted = torch.tensor([0.5, -1.0, 1.0, 0.0])
print(torch.searchsorted(unsorted, vals, sorter=torch.argsort(unsorted)))

t = torch.tensor([3, 1, 2, 3, 3, 1, 7, 2, 2, 2])
u, inv, cnt = torch.unique(t, return_inverse=True, return_counts=True)
print(u, inv, cnt)
print(torch.unique(t, sorted=True, return_counts=True))
print(torch.unique_consecutive(t, return_counts=True))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_inverse=True))
print(torch.mode(t), torch.median(t))
print(torch.median(m, dim=1), torch.nanmedian(xn))
print(torch.kthvalue(x, 5), torch.topk(x, 3), torch.topk(x, 3, largest=False))
print(torch.cummax(torch.tensor([1, 3, 2, 5, 4]), 0), torch.cummin(torch.tensor([5.0, 3.0, 4.0, 1.0]), 0))
print(torch.bincount(t), torch.bincount(t, weights=torch.linspace(0, 1, 10), minlength=9))

feat = torch.randn(12) * 3 + 1
lo, hi = torch.quantile(feat, torch.tensor([0.05, 0.95]))
clipped = feat.clamp(lo, hi)
print(clipped)
cuts = torch.quantile(feat, torch.tensor([0.25, 0.5, 0.75]))
bucket = torch.bucketize(feat, cuts)
print(bucket, F.one_hot(bucket, 4).sum(0))
print(torch.std_mean(feat), torch.var_mean(feat, correction=0))
print(torch.aminmax(feat), torch.nansum(xn), torch.nanmean(xn))
print(torch.corrcoef(torch.stack([feat, feat ** 2, -feat])))
print(torch.diff(torch.tensor([1, 4, 9, 16])), torch.diff(feat[:4], n=2, prepend=torch.zeros(1)))
