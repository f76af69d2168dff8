"""Object-detection utilities written in plain PyTorch as in YOLO/DETR-style repos: box format
conversion (xyxy/cxcywh), pairwise IoU and generalised IoU by broadcasting, greedy NMS with a
while loop, anchor grids from meshgrid (indexing "ij" and "xy"), box encoding/decoding with
log-space sizes, sigmoid focal loss, Hungarian-free greedy matching by argmax, and a tiny
regression of box offsets with GIoU + L1 loss."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn.functional as F


def box_cxcywh_to_xyxy(b):
    cx, cy, w, h = b.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


def box_xyxy_to_cxcywh(b):
    x0, y0, x1, y1 = b.unbind(-1)
    return torch.stack([(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0], dim=-1)


def box_area(b):
    return (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def box_iou(a, b):
    area1, area2 = box_area(a), box_area(b)
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    union = area1[:, None] + area2 - inter
    return inter / union, union


def generalized_box_iou(a, b):
    iou, union = box_iou(a, b)
    lt = torch.min(a[:, None, :2], b[:, :2])
    rb = torch.max(a[:, None, 2:], b[:, 2:])
    wh = (rb - lt).clamp(min=0)
    area = wh[..., 0] * wh[..., 1]
    return iou - (area - union) / area


def nms(boxes, scores, thr):
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i.item())
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]])[0].squeeze(0)
        order = order[1:][ious <= thr]
    return torch.tensor(keep)


boxes = torch.tensor([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 3.0], [0.1, 0.1, 2.1, 2.1], [5.0, 5.0, 6.0, 7.0]])
scores = torch.tensor([0.9, 0.75, 0.8, 0.3])
print(box_xyxy_to_cxcywh(boxes), torch.allclose(box_cxcywh_to_xyxy(box_xyxy_to_cxcywh(boxes)), boxes))
print(box_iou(boxes, boxes)[0])
print(generalized_box_iou(boxes[:2], boxes[2:]))
print(nms(boxes, scores, 0.5), nms(boxes, scores, 0.1))

ys, xs = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
print(ys, xs)
gx, gy = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy")
print(gx.shape, gy)
stride, sizes = 8, torch.tensor([[16.0, 16.0], [32.0, 16.0]])
centers = torch.stack([xs, ys], -1).reshape(-1, 2).float() * stride + stride / 2
anchors = torch.cat([centers[:, None, :].expand(-1, 2, -1), sizes[None].expand(len(centers), -1, -1)], -1).reshape(-1, 4)
print(anchors.shape, anchors[:3])


def encode(gt, an):
    return torch.cat([(gt[:, :2] - an[:, :2]) / an[:, 2:], torch.log(gt[:, 2:] / an[:, 2:])], 1)


def decode(d, an):
    return torch.cat([d[:, :2] * an[:, 2:] + an[:, :2], torch.exp(d[:, 2:]) * an[:, 2:]], 1)


gt = torch.tensor([[5.0, 6.0, 20.0, 12.0], [13.0, 20.0, 30.0, 18.0]])
iou_ga, _ = box_iou(box_cxcywh_to_xyxy(gt), box_cxcywh_to_xyxy(anchors))
best = iou_ga.argmax(1)
print(best, iou_ga.max(1).values)
d = encode(gt, anchors[best])
print(d, torch.allclose(decode(d, anchors[best]), gt))


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2.0):
    p = inputs.sigmoid()
    ce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * ((1 - p_t) ** gamma)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * loss).mean(1).sum()


logits = torch.tensor([[2.0, -1.0, 0.5], [-3.0, 0.2, 1.5]], requires_grad=True)
tgt = torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
fl = sigmoid_focal_loss(logits, tgt)
fl.backward()
print(fl, logits.grad)

torch.manual_seed(0)
pred = torch.nn.Parameter(gt + torch.randn(2, 4) * 3)
opt = torch.optim.SGD([pred], lr=0.5)
for it in range(50):
    pb, tb = box_cxcywh_to_xyxy(pred), box_cxcywh_to_xyxy(gt)
    loss = (1 - torch.diag(generalized_box_iou(pb, tb))).sum() + 0.05 * F.l1_loss(pred, gt, reduction="sum")
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(it, round(loss.item(), 5))
print(pred.detach())
