"""launch(): run one kernel dispatch on the emulator.

Sets up what the packet processor and the SPI would: the kernarg segment with every hidden
argument, the dispatch packet, the initial SGPRs and VGPRs of each wave, LDS and scratch; then
runs the waves, advancing together all waves that stand at the same pc (lowest pc first, so
diverged waves reconverge), releasing s_barrier once a workgroup's waves have all arrived.

Waves that spin on each other (grid-wide barriers, locks) need every wave to move: every
TURN_PERIOD instructions the waves at another pc (in turn) run for TURN_STEPS instructions ahead of the
lower-pc ones. The turns go round the pcs in order, so every running wave runs within a bounded
number of steps however the others spin: a wave holding a lock, or the last to arrive at a
flag barrier, is never starved by the waves waiting for it. A grid the device holds at once
(`resident_groups`, what a cooperative launch asks for) runs in one batch, so its workgroups can
wait for each other.

A launch runs until its kernel ends, as on a GPU; it is stopped as hung only when its waves can
make no more progress (cass_cc.emu.progress: kind "hang"). An instruction budget
(CASS_EMU_MAX_INSTRUCTIONS, `cass-run --emu-budget N`) is an option, off by default.
Accesses in an allocation's page padding (memory.py) are reported once per (kernel, pc) through
`warn`, or are faults when CASS_EMU_STRICT is set.
"""

from __future__ import annotations

import math
import os
import struct
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..rdna3.metadata import Kernel
from ..targets import TARGETS
from .code_object import CodeObject
from .decode import TTMP_BASE
from .fault import AccessError, EmuFault, EmuInternalError, Unimplemented
from .memory import Memory
from .printf import PrintfService
from .program import Program, writes_exec
from .progress import CHECK_TICKS, DEFAULT_LIMIT, Hang, Progress
from .salu import TrapError
from .state import (AT_BARRIER, DONE, EXEC, PRIVATE_APERTURE_HI, RUNNING, SCRATCH_BUFFER_HI, SHARED_APERTURE_HI, Waves,
                    pack_mask, write_scalar_bits)

BUDGET_ENV = "CASS_EMU_MAX_INSTRUCTIONS"      # wave-instructions one launch may execute (unset: no budget)
HANG_ENV = "CASS_EMU_HANG_INSTRUCTIONS"       # the hang detector's stretch (progress.py)
STRICT_ENV = "CASS_EMU_STRICT"                # padding accesses are faults
DYNAMIC_STACK_BYTES = 16384           # per lane, for kernels whose stack size is not known statically
BATCH_BYTES = 256 << 20               # register and scratch state of the waves run at once
DISPATCH_PACKET_BYTES = 64
STATUS_CHANGERS = ("s_endpgm", "s_endpgm_saved", "s_barrier", "ds_gws_barrier")   # executors that set st.status
ENDS = ("s_endpgm", "s_endpgm_saved")
BRANCHES = ("s_branch", "s_cbranch_")  # scalar branches: where waves enter and leave loops (progress.py)
PC_USERS = ("s_endpgm", "s_barrier", "s_branch", "s_cbranch_", "s_setpc", "s_swappc", "s_call",
            "ds_gws_")                # executors that read or set st.pc (the others leave it to the scheduler)
TURN_PERIOD = 256                     # instructions between turns of the higher-pc waves
TURN_STEPS = 256                      # instructions a turn lasts


@dataclass
class LaunchStats:
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    wave_instructions: int = 0
    lane_instructions: int = 0
    opcode_counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    stalled: int = 0        # the longest stretch of every running wave without progress (progress.py)


