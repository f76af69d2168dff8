"""pytorch-quickstart.md: t.save / t.load with map_location (block 17), on GPU when there is
one and on the CPU always."""
import os
import tempfile

import fgrad.torch as t

tmp = tempfile.mkdtemp()
path = os.path.join(tmp, 'a.pth')
a = t.arange(6.).view(2, 3)
if t.cuda.is_available():
    dev = 1 if t.cuda.device_count() > 1 else 0
    g = a.cuda(dev)  # 把a转为GPU1上的tensor,
    t.save(g, path)

    # 加载为b, 存储于GPU1上(因为保存时tensor就在GPU1上)
    b = t.load(path)
    # 加载为c, 存储于CPU
    c = t.load(path, map_location=lambda storage, loc: storage)
    # 加载为d, 存储于GPU0上
    d = t.load(path, map_location={'cuda:%d' % dev: 'cuda:0'})
    print(b.device.type, c.device.type, d.device)

t.save(a, path)
b = t.load(path)
c = t.load(path, map_location=lambda storage, loc: storage)
d = t.load(path, map_location='cpu')
print(b, c.device, d.device)
print(t.equal(a, b), t.equal(a, c), t.equal(a, d))
