"""CUDA's warp semantics on the host, for the programs of this folder: what each thread of a
launch writes, row by row, in the format the programs print ("name blocks threads row: v0 v1 ...",
-1 where a thread writes nothing). Shuffles follow PTX shfl.sync's formulae (the segment mask
(32 - width) << 8, the clamp lane, the source lane's low 5 bits), as CUDA's headers call it."""

from __future__ import annotations

from typing import Callable

FULL = 0xFFFFFFFF
UNSET = -1

# One thread's rows: f(t, lane, warp_threads, block_threads) -> [value or None per row]
ThreadRows = Callable[[int, int, list[int], int], list]


def shfl(mode: str, lane: int, b: int, width: int) -> int:
    """The lane a thread reads (its own when the source is out of range)."""
    c = ((32 - width) << 8) | (0 if mode == "up" else 31)
    clamp, segmask, b = c & 31, (c >> 8) & 31, b & 31
    max_lane = (lane & segmask) | (clamp & ~segmask)
    if mode == "up":
        j = lane - b
        ok = j >= max_lane
    elif mode == "down":
        j = lane + b
        ok = j <= max_lane
    elif mode == "bfly":
        j = lane ^ b
        ok = j <= max_lane
    else:
        j = (lane & segmask) | (b & ~segmask & 31)
        ok = j <= max_lane
    return j if ok else lane


def bits(lanes) -> int:
    return sum(1 << lane for lane in lanes)


def print_launch(name: str, blocks: int, threads: int, rows: int, thread_rows: ThreadRows) -> str:
    table = [[UNSET] * (blocks * threads) for _ in range(rows)]
    for block in range(blocks):
        for t in range(threads):
            warp_threads = [u for u in range(t - t % 32, min(t - t % 32 + 32, threads))]
            for r, value in enumerate(thread_rows(t, t % 32, warp_threads, threads)):
                if value is not None:
                    table[r][block * threads + t] = value
    return "".join(f"{name} {blocks} {threads} {r}: {' '.join(map(str, row))}\n" for r, row in enumerate(table))


def _trunc(x: float) -> int:
    return int(x)


def shuffles(t: int, lane: int, warp: list[int], block: int) -> list:
    base = t - lane
    v = lambda u: u * 7 + 3  # noqa: E731 -- the kernel's value of thread u
    rows = []
    width = 32
    while width >= 1:
        rows += [v(base + shfl("idx", lane, (t * 5 + 1) % 40, width)),
                 v(base + shfl("up", lane, 3, width)),
                 v(base + shfl("down", lane, 5, width)),
                 v(base + shfl("bfly", lane, width // 2 + 1, width)),
                 v(base + shfl("bfly", lane, width, width))]
        width //= 2
    rows += [v(base + shfl("idx", lane, 37, 32)), v(base + shfl("up", lane, 33, 32)),
             v(base + shfl("bfly", lane, 33, 32))]
    src = base + shfl("bfly", lane, 3, 32)
    rows.append(_trunc(src * 0.5 + (1 << 40)))
    src = base + shfl("down", lane, 1, 32)
    rows.append((src << 40) | src)
    rows.append(v(base + 19) if lane < 20 else None)
    return rows


def votes(t: int, lane: int, warp: list[int], block: int) -> list:
    base = t - lane
    exists = bits(u - base for u in warp)
    rows = [bits(u - base for u in warp if u % 3 == 0), int(40 in warp), int(all(u < 90 for u in warp)), exists]
    if lane % 4 == 1:
        return rows + [None] * 5
    active = [u for u in warp if (u - base) % 4 != 1]
    rows += [bits(u - base for u in active), bits(u - base for u in active if u % 5 == 0),
             int(all((u - base) < 30 for u in active)), int(70 in active)]
    rows.append(bits(u - base for u in active if u - base < 12 and (u - base) & 1) if lane < 12 else None)
    return rows


def match_reduce(t: int, lane: int, warp: list[int], block: int) -> list:
    base = t - lane
    lanes = [u - base for u in warp]
    key = lambda l: (l * 7) % 4  # noqa: E731
    rows = [bits(l for l in lanes if key(l) == key(lane)),
            bits(l for l in lanes if l // 3 == lane // 3), bits(lanes), 1, 0, 0,
            sum(warp) & FULL, min(u * 37 % 101 for u in warp), max(50 - u * 3 for u in warp),
            min(50 - u * 3 for u in warp)]
    conj = FULL
    for u in warp:
        conj &= ~(1 << (u % 32)) & FULL
    disj = 0
    for u in warp:
        disj |= 1 << (u % 29)
    xor = 0
    for u in warp:
        xor ^= (u * 2654435761) & FULL
    rows += [conj, disj, xor]
    if lane % 3 == 0:
        members = [u for u in warp if (u - base) % 3 == 0]
        rows += [sum(members) & FULL, bits(u - base for u in members if (u - base) % 2 == lane % 2)]
    else:
        rows += [None, None]
    return rows


def lanes(t: int, lane: int, warp: list[int], block: int) -> list:
    return [32, lane, (1 << lane) - 1, t ^ 16, bits(l for l in range(32) if l & 4), (t ^ 1) * 3]


def tiles(t: int, lane: int, warp: list[int], block: int) -> list:
    rows = []
    v = lambda u: u * 5 + 1  # noqa: E731
    for n in (32, 16, 8, 4, 2):
        rank, first = t % n, t - t % n
        members = range(first, first + n)
        rows += [rank, t // n, v(first + 1), v(t - 1 if rank >= 1 else t), v(t + 1 if rank + 1 < n else t),
                 v(t ^ (n // 2)), int(37 in members), int(all(u % 7 != 3 for u in members)),
                 bits(u - first for u in members if u % 3 == 0), sum(map(v, members)),
                 max(v(u) % 13 for u in members)]
    return rows


def coalesced(t: int, lane: int, warp: list[int], block: int) -> list:
    if t % 3 == 0:
        return [None] * 5
    group = [u for u in warp if u % 3 != 0]
    return [len(group), group.index(t), group[0], bits(k for k, u in enumerate(group) if u % 2 == 0), sum(group)]


def wide_tile(t: int, lane: int, warp: list[int], block: int) -> list:
    members = range(t - t % 64, t - t % 64 + 64)
    return [t % 64, sum(members), int(100 in members)]


# Each program's launches: (name, blocks, threads, rows, model), in the order it runs them.
PROGRAMS: dict[str, list[tuple[str, int, int, int, ThreadRows]]] = {
    "shuffles": [("shuffles", 2, 96, 36, shuffles)],
    "votes": [("votes", 2, 96, 9, votes), ("votes", 1, 40, 9, votes)],
    "match_reduce": [("match_reduce", 2, 96, 15, match_reduce)],
    "lanes": [("lanes", 2, 96, 6, lanes)],
    "coop_groups": [("tiles", 2, 96, 55, tiles), ("coalesced", 2, 96, 5, coalesced),
                    ("wide_tile", 2, 128, 3, wide_tile)],
}


def expected_output(program: str) -> str:
    """What the program prints under CUDA's semantics."""
    return "".join(print_launch(*launch) for launch in PROGRAMS[program])