def launch(co: CodeObject, kernel: str, grid, block, kernarg: bytes = b"", dynamic_lds: int = 0,
           memory: Memory | None = None, printf=None, resident_groups: int = 0,
           warn: Callable[[str], None] | None = None, strict: bool | None = None) -> LaunchStats:
    """Run `kernel` over grid (in blocks) x block (in threads); raises EmuFault on a fault.
    A grid of at most `resident_groups` workgroups runs in one batch (all waves interleaved).
    `warn` gets the one-line warnings (accesses in an allocation's padding); default: the
    memory's `warn`, else stderr. `strict` makes those accesses faults (default: CASS_EMU_STRICT)."""
    start = time.perf_counter()
    mem = memory or co.memory
    info = co.kernels.get(kernel)
    if info is None or info.descriptor is None:
        raise EmuFault("decode", f"no kernel named '{kernel}' in the code object")
    grid, block = _dim3(grid), _dim3(block)
    if min(grid) < 1 or min(block) < 1 or math.prod(block) > info.max_flat_workgroup_size:
        raise EmuFault("decode", f"invalid launch configuration grid={grid} block={block} "
                       f"(max {info.max_flat_workgroup_size} threads per block)", kernel=kernel)
    if co._program is None:
        co._program = Program(co)
    program: Program = co._program
    stats = LaunchStats(kernel, grid, block)
    sink = printf or (lambda text: (sys.stdout.write(text), sys.stdout.flush()))
    services = {program.hostcall: PrintfService(sink)} if program.hostcall is not None else {}
    budget = _int_env(BUDGET_ENV)
    hang_limit = _int_env(HANG_ENV) or DEFAULT_LIMIT
    mem.strict = bool(os.environ.get(STRICT_ENV)) if strict is None else strict
    warn = warn or mem.warn or (lambda text: (sys.stderr.write(text + "\n"), sys.stderr.flush()))
    owned = []
    try:
        hostcall = mem.allocate(4096, "device")
        owned.append(hostcall)
        kernarg_addr = _kernarg_segment(mem, info, kernarg, grid, block, dynamic_lds, hostcall)
        owned.append(kernarg_addr)
        packet = _dispatch_packet(mem, info, co.base + info.descriptor.entry, grid, block, kernarg_addr, dynamic_lds)
        owned.append(packet)
        run = _Run(co, program, info, grid, block, dynamic_lds, mem, stats, budget,
                   {"dispatch_ptr": packet, "queue_ptr": packet, "kernarg_segment_ptr": kernarg_addr}, services,
                   resident_groups, hang_limit, warn)
        saved = np.seterr(all="ignore")      # IEEE results (inf, nan) are the point, not warnings
        try:
            run.all_batches()
        finally:
            np.seterr(**saved)
    finally:
        for addr in owned:
            mem.free(addr)
    stats.seconds = time.perf_counter() - start
    return stats


def _int_env(name: str) -> int | None:
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text, 0)
    except ValueError:
        value = 0
    if value < 1:
        raise EmuFault("decode", f"{name}={text!r}: expected a positive number of instructions")
    return value


def initial_mode(rsrc1: int) -> int:
    """MODE at wave start, from compute_pgm_rsrc1: FLOAT_ROUND_MODE_32/16_64 and
    FLOAT_DENORM_MODE_32/16_64 (bits 19:12) give MODE 7:0, DX10_CLAMP (21) and IEEE_MODE (23)
    give MODE bits 8 and 9."""
    return ((rsrc1 >> 12) & 0xFF) | ((rsrc1 >> 21) & 1) << 8 | ((rsrc1 >> 23) & 1) << 9


def wave_lanes(processor: str, wavefront_size32: bool) -> int:
    """The lanes of a kernel's waves: 64 on GFX9 (CDNA), which has only wave64; on GFX10+ as
    the kernel descriptor's ENABLE_WAVEFRONT_SIZE32 says."""
    if TARGETS[processor].isa == "gfx9":
        return 64
    return 32 if wavefront_size32 else 64


def _dim3(v) -> tuple[int, int, int]:
    v = tuple(int(x) for x in (v if isinstance(v, (tuple, list)) else (v,)))
    return (v + (1, 1, 1))[:3]


