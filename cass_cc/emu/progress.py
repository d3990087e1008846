"""Hang detection by lack of progress, for the waves of one launch batch.

A GPU runs a kernel until it ends, however long its waves spin on each other, so the emulator
may stop one only when it can no longer do anything observable. Progress is any of:

- a store or atomic that changes the bytes of global memory or LDS (what other waves can see; a
  failing compare-and-swap, an atomic or a store that writes the value already there, do not
  count: they are what spin loops do), as Memory.changed and Waves.lds_changed record;
- a read of global memory beyond what the batch's waves have read of that allocation before
  (Memory.read_grew: a loop that walks an array, like a thread summing a row or a DFT over its
  input, moves on; a spin that re-reads its flags does not; a hang that walks memory stops at
  the end of it);
- a wave retiring (s_endpgm);
- a wave leaving its loop. A wave's loop is the pc range [lo, hi] covered by the backward branches
  it took since it last left one: a backward branch from pc to target widens it to include
  [target, pc] (so inside nested loops it is the outermost one seen); a branch located inside
  the range that lands outside it (the loop's exit, or the fall-through of its back edge)
  leaves it. Calls and returns (s_setpc, s_swappc) neither widen nor leave a loop, so a spin
  loop that calls a function stays one loop.

Not progress: registers and scratch (a lane's private memory, no other wave sees it), barrier
arrivals and releases (a loop of barriers around a flag nobody sets hangs), reading memory read
before.

After a stretch without progress the detector declares a hang by either of two rules:

- proof: every running wave came back, at a backward branch, to a state it was in before (pc,
  SGPRs, SCC, VGPRs, MODE, and no scratch change) with memory unchanged in between, and none
  read host or managed memory meanwhile (another host thread may write it while a kernel polls
  it) or the clock (a loop waiting for a time to pass reduces what it read to the same flags). The waves are deterministic, so each repeats its cycle forever: nothing can release them. Each wave
  keeps one saved state, compared at each of its backward branches and replaced at the 1st,
  2nd, 4th, 8th ... of them (Brent's cycle finding): a cycle of c backward branches is found
  within about 2c + (the branches before it) of them. A spin on a flag or a lock, a failing
  compare-and-swap loop, a barrier nobody can fill, are found in a few thousand instructions.
- stretch: every running wave has executed at least `limit` instructions since the last
  progress (for spins whose state never repeats: `while (!flag) n++;` counts). `limit` is what
  keeps a correct program from being stopped: a wave whose every loop runs longer than that
  without storing or reading anything new looks the same as a hang.

Only waves that can run count (a wave at a barrier waits for others, a retired one is gone), and
each must itself have run the stretch, so a wave the scheduler lets run less (cass_cc.emu.launch
gives every pc turns) delays the verdict rather than being misjudged.
"""

from __future__ import annotations

import numpy as np

from .state import RUNNING, Waves

# Instructions of every running wave without progress (CASS_EMU_HANG_INSTRUCTIONS). Measured
# (cass-run --emu-stats, stalled_instructions) over 16 compute-heavy bench programs: the longest
# stretch of a correct program is 4096 (bench/signal/dft_sincos; 14417 before reads of new memory
# counted as progress), so 2^20 leaves a margin of 256, and a counting spin of one wave
# (tests/programs/hip/fault_budget) stops after 66 s of CPU time.
DEFAULT_LIMIT = 1 << 20
CHECK_TICKS = 1024             # scheduler steps between looks at the evidence


class Hang:
    """What the detector found: the rule ("proof" or "stretch"), the stretch each running wave
    ran without progress (instructions), and the running waves."""

    def __init__(self, rule: str, stretch: int, waves: np.ndarray):
        self.rule, self.stretch, self.waves = rule, stretch, waves


