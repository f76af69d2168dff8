"""A bitmask Sudoku solver in JAX, as constraint-propagation write-ups port Norvig's solver
to array code: each cell holds a uint16 set of candidate digits, peers' fixed digits are
removed with jnp.bitwise_and/invert and jax.lax.shift_left, singletons found with
lax.population_count, their digit by 16 - lax.clz, "hidden singles" per unit by bitwise
reductions (jnp.bitwise_or.reduce-style lax.reduce), propagation to a fixed point in
lax.while_loop, then a depth-first search with an explicit stack (lax.while_loop with
lax.cond) for the hard puzzle; vmap over a batch of puzzles; validity checks by
jnp.unique-free counting with jnp.bincount(length=)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ALL = jnp.uint16(0x1FF)
rows = np.arange(81) // 9
cols = np.arange(81) % 9
boxes = (rows // 3) * 3 + cols // 3
UNITS = jnp.asarray(np.concatenate([np.stack([np.where(rows == i)[0] for i in range(9)]),
                                    np.stack([np.where(cols == i)[0] for i in range(9)]),
                                    np.stack([np.where(boxes == i)[0] for i in range(9)])]))  # (27, 9)
PEERS = np.array([(rows == rows[c]) | (cols == cols[c]) | (boxes == boxes[c]) for c in range(81)])
np.fill_diagonal(PEERS, False)
PEERS = jnp.asarray(PEERS)


def parse(s):
    digits = np.array([0 if ch in ".0" else int(ch) for ch in s], dtype=np.int32)
    return jnp.asarray(digits)


def to_masks(digits):
    one = lax.shift_left(jnp.uint16(1), (digits - 1).astype(jnp.uint16))
    return jnp.where(digits > 0, one, ALL)


def to_digits(masks):
    single = lax.population_count(masks) == 1
    return jnp.where(single, 16 - lax.clz(masks).astype(jnp.int32), 0)


def or_reduce(x, axis):
    return lax.reduce(x, jnp.uint16(0), lax.bitwise_or, (axis,))


def propagate_once(masks):
    fixed = jnp.where(lax.population_count(masks) == 1, masks, jnp.uint16(0))
    taken = or_reduce(jnp.where(PEERS, fixed[None, :], jnp.uint16(0)), 1)
    masks = jnp.where(lax.population_count(masks) == 1, masks, masks & ~taken)
    # hidden singles: a digit possible in exactly one cell of a unit
    unit = masks[UNITS]  # (27, 9)
    bits = lax.shift_left(jnp.uint16(1), jnp.arange(9, dtype=jnp.uint16))
    has = (unit[:, :, None] & bits[None, None, :]) != 0  # (27, 9 cells, 9 digits)
    once = jnp.sum(has, axis=1) == 1  # (27, 9 digits)
    forced = jnp.where(has & once[:, None, :], bits[None, None, :], jnp.uint16(0))
    forced = or_reduce(forced, 2)  # (27, 9)
    hidden = jnp.zeros(81, jnp.uint16).at[UNITS.ravel()].max(forced.ravel())
    return jnp.where(lax.population_count(hidden) == 1, hidden, masks)


def propagate(masks):
    def cond(state):
        masks, prev, it = state
        return jnp.any(masks != prev) & (it < 81)

    def body(state):
        masks, _, it = state
        return propagate_once(masks), masks, it + 1

    masks, _, it = lax.while_loop(cond, body, (propagate_once(masks), masks, 1))
    return masks, it


def status(masks):
    """(solved, dead): dead when a cell has no candidate, two fixed cells of a unit share a
    digit, or a digit has no place left in a unit."""
    counts = lax.population_count(masks)
    unit = masks[UNITS]
    fixed = jnp.where(lax.population_count(unit) == 1, unit, jnp.uint16(0))
    n_fixed = jnp.sum(fixed != 0, axis=1)
    clash = lax.population_count(or_reduce(fixed, 1)).astype(n_fixed.dtype) < n_fixed
    missing = or_reduce(unit, 1) != ALL
    dead = jnp.any(counts == 0) | jnp.any(clash) | jnp.any(missing)
    return jnp.all(counts == 1) & jnp.logical_not(dead), dead


def solve(digits, depth=40):
    """DFS over a stack of mask grids: branch on the cell with fewest candidates."""
    stack = jnp.zeros((depth, 81), jnp.uint16).at[0].set(to_masks(digits))

    def cond(state):
        stack, top, done, steps = state
        return (top >= 0) & jnp.logical_not(done) & (steps < 2000)

    def body(state):
        stack, top, done, steps = state
        masks, _ = propagate(stack[top])
        solved, dead = status(masks)

        def branch(args):
            stack, top = args
            counts = lax.population_count(masks).astype(jnp.int32)
            cell = jnp.argmin(jnp.where(counts > 1, counts, 99))
            low = masks[cell] & (~masks[cell] + jnp.uint16(1))  # lowest set bit
            stack = stack.at[top].set(masks.at[cell].set(masks[cell] & ~low))
            stack = stack.at[top + 1].set(masks.at[cell].set(low))
            return stack, top + 1

        def keep(args):
            stack, top = args
            return stack.at[top].set(masks), jnp.where(dead, top - 1, top)

        stack, top = lax.cond(solved | dead, keep, branch, (stack, top))
        return stack, top, solved, steps + 1

    stack, top, done, steps = lax.while_loop(cond, body, (stack, 0, False, 0))
    return to_digits(stack[jnp.maximum(top, 0)]), done, steps


def valid(grid):
    g = grid.reshape(81)
    return jnp.all(jax.vmap(lambda u: jnp.all(jnp.bincount(g[u], length=10)[1:] == 1))(UNITS))


easy = parse("003020600900305001001806400008102900700000008006708200002609500800203009005010300")
hard = parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
masks, iters = propagate(to_masks(easy))
print("easy: propagation sweeps", int(iters), "solved:", bool(status(masks)[0]))
print(to_digits(masks).reshape(9, 9))
print("valid:", bool(valid(to_digits(masks))),
      "givens kept:", bool(jnp.all((easy == 0) | (to_digits(masks) == easy))))
m_hard, _ = propagate(to_masks(hard))
print("hard after propagation: unsolved cells", int(jnp.sum(lax.population_count(m_hard) > 1)),
      "candidates", int(jnp.sum(lax.population_count(m_hard))))
grid, done, steps = jax.jit(solve)(hard)
print("hard: solved", bool(done), "search steps", int(steps), "valid", bool(valid(grid)))
print(grid.reshape(9, 9))
print("bit tricks: popcount", lax.population_count(jnp.array([0, 1, 0x1FF, 0x155], jnp.uint16)),
      "clz", lax.clz(jnp.array([1, 2, 256, 0x8000], jnp.uint16)),
      "lowest bit", (jnp.uint16(0b10100) & (~jnp.uint16(0b10100) + jnp.uint16(1))))
batch = jnp.stack([easy, hard, easy.at[0].set(0)])
grids, dones, steps = jax.vmap(solve)(batch)
print("batched solved", dones, "steps", steps, "all valid", bool(jnp.all(jax.vmap(valid)(grids))))
