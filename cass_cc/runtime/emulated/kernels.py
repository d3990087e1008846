"""Code objects and kernel launches: loading a program's code object for the emulated device into the emulator
on first use, packing kernel arguments per the code object's metadata, launching, and the
per-kernel attributes and occupancy that HIP reports."""

from __future__ import annotations

import ctypes
import traceback
from typing import Callable

from cass_cc import targets
from cass_cc.runtime.device_target import device_arch
from cass_cc.errors import CassError
from cass_cc.rdna3 import bundle
from cass_cc.rdna3.code_object import Reader, elf_size

from . import check, cmem, errors
from .device_props import PROPS
from .registry import write_stdout
from .state import DEVICE, record_launch
from .streams import enqueue

OFFLOAD_ARCH = device_arch()  # the emulated device's processor (cass-run chose it)
MAX_LDS = targets.target(OFFLOAD_ARCH).lds_per_workgroup
LOADED: list["Image"] = []  # every Image whose code object is in the emulator's memory, in load order
COOPERATIVE_LAUNCH_TOO_LARGE = 720  # hipErrorCooperativeLaunchTooLarge
VGPRS_PER_SIMD_LANE = 1536  # gfx11 wave32: VGPR file per SIMD, in registers per lane
MAX_WAVES_PER_SIMD = 16
SIMDS_PER_CU = 2
ELF_MAGIC = b"\x7fELF"


def pick_code_object(read: Reader) -> bytes:
    """The code object for the emulated device (OFFLOAD_ARCH) of the bundle or ELF image at offset 0 of what `read` reads."""
    if read(0, 4) == ELF_MAGIC:
        return read(0, elf_size(read))
    try:
        entries = bundle.bundle_entries(read, "the program's image")
    except CassError as e:  # a compressed bundle is worth saying so: a rebuild fixes it
        raise errors.HipFailure(errors.INVALID_IMAGE, e.message,
                                report=read(0, 4) == bundle.COMPRESSED_MAGIC) from None
    for e in entries:
        if e.id.startswith("hip") and "amdgcn" in e.id and bundle.processor(e.id) == OFFLOAD_ARCH:
            return read(e.offset, e.size)
    found = sorted({bundle.processor(e.id) for e in entries if "amdgcn" in e.id}) or ["none"]
    raise errors.HipFailure(errors.NO_BINARY_FOR_GPU,
                            f"no {OFFLOAD_ARCH} code object in the program (it has: {', '.join(found)}); "
                            f"build with --offload-arch={OFFLOAD_ARCH}", report=True)


class Image:
    """A code object the program supplied; loaded into the emulator when first needed.

    What cass-run --check needs to know about it (check.py): `entry`, the offload bundle entry
    it came from when libcassrt said so ("hip-..." translated, "hipv4-..." hipcc's fallback);
    `built_by_hipcc` for a hip-clang program's own fat binary; `reference`, the Image of the
    reference build of its translation unit; `is_reference` for such an Image."""

    def __init__(self, read: Reader, origin: str) -> None:
        self._read = read
        self.origin = origin
        self._co = None
        self.on_load: list[Callable[[object], None]] = []
        self.entry = ""
        self.built_by_hipcc = False
        self.reference: Image | None = None
        self.is_reference = False

    @property
    def loaded(self):
        """The code object when it is loaded already, else None."""
        return self._co

    @property
    def co(self):
        if self._co is None:
            from cass_cc.emu import CodeObject
            data = pick_code_object(self._read)
            try:
                self._co = CodeObject.load(data, DEVICE.memory)
            except Exception as e:  # noqa: BLE001 - any loader failure is a bad image for HIP
                raise errors.HipFailure(errors.INVALID_IMAGE,
                                        f"cannot load the {OFFLOAD_ARCH} code object of {self.origin}: {e}",
                                        report=True) from e
            LOADED.append(self)
            for hook in self.on_load:
                hook(self._co)
        return self._co

    def kernel(self, name: str):
        info = self.co.kernels.get(name)
        if info is None:
            raise errors.HipFailure(errors.INVALID_DEVICE_FUNCTION,
                                    f"kernel '{name}' is not in the code object of {self.origin}",
                                    report=True)
        return info

    def global_variable(self, name: str) -> tuple[int, int]:
        found = self.co.globals.get(name)
        if found is None:
            raise errors.HipFailure(errors.NOT_FOUND, f"no global '{name}' in {self.origin}")
        return found


