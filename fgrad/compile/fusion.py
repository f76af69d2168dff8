"""Fusion partition: group elementwise chains (plus at most one trailing reduction) into
kernels; everything else is a barrier op.

Walk the program in order.  An elementwise equation joins a kernel that produces one of
its inputs and has the same iteration shape (its output shape); when it consumes the
outputs of several such kernels, they are merged.  A reduction joins the kernel that
produces its input (same iteration shape) as that kernel's one trailing reduction; nothing
in a kernel may consume the kernel's own reduction.  Matmuls (``dot_general``), gathers and
scatters, reshapes/transposes/broadcasts of intermediates, control flow and every other
primitive are barriers: each is its own step.

Joining or merging is refused when it would make a cycle between steps (a kernel K feeds a
barrier B whose result another member of K would need): a depth-first search over
producers, pruned by program position (a step whose equations all precede K's cannot
depend on K), answers "does this step depend on K?" without keeping transitive closures.
The result is a list of steps in an order that respects
every dependency (original program order as the tie-break); effectful steps (collectives)
depend on the previous effectful step, so they run in program order.
"""

from __future__ import annotations

import heapq

import numpy as np

from ..core.ir import Literal, has_effects

# elementwise primitives kept out of kernels: results that are views of their input
# (real/imag) or reinterpret bytes
NOT_FUSIBLE = {"real", "imag", "bitcast_convert_type"}
REDUCTIONS = {"reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_and", "reduce_or"}


def fusible(e) -> bool:
    p = e.prim
    if p.family != "elementwise" or p.name in NOT_FUSIBLE or p.multiple_results:
        return False
    return e.outvars[0].aval.dtype.kind in "biufc"


def fusible_reduction(e) -> bool:
    if e.prim.name not in REDUCTIONS:
        return False
    x = e.invars[0]
    return type(x) is not Literal and len(e.params.get("axes", ())) > 0 and x.aval.dtype.kind in "biufc"


class Node:
    """A kernel (``members`` elementwise equations + optional ``reduction``) or a barrier
    op (one equation)."""

    __slots__ = ("id", "kind", "members", "reduction", "shape", "preds", "lo", "hi")

    def __init__(self, nid, kind, shape, pos) -> None:
        self.id, self.kind, self.shape = nid, kind, shape
        self.members: list = []
        self.reduction = None
        self.preds: set = set()  # raw ids of the nodes producing this node's inputs
        self.lo = self.hi = pos  # first and last program position of its equations

    @property
    def eqns(self) -> list:
        return self.members + ([self.reduction] if self.reduction is not None else [])

    def __repr__(self) -> str:
        names = " ".join(e.prim.name for e in self.eqns)
        return f"<{self.kind} {self.shape} {names}>"


class _CyclicSchedule(RuntimeError):
    """The pruned dependency search let a merge create a cycle (see `Partition.exact`)."""


