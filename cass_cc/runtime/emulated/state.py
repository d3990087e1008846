"""The emulated device's state: its memory, what the program allocated, and the emulated clock
that events read."""

from __future__ import annotations

import atexit
import ctypes
import json
import os
from dataclasses import dataclass

from . import errors

# The emulated device (an RX 7900 XTX class gfx1100); copies and kernels advance the clock by
# what they would take there, so event timings are plausible and monotonic.
TOTAL_MEMORY = 24 * 1024**3
LAUNCH_OVERHEAD_S = 4e-6
COPY_OVERHEAD_S = 2e-6
HOST_LINK_BYTES_PER_S = 24e9
DEVICE_BYTES_PER_S = 800e9
WAVE_INSTRUCTIONS_PER_S = 96 * 2 * 2.5e9  # 96 CUs, 2 SIMDs each, one wave-instruction a cycle
STATS_FILE_ENV = "CASS_EMU_STATS_FILE"


@dataclass
class Allocation:
    address: int
    size: int
    kind: str  # device, host, managed, registered
    flags: int = 0


class Device:
    def __init__(self) -> None:
        self._memory = None
        self.allocations: dict[int, Allocation] = {}
        self.clock_s = 0.0

    @property
    def memory(self):
        if self._memory is None:
            from cass_cc.emu import Memory
            self._memory = Memory()
            self._memory.warn = _warn
            atexit.register(self._padding_summary)   # emuhip/shim.c runs these at exit
        return self._memory

    def _padding_summary(self) -> None:
        """At exit: how many accesses landed in allocations' page padding (each place was reported once)."""
        mem = self._memory
        if mem is not None and mem.padding_count:
            _warn(f"warning: {len(mem.padding_reported)} instruction(s) went past the end of an allocation, "
                  f"inside its page (no fault on a GPU), {mem.padding_count} time(s) in all; --strict makes "
                  "that a fault")

    # --- allocations ----------------------------------------------------------------------

    def allocate(self, size: int, kind: str, flags: int = 0) -> int:
        if size < 0:
            raise errors.HipFailure(errors.INVALID_VALUE)
        if self.used_bytes() + size > TOTAL_MEMORY:
            raise errors.HipFailure(errors.OUT_OF_MEMORY)
        try:
            address = self.memory.allocate(max(size, 1), kind=kind)
        except MemoryError:
            raise errors.HipFailure(errors.OUT_OF_MEMORY) from None
        self.allocations[address] = Allocation(address, size, kind, flags)
        return address

    def free(self, address: int, kinds: tuple[str, ...]) -> None:
        if not address:
            return
        alloc = self.allocations.get(address)
        if alloc is None or alloc.kind not in kinds:
            raise errors.HipFailure(errors.INVALID_VALUE, f"{address:#x} is not an allocation")
        del self.allocations[address]
        self.memory.free(address)

    def register(self, address: int, size: int, flags: int) -> None:
        if address in self.allocations:
            raise errors.HipFailure(errors.HOST_MEMORY_ALREADY_REGISTERED)
        self.memory.register(address, size, "host")
        self.allocations[address] = Allocation(address, size, "registered", flags)

    def unregister(self, address: int) -> None:
        alloc = self.allocations.get(address)
        if alloc is None or alloc.kind != "registered":
            raise errors.HipFailure(errors.HOST_MEMORY_NOT_REGISTERED)
        del self.allocations[address]
        self.memory.unregister(address)

    def used_bytes(self) -> int:
        return sum(a.size for a in self.allocations.values() if a.kind in ("device", "managed"))

    def find(self, address: int) -> Allocation | None:
        """The allocation made through HIP that contains address."""
        for alloc in self.allocations.values():
            if alloc.address <= address < alloc.address + max(alloc.size, 1):
                return alloc
        return None

    def check_range(self, address: int, size: int) -> None:
        """A device-side range must lie in memory the emulator knows (an allocation, or a global
        variable of a loaded code object); real HIP would fault later, this names it now."""
        if size == 0:
            return
        if not address:
            raise errors.HipFailure(errors.INVALID_VALUE, "null device pointer")
        found = self.memory.find(address)
        if found is None or address + size > found[0] + found[1]:
            raise errors.HipFailure(errors.INVALID_VALUE,
                                    f"{size} bytes at {address:#x} are outside every allocation")

    def reset(self) -> None:
        for alloc in list(self.allocations.values()):
            if alloc.kind == "registered":
                self.memory.unregister(alloc.address)
            else:
                self.memory.free(alloc.address)
        self.allocations.clear()

    # --- the emulated clock ---------------------------------------------------------------

    def advance_copy(self, nbytes: int, across_host_link: bool) -> None:
        rate = HOST_LINK_BYTES_PER_S if across_host_link else DEVICE_BYTES_PER_S
        self.clock_s += COPY_OVERHEAD_S + nbytes / rate

    def advance_kernel(self, wave_instructions: int) -> None:
        self.clock_s += LAUNCH_OVERHEAD_S + wave_instructions / WAVE_INSTRUCTIONS_PER_S


def _warn(text: str) -> None:
    """A cass-run warning on stderr, after what the program printed so far."""
    _LIBC.fflush(None)
    os.write(2, f"cass-run: {text}\n".encode(errors="replace"))


_LIBC = ctypes.CDLL(None)
_LIBC.fflush.argtypes = [ctypes.c_void_p]

DEVICE = Device()


def record_launch(stats) -> None:
    """Append one launch's LaunchStats as a JSON line to the file cass-run --emu-stats reads."""
    path = os.environ.get(STATS_FILE_ENV)
    if not path:
        return
    line = json.dumps({
        "kernel": stats.kernel, "grid": list(stats.grid), "block": list(stats.block),
        "wave_instructions": int(stats.wave_instructions),
        "lane_instructions": int(stats.lane_instructions),
        "opcode_counts": {str(k): int(v) for k, v in dict(stats.opcode_counts).items()},
        "stalled_instructions": int(stats.stalled),
        "seconds": float(stats.seconds)}) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)