def pack_from_pointers(info, args: int) -> bytes:
    """Kernel arguments from HIP's `void** args`: one pointer to each explicit argument."""
    params = info.explicit_args
    buf = bytearray(max((a.offset + a.size for a in params), default=0))
    if params and not args:
        raise errors.HipFailure(errors.INVALID_VALUE, "kernel arguments are missing")
    for i, a in enumerate(params):
        value_addr = cmem.get_u64(args + 8 * i)
        if not value_addr:
            raise errors.HipFailure(errors.INVALID_VALUE, f"argument {i} of {info.name} is null")
        buf[a.offset:a.offset + a.size] = cmem.get_bytes(value_addr, a.size)
    return bytes(buf)


def pack_from_extra(extra: int) -> bytes:
    """Kernel arguments from hipModuleLaunchKernel's `extra`: HIP_LAUNCH_PARAM_BUFFER_POINTER,
    buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END."""
    pointer, size, pos = 0, None, extra
    for _ in range(64):
        key = cmem.get_u64(pos)
        if key == 3:  # HIP_LAUNCH_PARAM_END
            break
        value = cmem.get_u64(pos + 8)
        if key == 1:
            pointer = value
        elif key == 2:
            size = ctypes.c_size_t.from_address(value).value if value else None
        else:
            raise errors.HipFailure(errors.INVALID_VALUE, f"unknown launch parameter {key:#x}")
        pos += 16
    if size is None or (size and not pointer):
        raise errors.HipFailure(errors.INVALID_VALUE, "extra needs a buffer pointer and size")
    return cmem.get_bytes(pointer, size)


def run(image: Image, name: str, grid: tuple[int, int, int], block: tuple[int, int, int],
        kernarg: bytes, dynamic_lds: int, stream: int, cooperative: bool = False) -> int:
    """Launch one kernel on the emulator (synchronously), or record the launch on a capturing
    stream; the arguments are checked now either way. A cooperative launch's grid must fit on
    the device at once (every grid the device holds runs all together, see _execute)."""
    info = image.kernel(name)
    threads = block[0] * block[1] * block[2]
    limit = min(PROPS.maxThreadsPerBlock, info.max_flat_workgroup_size or PROPS.maxThreadsPerBlock)
    if min(grid) < 1 or min(block) < 1 or threads > limit:
        raise errors.HipFailure(errors.INVALID_CONFIGURATION,
                                f"launch of {name} with grid {grid} block {block} (limit {limit} threads)")
    if dynamic_lds + info.group_segment_size > MAX_LDS:
        raise errors.HipFailure(errors.INVALID_VALUE, f"{name} asks for more than {MAX_LDS} bytes of LDS")
    if cooperative and grid[0] * grid[1] * grid[2] > resident_groups(info, threads, dynamic_lds):
        return COOPERATIVE_LAUNCH_TOO_LARGE
    return enqueue(stream, lambda: _execute(image, name, grid, block, kernarg, dynamic_lds))


def _execute(image: Image, name: str, grid: tuple[int, int, int], block: tuple[int, int, int],
             kernarg: bytes, dynamic_lds: int) -> int:
    from cass_cc.emu import EmuFault, launch
    from cass_cc.emu.fault import EmuInternalError
    try:
        # a grid the device holds at once runs all together, as on a GPU: what cooperative
        # launches (grid-wide barriers) rely on
        resident = resident_groups(image.kernel(name), block[0] * block[1] * block[2], dynamic_lds)

        def run_on(co, kernel: str, args: bytes, printf):
            return launch(co, kernel, grid=grid, block=block, kernarg=args, dynamic_lds=dynamic_lds,
                          memory=DEVICE.memory, printf=printf or write_stdout, resident_groups=resident)
        if check.enabled():
            stats = check.run_checked(image, name, grid, block, kernarg, run_on, LOADED)
        else:
            stats = run_on(image.co, name, kernarg, None)
    except (EmuFault, EmuInternalError):
        raise  # the registry reports it and ends the program
    except Exception as e:  # noqa: BLE001 - an emulator bug fails this launch, visibly
        traceback.print_exc()
        raise errors.HipFailure(errors.LAUNCH_FAILURE,
                                f"internal error of the emulator in kernel '{name}': {e}",
                                report=True) from e
    record_launch(stats)
    DEVICE.advance_kernel(stats.wave_instructions)
    return 0