class Progress:
    def __init__(self, st: Waves, limit: int = DEFAULT_LIMIT):
        n = st.n
        self.st = st
        self.limit = limit
        self.executed = np.zeros(n, np.int64)       # instructions each wave executed
        self.baseline = np.zeros(n, np.int64)       # executed at the last progress
        self.lo = np.full(n, -1, np.int64)          # each wave's loop [lo, hi]; lo = -1: none
        self.hi = np.full(n, -1, np.int64)
        self.event = False                          # a wave retired or left its loop
        self.watching = False                       # comparing wave states (no progress for a while)
        self.saved = None                           # the saved states, once watching
        self.longest = 0                            # the longest stretch seen (LaunchStats.stalled)

    # --- evidence, reported by the scheduler ----------------------------------------------
    def ran(self, w, count: int) -> None:
        if len(w) == self.st.n:
            self.executed += count
        else:
            self.executed[w] += count

    def retired(self) -> None:
        self.event = True

    def branched(self, w, pc: int, targets: np.ndarray) -> None:
        """Waves w executed the scalar branch at pc and now stand at targets."""
        lo, hi = self.lo[w], self.hi[w]
        inside = (lo >= 0) & (lo <= pc) & (pc <= hi)
        left = inside & ((targets < lo) | (targets > hi))
        if left.any():
            self.event = True
            self.lo[w[left]] = -1
        back = targets <= pc
        if back.any():
            wb, tb = w[back], targets[back]
            fresh = self.lo[wb] < 0
            self.lo[wb] = np.where(fresh, tb, np.minimum(self.lo[wb], tb))
            self.hi[wb] = np.where(fresh, pc, np.maximum(self.hi[wb], pc))
            if self.watching:
                self._compare(wb)

    # --- the verdict -----------------------------------------------------------------------
    def check(self) -> Hang | None:
        """Called every CHECK_TICKS scheduler steps: a Hang, or None (and a fresh stretch when
        there was progress since the last call)."""
        st = self.st
        if self.event or st.mem.changed or st.lds_changed or st.mem.read_grew:
            self.event = st.mem.changed = st.lds_changed = st.mem.host_read = st.mem.read_grew = False
            self.baseline[:] = self.executed
            self._unwatch()
            return None
        running = np.nonzero(st.status == RUNNING)[0]
        if len(running) == 0:
            return None
        if not self.watching:
            self._watch()
            return None
        stretch = int((self.executed[running] - self.baseline[running]).min())
        self.longest = max(self.longest, stretch)
        if st.mem.host_read:            # a host thread may still set what they poll: no proof
            st.mem.host_read = False
            self.saved["proven"][:] = False
        elif self.saved["proven"][running].all():
            return Hang("proof", stretch, running)
        if stretch >= self.limit:
            return Hang("stretch", stretch, running)
        return None

    def loop_of(self, wave: int) -> tuple[int, int] | None:
        return (int(self.lo[wave]), int(self.hi[wave])) if self.lo[wave] >= 0 else None

    # --- repeated states ---------------------------------------------------------------------
    def _watch(self) -> None:
        st = self.st
        if self.saved is None:
            n = st.n
            self.saved = {"pc": np.zeros(n, np.int64), "S": np.zeros_like(st.S), "scc": np.zeros_like(st.scc),
                          "V": np.zeros_like(st.V), "mode": np.zeros_like(st.mode),
                          "version": np.zeros(n, np.int64), "have": np.zeros(n, bool),
                          "proven": np.zeros(n, bool), "count": np.zeros(n, np.int64),
                          "power": np.ones(n, np.int64)}
        self.watching = True
        st.watch_scratch = True

    def _unwatch(self) -> None:
        if self.watching:
            s = self.saved
            s["have"][:] = s["proven"][:] = False
            s["count"][:] = 0
            s["power"][:] = 1
            self.watching = False
            self.st.watch_scratch = False

    def _compare(self, w: np.ndarray) -> None:
        """Waves w are at a backward branch's target: compare with, and maybe replace, their saved state."""
        st, s = self.st, self.saved
        have = s["have"][w]
        same = (have & (s["pc"][w] == st.pc[w]) & (s["scc"][w] == st.scc[w]) & (s["mode"][w] == st.mode[w])
                & (s["version"][w] == st.scratch_version[w]) & (s["S"][w] == st.S[w]).all(axis=1))
        if same.any():
            ws = w[same]
            s["proven"][ws[(s["V"][ws] == st.V[ws]).all(axis=(1, 2))]] = True
        s["count"][w] += 1
        renew = ~have | (s["count"][w] >= s["power"][w])
        if renew.any():
            wr = w[renew]
            s["power"][wr] = np.where(s["have"][wr], s["power"][wr] * 2, 1)
            s["count"][wr] = 0
            s["have"][wr] = True
            s["pc"][wr], s["scc"][wr], s["mode"][wr] = st.pc[wr], st.scc[wr], st.mode[wr]
            s["version"][wr], s["S"][wr], s["V"][wr] = st.scratch_version[wr], st.S[wr], st.V[wr]