def _kernarg_segment(mem, info: Kernel, explicit: bytes, grid, block, dynamic_lds, hostcall) -> int:
    size = max(info.kernarg_size, len(explicit), max((a.offset + a.size for a in info.args), default=0))
    addr = mem.allocate(size + 256, "kernarg")
    seg = mem.view(addr, size + 256)
    seg[:len(explicit)] = np.frombuffer(bytes(explicit), np.uint8)
    dims = 3 if grid[2] * block[2] > 1 else 2 if grid[1] * block[1] > 1 else 1
    values = {"hidden_block_count_": grid, "hidden_group_size_": block, "hidden_remainder_": (0, 0, 0),
              "hidden_global_offset_": (0, 0, 0)}
    for arg in info.args:
        kind = arg.value_kind
        value = None
        for prefix, triple in values.items():
            if kind.startswith(prefix):
                value = triple["xyz".index(kind[-1])]
        if kind == "hidden_grid_dims":
            value = dims
        elif kind == "hidden_hostcall_buffer":
            value = hostcall
        elif kind == "hidden_dynamic_lds_size":
            value = dynamic_lds
        elif kind == "hidden_private_base":
            value = PRIVATE_APERTURE_HI
        elif kind == "hidden_shared_base":
            value = SHARED_APERTURE_HI
        elif kind.startswith("hidden_") and value is None:
            value = 0                    # printf buffer, heap, queues, multigrid: none
        if value is not None:
            seg[arg.offset:arg.offset + arg.size] = np.frombuffer(
                int(value).to_bytes(8, "little")[:arg.size], np.uint8)
    return addr


def _dispatch_packet(mem, info: Kernel, entry: int, grid, block, kernarg_addr, dynamic_lds) -> int:
    """hsa_kernel_dispatch_packet_t: workgroup sizes at 4/6/8, grid sizes (work-items) at 12/16/20."""
    addr = mem.allocate(256, "kernarg")
    dims = 3 if grid[2] * block[2] > 1 else 2 if grid[1] * block[1] > 1 else 1
    raw = struct.pack("<HHHHHHIIIIIQQQQ", 2, dims, *block, 0, *(g * b for g, b in zip(grid, block)),
                      info.private_segment_size, info.group_segment_size + dynamic_lds,
                      entry, kernarg_addr, 0, 0)
    mem.view(addr, len(raw))[:] = np.frombuffer(raw, np.uint8)
    return addr


def _release_barriers(st: Waves) -> None:
    """Moves past s_barrier the waves of every workgroup whose live waves have all arrived."""
    waiting = st.status == AT_BARRIER
    if not waiting.any():
        return
    groups = st.lds.shape[0]
    arrived = np.bincount(st.wg[waiting], minlength=groups)
    live = np.bincount(st.wg[st.status != DONE], minlength=groups)
    release = waiting & (arrived == live)[st.wg]
    st.pc[release] += 4
    st.status[release] = RUNNING


