"""pytorch-basics.md: DataLoader, RandomSampler, squeeze/unsqueeze, TensorDataset, view (prose)."""
import fgrad.torch as torch
from fgrad.torch.utils.data import DataLoader, RandomSampler, SequentialSampler, TensorDataset

torch.manual_seed(0)
features = torch.arange(20.).view(10, 2)
labels = torch.arange(10)
# TensorDataset 可以用来对 tensor 进行打包，就好像 python 中的 zip 功能
dataset = TensorDataset(features, labels)
print(len(dataset), dataset[3])

loader = DataLoader(dataset, batch_size=4)
for X, y in loader:
    print(X.shape, y)

sampler = RandomSampler(dataset)
print(sorted(list(sampler)) == list(range(10)))
sampler = RandomSampler(dataset, replacement=True, num_samples=25)
idx = list(sampler)
print(len(idx), all(0 <= i < 10 for i in idx))
print(list(SequentialSampler(dataset)))

shuffled = DataLoader(dataset, batch_size=3, shuffle=True, drop_last=True)
batches = list(shuffled)
print(len(batches), [b[0].shape for b in batches])
seen = torch.cat([b[1] for b in batches])
print(len(set(seen.tolist())))

# squeeze / unsqueeze
a = torch.zeros(1, 3)
print(a.squeeze().shape, torch.squeeze(a, 0).shape, a.squeeze(1).shape)
b = torch.zeros(3)
print(b.unsqueeze(0).shape, torch.unsqueeze(b, 1).shape)

# view: row-major order, -1 inferred
a = torch.tensor([[[1, 2, 3], [4, 5, 6]]])
print(a.view(1, 6), torch.tensor([1, 2, 3, 4, 5, 6]).view(1, 6))
print(a.view(1, -1).shape, a.view(torch.zeros(2, 3).size()))