# --- what HIP reports about a kernel ---------------------------------------------------------

class FuncAttributes(ctypes.Structure):
    """hipFuncAttributes of HIP 5.2."""
    _fields_ = [("binaryVersion", ctypes.c_int), ("cacheModeCA", ctypes.c_int),
                ("constSizeBytes", ctypes.c_size_t), ("localSizeBytes", ctypes.c_size_t),
                ("maxDynamicSharedSizeBytes", ctypes.c_int), ("maxThreadsPerBlock", ctypes.c_int),
                ("numRegs", ctypes.c_int), ("preferredShmemCarveout", ctypes.c_int),
                ("ptxVersion", ctypes.c_int), ("sharedSizeBytes", ctypes.c_size_t)]


def attributes(info) -> FuncAttributes:
    a = FuncAttributes()
    a.binaryVersion = a.ptxVersion = PROPS.major * 10 + PROPS.minor
    a.localSizeBytes = info.private_segment_size
    a.sharedSizeBytes = info.group_segment_size
    a.maxDynamicSharedSizeBytes = MAX_LDS - info.group_segment_size
    a.maxThreadsPerBlock = min(info.max_flat_workgroup_size or 1024, PROPS.maxThreadsPerBlock)
    a.numRegs = info.vgpr_count
    a.preferredShmemCarveout = -1
    return a


def attribute(info, which: int) -> int:
    """hipFunction_attribute (HIP_FUNC_ATTRIBUTE_*, in enum order)."""
    a = attributes(info)
    values = [a.maxThreadsPerBlock, a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes,
              a.numRegs, a.ptxVersion, a.binaryVersion, a.cacheModeCA,
              a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout]
    if not 0 <= which < len(values):
        raise errors.HipFailure(errors.INVALID_VALUE)
    return values[which]


def blocks_per_cu(info, block_size: int, dynamic_lds: int) -> int:
    """Resident workgroups per CU for a block size, limited by waves, VGPRs and LDS."""
    if block_size <= 0:
        raise errors.HipFailure(errors.INVALID_VALUE)
    waves = -(-block_size // PROPS.warpSize)
    vgprs = max(info.vgpr_count, 1)
    waves_per_simd = min(MAX_WAVES_PER_SIMD, VGPRS_PER_SIMD_LANE // (-(-vgprs // 8) * 8))
    by_waves = (waves_per_simd * SIMDS_PER_CU) // waves
    lds = info.group_segment_size + dynamic_lds
    by_lds = MAX_LDS // lds if lds else by_waves
    by_threads = PROPS.maxThreadsPerMultiProcessor // block_size
    return max(0, min(by_waves, by_lds, by_threads))


def resident_groups(info, block_size: int, dynamic_lds: int) -> int:
    """Workgroups the whole device holds at once."""
    return blocks_per_cu(info, block_size, dynamic_lds) * PROPS.multiProcessorCount


def best_block_size(info, dynamic_lds: int, limit: int) -> tuple[int, int]:
    """(grid size, block size) that maximises resident threads, as
    hipOccupancyMaxPotentialBlockSize reports them."""
    cap = min(info.max_flat_workgroup_size or 1024, PROPS.maxThreadsPerBlock, limit or 1024)
    best = (0, PROPS.warpSize)
    for size in range(PROPS.warpSize, cap + 1, PROPS.warpSize):
        resident = blocks_per_cu(info, size, dynamic_lds) * size
        if resident >= best[0]:
            best = (resident, size)
    size = best[1]
    return blocks_per_cu(info, size, dynamic_lds) * PROPS.multiProcessorCount, size