class Partition:
    def __init__(self, prog, fuse: bool = True, exact: bool = False) -> None:
        self.prog = prog
        self.fuse = fuse
        # exact: `depends_on` searches every producer.  The fast search prunes producers whose
        # equations all precede the targets, which misses a path through a merged kernel that
        # spans both (kernel X feeds an early node and consumes a target late); then the
        # schedule is cyclic and `partition` runs again exactly.
        self.exact = exact
        self.nodes: dict[int, Node] = {}
        self.alias: dict[int, int] = {}  # merged raw id -> surviving id
        self.of_var: dict = {}  # var -> producing node (raw id)
        self.red_out: dict = {}  # reduction output var -> node (raw id)
        self.count = 0
        self.last_effect: Node | None = None  # the latest effectful step (collectives)

    def find(self, nid: int) -> int:
        root = nid
        while root in self.alias:
            root = self.alias[root]
        while nid != root:  # path compression
            nxt = self.alias[nid]
            self.alias[nid] = root
            nid = nxt
        return root

    def node(self, nid: int) -> Node:
        return self.nodes[self.find(nid)]

    def node_of(self, v):
        if type(v) is Literal:
            return None
        nid = self.of_var.get(v)
        return None if nid is None else self.node(nid)

    def deps(self, e) -> list:
        """Nodes producing the inputs of ``e``."""
        out = []
        for v in e.invars:
            n = self.node_of(v)
            if n is not None and n not in out:
                out.append(n)
        return out

    def new_node(self, kind, shape, pos) -> Node:
        n = Node(self.count, kind, shape, pos)
        self.count += 1
        self.nodes[n.id] = n
        return n

    def depends_on(self, x: Node, targets) -> bool:
        """Whether ``x`` (transitively) consumes a result of one of the ``targets`` nodes.
        A depth-first search over producers, pruned by program position: a node whose
        equations all come before the targets' first equation cannot depend on them."""
        tids = {t.id for t in targets}
        lo = min(t.lo for t in targets)
        stack, seen = [x], {x.id}
        while stack:
            n = stack.pop()
            for p in n.preds:
                pn = self.node(p)
                if pn.id in tids:
                    return True
                if pn.id in seen or (not self.exact and pn.hi < lo):
                    continue
                seen.add(pn.id)
                stack.append(pn)
        return False

    def add(self, node: Node, e, pos: int, as_reduction=False) -> None:
        for d in self.deps(e):
            if d is not node:
                node.preds.add(d.id)
        if as_reduction:
            node.reduction = e
            self.red_out[e.outvars[0]] = node.id
        else:
            node.members.append(e)
        node.hi = max(node.hi, pos)
        for v in e.outvars:
            self.of_var[v] = node.id

    def consumes_reduction_of(self, e, ids) -> bool:
        for v in e.invars:
            if type(v) is Literal:
                continue
            rid = self.red_out.get(v)
            if rid is not None and self.find(rid) in ids:
                return True
        return False

    def can_join(self, node: Node, e, also: Node | None = None) -> bool:
        group = [node] if also is None else [node, also]
        if self.consumes_reduction_of(e, {g.id for g in group}):
            return False
        for d in self.deps(e):
            if d is node or d is also:
                continue
            if self.depends_on(d, group):  # kernel -> d -> e
                return False
        return True

    def can_merge(self, a: Node, b: Node) -> bool:
        if a.reduction is not None and b.reduction is not None:
            return False
        for x, y in ((a, b), (b, a)):
            if y.reduction is not None:
                r = y.reduction.outvars[0]
                if any(r is v for m in x.members for v in m.invars):
                    return False
            # a path x -> (some other node) -> y
            for p in y.preds:
                pn = self.node(p)
                if pn is x or pn is y:
                    continue
                if pn.hi >= x.lo and self.depends_on(pn, [x]):
                    return False
        return True

    def do_merge(self, a: Node, b: Node) -> None:
        """Merge kernel b into kernel a."""
        a.members.extend(b.members)
        if b.reduction is not None:
            a.reduction = b.reduction
        a.preds |= b.preds
        a.lo, a.hi = min(a.lo, b.lo), max(a.hi, b.hi)
        del self.nodes[b.id]
        self.alias[b.id] = a.id
        a.preds = {i for i in a.preds if self.find(i) != a.id}

    def run(self) -> list:
        self.last_effect = None
        for i, e in enumerate(self.prog.eqns):
            if self.fuse and fusible(e):
                shape = tuple(e.outvars[0].aval.shape)
                target = None
                for d in self.deps(e):
                    if d.kind != "kernel" or d.shape != shape or d.id not in self.nodes:
                        continue
                    if target is None:
                        if self.can_join(d, e):
                            target = d
                    elif self.can_merge(target, d) and self.can_join(target, e, also=d):
                        self.do_merge(target, d)
                if target is None:
                    target = self.new_node("kernel", shape, i)
                self.add(target, e, i)
                continue
            if self.fuse and fusible_reduction(e):
                shape = tuple(e.invars[0].aval.shape)
                d = self.node_of(e.invars[0])
                if (d is not None and d.kind == "kernel" and d.shape == shape and d.reduction is None
                        and self.can_join(d, e)):
                    self.add(d, e, i, as_reduction=True)
                else:
                    self.add(self.new_node("kernel", shape, i), e, i, as_reduction=True)
                continue
            if fusible(e) or fusible_reduction(e):  # fuse=False: one-op kernels
                red = fusible_reduction(e)
                shape = tuple((e.invars[0] if red else e.outvars[0]).aval.shape)
                self.add(self.new_node("kernel", shape, i), e, i, as_reduction=red)
                continue
            node = self.new_node("op", None, i)
            if has_effects(e):  # effects (collectives, callbacks) keep their program order
                if self.last_effect is not None:
                    node.preds.add(self.last_effect.id)
                self.last_effect = node
            self.add(node, e, i)
        return self.schedule()

    def schedule(self) -> list:
        nodes = list(self.nodes.values())
        pos = {id(e): i for i, e in enumerate(self.prog.eqns)}
        for n in nodes:
            n.members.sort(key=lambda m: pos[id(m)])
        preds = {n.id: {self.find(p) for p in n.preds} - {n.id} for n in nodes}
        succs: dict = {n.id: set() for n in nodes}
        for nid, ps in preds.items():
            for p in ps:
                succs[p].add(nid)
        byid = {n.id: n for n in nodes}
        heap = [(n.lo, n.id) for n in nodes if not preds[n.id]]
        heapq.heapify(heap)
        order = []
        while heap:
            _, nid = heapq.heappop(heap)
            order.append(byid[nid])
            for s in succs[nid]:
                preds[s].discard(nid)
                if not preds[s]:
                    heapq.heappush(heap, (byid[s].lo, s))
        if len(order) != len(nodes):
            if self.exact:  # pragma: no cover - the exact join/merge checks prevent it
                raise RuntimeError("fgrad.compile: fusion produced a cyclic schedule")
            raise _CyclicSchedule("fgrad.compile: the pruned fusion search made a cyclic schedule")
        return order


def partition(prog, fuse: bool = True) -> list:
    """Steps (`Node` objects, kind ``"kernel"`` or ``"op"``) in execution order: with the fast
    (pruned) dependency search, and the exact one where the fast one made a cycle."""
    try:
        return Partition(prog, fuse).run()
    except _CyclicSchedule:
        return Partition(prog, fuse, exact=True).run()


__all__ = ["partition", "Node", "fusible", "fusible_reduction", "np"]