class _Run:
    """The waves of one launch, run batch by batch of whole workgroups."""

    def __init__(self, co, program, info, grid, block, dynamic_lds, mem, stats, budget, pointers, services,
                 resident_groups: int = 0, hang_limit: int = DEFAULT_LIMIT, warn=None):
        self.co, self.program, self.info, self.kd = co, program, info, info.descriptor
        self.grid, self.block, self.mem, self.stats, self.budget = grid, block, mem, stats, budget
        self.pointers = pointers
        self.services = services
        self.hang_limit, self.warn = hang_limit, warn
        self.threads = math.prod(block)
        self.lanes = wave_lanes(co.file.processor, self.kd.wavefront_size32)
        self.waves_per_group = -(-self.threads // self.lanes)
        self.lds_bytes = info.group_segment_size + dynamic_lds
        self.scratch_bytes = info.private_segment_size + (DYNAMIC_STACK_BYTES if info.uses_dynamic_stack else 0)
        self.nvgpr = max(program.max_vgpr, 1 if TARGETS[co.file.processor].packed_workitem_ids else 3)
        per_wave = (self.nvgpr * 4 * self.lanes + self.lanes * self.scratch_bytes + 1024
                    + self.lds_bytes // self.waves_per_group)
        by_memory = BATCH_BYTES // (per_wave * self.waves_per_group)
        self.groups_per_batch = max(1, min(math.prod(grid), max(by_memory, resident_groups)))

    def all_batches(self):
        groups = math.prod(self.grid)
        for first in range(0, groups, self.groups_per_batch):
            self.batch(range(first, min(groups, first + self.groups_per_batch)))

    def batch(self, groups: range):
        n = len(groups) * self.waves_per_group
        st = Waves(n, self.nvgpr, len(groups), self.lds_bytes, self.scratch_bytes, self.lanes)
        st.mem, st.clock, st.services = self.mem, 0, self.services
        st.gws = {}                     # GWS barrier resource -> waves waiting there (gws.py)
        self._initial_state(st, groups)
        self._execute(st)

    def _initial_state(self, st: Waves, groups: range):
        kd, wpg = self.kd, self.waves_per_group
        gx, gy, _ = self.grid
        bx, by, _ = self.block
        g = np.repeat(np.arange(groups.start, groups.stop), wpg)
        wave_in_group = np.tile(np.arange(wpg), len(groups))
        st.wg[:] = np.repeat(np.arange(len(groups)), wpg)
        st.pc[:] = self.co.base + kd.entry
        st.set_mode(slice(None), np.uint32(initial_mode(kd.rsrc1)))
        reg = 0
        for name, count in kd.user_sgprs():
            value = self.pointers.get(name, 0)
            if name == "private_segment_size":
                value = self.scratch_bytes
            if name == "private_segment_buffer":
                # GFX9's buffer resource for scratch (MUBUF with this descriptor): its base
                # tells vmem to address each lane's scratch; unbounded, raw
                st.S[:, reg:reg + 4] = np.array([0, SCRATCH_BUFFER_HI, 0xFFFFFFFF, 3 << 28], np.uint32)
            elif count >= 2:
                write_scalar_bits(st, np.arange(st.n), reg, np.full(st.n, value, np.uint64), 64)
            else:
                st.S[:, reg] = value
            reg += count
        reg = kd.user_sgpr_count
        ids = (g % gx, (g // gx) % gy, g // (gx * gy))
        if TARGETS[self.co.file.processor].architected_sgprs:
            # gfx12 has the ids in trap temporaries and allocates no system SGPRs for them
            st.S[:, TTMP_BASE + 9] = ids[0]
            st.S[:, TTMP_BASE + 7] = ids[1] | (ids[2] << 16)
        else:
            for axis, enabled in enumerate(kd.workgroup_id_enabled):
                if enabled:
                    st.S[:, reg] = ids[axis]
                    reg += 1
        if kd.workgroup_info_enabled:
            st.S[:, reg] = 0
            reg += 1
        t = wave_in_group[:, None] * st.lanes + np.arange(st.lanes)[None, :]   # thread id in the group
        valid = t < self.threads
        x, y, z = t % bx, (t // bx) % by, t // (bx * by)
        if TARGETS[self.co.file.processor].packed_workitem_ids:
            st.V[:, 0, :] = np.where(valid, x | (y << 10) | (z << 20), 0).astype(np.uint32)
        else:
            for axis, ids in enumerate((x, y, z)):
                st.V[:, axis, :] = np.where(valid, ids, 0).astype(np.uint32)
        st.write_mask(np.arange(st.n), EXEC, pack_mask(valid))

    def _execute(self, st: Waves):
        program, stats, kernel, base = self.program, self.stats, self.info.name, self.co.base
        counts = stats.opcode_counts
        status, pcs = st.status, st.pc
        wave32 = st.lanes == 32
        steps: dict[int, tuple] = {}    # pc -> what _step says about the instruction there
        w = None                        # the waves at the current pc, when known
        runnable = None                 # the running waves, when known (status changes only on moves)
        tick, next_turn, turn_end = 0, TURN_PERIOD, 0
        turn, turn_pc = None, -1        # the waves having a turn, and the pc it began at
        progress, next_check = Progress(st, self.hang_limit), CHECK_TICKS
        # While w is not every running wave, the scheduler would pick w again after each step as
        # long as w's pc stays below the lowest pc of the other candidates (`hold`, found on the
        # first step that needs it) and no turn starts or ends (`hold_tick`): w is kept without
        # looking at the pcs again, the same schedule at a fraction of the cost.
        hold = hold_tick = None
        ran = 0                         # instructions w ran that progress has not been told of yet
        lanes = None                    # w's active lanes while its EXEC is unchanged
        behind = False                  # st.pc of w lags `pc` (written when someone reads it: a fancy-index
                                        # update per instruction cost 5% of a loop's time)
        mem = self.mem
        mem.changed = mem.read_grew = False
        mem.read_ranges.clear()
        budget = self.budget if self.budget is not None else math.inf
        while True:
            if w is None:
                if ran:
                    progress.ran(ran_w, ran)
                    ran = 0
                if runnable is None:
                    _release_barriers(st)
                    runnable = np.nonzero(status == RUNNING)[0]
                    if len(runnable) == 0:
                        self._check_gws(st)
                        return
                at = pcs[runnable]
                if turn is None and tick >= next_turn:
                    turn, turn_pc = self._next_turn(runnable, at, turn_pc)
                    next_turn, turn_end = tick + TURN_STEPS + TURN_PERIOD, tick + TURN_STEPS
                    if turn is not None:    # membership by index: an isin per regroup cost a quarter of the time
                        in_turn = np.zeros(st.n, dtype=bool)
                        in_turn[turn] = True
                if turn is not None:
                    mine = in_turn[runnable]
                    if tick < turn_end and mine.any():
                        pc = int(at[mine].min())
                        chosen = mine & (at == pc)
                        w, candidates, hold_tick = runnable[chosen], mine, turn_end
                    else:
                        turn = None
                if turn is None:
                    pc = int(at.min())
                    chosen = at == pc
                    w, candidates, hold_tick = runnable[chosen], None, next_turn
                everyone = len(w) == len(runnable)
                ran_w, hold, lanes = w, None, None
            tick += 1
            step = steps.get(pc)
            if step is None:
                step = steps[pc] = self._step(pc)
            exe, instr, names, skip_to, stops, kind, writes_exec, uses_pc = step
            n = len(w)
            stats.wave_instructions += n * len(names)
            if lanes is None:
                lanes = (int(st.S[w[0], EXEC]).bit_count() if n == 1 and wave32 else
                         int.from_bytes(st.mask_bits(w, EXEC).tobytes(), "little").bit_count())
            stats.lane_instructions += lanes * len(names)
            for name in names:
                counts[name] = counts.get(name, 0) + n
            st.clock = stats.wave_instructions
            ran += len(names)
            if tick >= next_check:
                next_check = tick + CHECK_TICKS
                progress.ran(w, ran)
                ran = 0
                hang = progress.check()
                stats.stalled = max(stats.stalled, progress.longest)
                if hang is not None:
                    if behind:
                        pcs[w] = pc
                    raise self._hang(st, progress, hang)
            if skip_to is not None:     # step over the whole run of no-ops at once
                pcs[w] = skip_to
                pc, behind = skip_to, False
            else:
                if stats.wave_instructions > budget:
                    raise EmuFault("budget", f"instruction budget of {self.budget} wave-instructions exhausted "
                                   f"(--emu-budget, {BUDGET_ENV}); {n} wave(s) here",
                                   kernel=kernel, pc=pc - base, instruction=instr.text)
                if behind and uses_pc:
                    pcs[w] = pc
                    behind = False
                try:
                    moved = exe(st, w)
                except AccessError as e:
                    raise EmuFault("memory", e.describe(), kernel=kernel, pc=pc - base, instruction=instr.text,
                                   lane=getattr(e, "lane", None), address=e.address) from None
                except TrapError as e:
                    raise EmuFault("trap", str(e), kernel=kernel, pc=pc - base, instruction=instr.text) from None
                except EmuFault as e:
                    if e.kernel is None:
                        e.kernel, e.pc, e.instruction = kernel, pc - base, instr.text
                        e.args = (str(e),)
                    raise
                except Unimplemented as e:  # a form found only when it runs (an operand's kind)
                    raise EmuFault("unimplemented", f"instruction '{instr.mnemonic}' is not implemented ({e})",
                                   kernel=kernel, pc=pc - base, instruction=instr.text) from None
                except Exception as e:      # noqa: BLE001 - a bug of the emulator, naming the instruction
                    raise EmuInternalError(f"executing '{instr.mnemonic}'", e, kernel=kernel, pc=pc - base,
                                           instruction=instr.text) from e
                if mem.padding:
                    self._padding(mem, kernel, pc - base, instr.text)
                if kind is not None:
                    if kind == "branch":
                        progress.branched(w, pc, pcs[w])
                    else:
                        progress.retired()
                if writes_exec:
                    lanes = None
                    st.exec_changed()
                if moved:
                    w = None
                    if stops:               # s_endpgm, s_barrier: the running set changed
                        runnable = None
                    continue
                if n == st.n:           # every wave of the batch: no fancy indexing
                    pcs += instr.size
                else:
                    behind = True
                pc += instr.size
            if not everyone:            # others may stand at the new pc: regroup, unless w is held
                if hold is None:
                    others = at[~chosen if candidates is None else candidates & ~chosen]
                    hold = int(others.min()) if len(others) else math.inf
                if pc >= hold or tick >= hold_tick:
                    if behind:
                        pcs[w] = pc
                        behind = False
                    w = None

    @staticmethod
    def _next_turn(runnable: np.ndarray, at: np.ndarray, last_pc: int):
        """The waves at the next pc above `last_pc` (wrapping), leaving out the lowest pc, which
        runs anyway; (None, last_pc) when all waves stand at one pc."""
        pcs = np.unique(at)[1:]
        if len(pcs) == 0:
            return None, last_pc
        above = pcs[pcs > last_pc]
        pc = int(above[0] if len(above) else pcs[0])
        return runnable[at == pc], pc

    def _check_gws(self, st: Waves) -> None:
        """Waves left waiting at a GWS barrier when nothing else can run: a deadlock."""
        stuck = {r: waves for r, waves in st.gws.items() if waves}
        if stuck:
            resource, waves = next(iter(stuck.items()))
            instr = self.program.instrs[int(st.pc[waves[0]])]
            raise EmuFault("deadlock", f"{len(waves)} wave(s) wait at GWS barrier {resource} for waves that "
                           "never arrive (a grid barrier needs every workgroup resident at once: launch "
                           "it cooperatively, with at most the occupancy's blocks)",
                           kernel=self.info.name, pc=int(st.pc[waves[0]]) - self.co.base, instruction=instr.text)

    def _step(self, pc: int) -> tuple:
        """What the scheduler needs about the instruction at pc (EmuFault if it cannot run):
        (executor, instruction, mnemonics counted, next pc of a run of no-ops or None, whether it
        changes wave status, "branch"/"end"/None for progress, whether it may write EXEC, whether its
        executor reads or sets the pcs)."""
        exe = self.program.executor(pc, self.info.name)
        instr = self.program.instrs[pc]
        noops = self.program.noop_run(pc)
        if noops:
            return exe, instr, noops[1], noops[0], False, None, False, False
        m = instr.mnemonic
        kind = "branch" if m.startswith(BRANCHES) else "end" if m in ENDS else None
        return exe, instr, (m,), None, m in STATUS_CHANGERS, kind, writes_exec(instr), m.startswith(PC_USERS)

    def _padding(self, mem: Memory, kernel: str, pc: int, text: str) -> None:
        """Report the padding accesses of the instruction just run, once per (kernel, pc)."""
        hits, mem.padding = mem.padding, []
        mem.padding_count += len(hits)
        if (kernel, pc) in mem.padding_reported:
            return
        mem.padding_reported.add((kernel, pc))
        hit = hits[0]
        lane = f"lane {hit.lane} " if hit.lane is not None else ""
        self.warn(f"warning: kernel '{kernel}' pc {pc:#x} '{text}': {lane}{hit.describe()} (no fault there; "
                  f"reported once per instruction; --strict makes it a fault)")

    def _hang(self, st: Waves, progress: Progress, hang: Hang) -> EmuFault:
        """The report of a hang, at the first running wave: its pc, instruction and first active lane."""
        wave = int(hang.waves[0])
        pc = int(st.pc[wave])
        noops = self.program.noop_run(pc)
        if noops and noops[0] in self.program.instrs:   # name the instruction after s_waitcnt & co.
            pc = noops[0]
        instr = self.program.instrs.get(pc)
        active = int(st.mask_bits(np.array([wave]), EXEC)[0])
        lane = (active & -active).bit_length() - 1 if active else None
        loop = progress.loop_of(wave)
        where = f" in the loop at pc {loop[0] - self.co.base:#x}..{loop[1] - self.co.base:#x}" if loop else ""
        why = ("and each is back in a state it was in before with memory unchanged, so it repeats forever"
               if hang.rule == "proof" else
               f"the hang limit ({HANG_ENV}={self.hang_limit}; raise it for longer loops without stores)")
        return EmuFault("hang", f"hangs{where}: no progress (no store or atomic changed memory, no read reached new "
                        f"memory, no wave ended or left its loop) while each of the {len(hang.waves)} running wave(s) executed "
                        f"{hang.stretch} instructions, {why}",
                        kernel=self.info.name, pc=pc - self.co.base, instruction=instr.text if instr else None,
                        lane=lane)
