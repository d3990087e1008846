"""What hip-clang's generated host code calls: registering the embedded fat binary, its kernels
and device variables (static constructors), <<<>>> launches through the call configuration,
and the API that names kernels and variables by their host-side address."""

from __future__ import annotations

import ctypes
import os
import struct

from . import cmem, errors, kernels, streams, transfers
from .kernels import Image
from .registry import hip_api, thread_state
from .state import DEVICE

FATBINS: dict[int, Image] = {}            # handle returned by __hipRegisterFatBinary -> image
HOST_FUNCTIONS: dict[int, tuple[Image, str]] = {}   # host stub address -> (image, kernel)
SYMBOLS: dict[int, tuple[Image, str]] = {}          # host shadow address -> (image, variable)
_handle_cells: list[ctypes.c_void_p] = []
FATBIN_WRAPPER_MAGIC = 0x48495046  # "HIPF": hip-clang's __hip_fatbin_wrapper, which points at the bundle


def _program() -> str:
    try:
        return os.readlink("/proc/self/exe")
    except OSError:
        return "the program"


@hip_api(status=False)
def __hipRegisterFatBinary(wrapper: int) -> int:
    magic, _version, binary = struct.unpack("<IIQ", cmem.get_bytes(wrapper, 16))
    if magic != FATBIN_WRAPPER_MAGIC or not binary:
        raise errors.HipFailure(errors.INVALID_IMAGE, f"bad HIP fat binary wrapper at {wrapper:#x}",
                                report=True)
    cell = ctypes.c_void_p(binary)  # the handle is a void** that really points at the binary
    _handle_cells.append(cell)
    handle = ctypes.addressof(cell)
    image = Image(lambda offset, size: cmem.get_bytes(binary + offset, size), _program())
    image.built_by_hipcc = True  # hip-clang's registration: a source-route program's own code
    FATBINS[handle] = image
    return handle


def _image(handle: int) -> Image:
    image = FATBINS.get(handle)
    if image is None:
        raise errors.HipFailure(errors.INVALID_HANDLE, f"unknown fat binary handle {handle:#x}",
                                report=True)
    return image


@hip_api(status=False)
def __hipRegisterFunction(handle: int, host_function: int, device_function: int,
                          device_name: int, thread_limit: int, tid: int, bid: int,
                          block_dim: int, grid_dim: int, wave_size: int) -> None:
    HOST_FUNCTIONS[host_function] = (_image(handle), cmem.get_str(device_name))


@hip_api(status=False)
def __hipRegisterVar(handle: int, var: int, host_name: int, device_name: int, ext: int,
                     size: int, constant: int, is_global: int) -> None:
    SYMBOLS[var] = (_image(handle), cmem.get_str(device_name))


@hip_api(status=False)
def __hipRegisterManagedVar(handle: int, pointer: int, init_value: int, name: int, size: int,
                            align: int) -> None:
    """A __managed__ variable: managed memory holds it; the host sees it through *pointer and
    the device through the code object's pointer variable of the same name."""
    image, var_name = _image(handle), cmem.get_str(name)
    address = DEVICE.allocate(size, "managed")
    if init_value:
        ctypes.memmove(address, init_value, size)
    cmem.put_ptr(pointer, address)

    def publish(co) -> None:
        slot = co.globals.get(var_name)
        if slot is not None:
            cmem.put_ptr(slot[0], address)

    image.on_load.append(publish)


@hip_api(status=False)
def __hipUnregisterFatBinary(handle: int) -> None:
    FATBINS.pop(handle, None)


# --- launches --------------------------------------------------------------------------------

def _config_stack() -> list:
    return thread_state().setdefault("call_configurations", [])


@hip_api
def __hipPushCallConfiguration(gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                               shared: int, stream: int) -> int:
    _config_stack().append(((gx, gy, gz), (bx, by, bz), shared, stream))
    return 0


@hip_api
def __hipPopCallConfiguration(grid: int, block: int, shared: int, stream: int) -> int:
    stack = _config_stack()
    if not stack:
        return errors.MISSING_CONFIGURATION
    g, b, s, st = stack.pop()
    cmem.put_dims(grid, g)
    cmem.put_dims(block, b)
    cmem.put_size(shared, s)
    cmem.put_ptr(stream, st)
    return 0


def host_function(address: int) -> tuple[Image, str]:
    found = HOST_FUNCTIONS.get(address)
    if found is None:
        raise errors.HipFailure(errors.INVALID_DEVICE_FUNCTION,
                                f"{address:#x} is not a registered kernel")
    return found


def launch_by_address(function: int, grid: tuple, block: tuple, args: int, shared: int,
                      stream: int, cooperative: bool = False) -> int:
    image, name = host_function(function)
    kernarg = kernels.pack_from_pointers(image.kernel(name), args)
    return kernels.run(image, name, grid, block, kernarg, shared, stream, cooperative)


@hip_api
def hipLaunchKernel(function: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                    args: int, shared: int, stream: int) -> int:
    return launch_by_address(function, (gx, gy, gz), (bx, by, bz), args, shared, stream)


@hip_api
def hipLaunchCooperativeKernel(function: int, gx: int, gy: int, gz: int, bx: int, by: int,
                               bz: int, args: int, shared: int, stream: int) -> int:
    return launch_by_address(function, (gx, gy, gz), (bx, by, bz), args, shared, stream, cooperative=True)


@hip_api
def hipExtLaunchKernel(function: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                       args: int, shared: int, stream: int, start: int, stop: int,
                       flags: int) -> int:
    if start:
        streams.enqueue(stream, lambda: streams.record(start) or 0)
    code = launch_by_address(function, (gx, gy, gz), (bx, by, bz), args, shared, stream)
    if stop:
        streams.enqueue(stream, lambda: streams.record(stop) or 0)
    return code


@hip_api
def hipConfigureCall(gx: int, gy: int, gz: int, bx: int, by: int, bz: int, shared: int,
                     stream: int) -> int:
    _config_stack().append(((gx, gy, gz), (bx, by, bz), shared, stream))
    thread_state()["arguments"] = bytearray()
    return 0


@hip_api
def hipSetupArgument(arg: int, size: int, offset: int) -> int:
    buf = thread_state().get("arguments")
    if buf is None:
        return errors.MISSING_CONFIGURATION
    if len(buf) < offset + size:
        buf.extend(bytes(offset + size - len(buf)))
    buf[offset:offset + size] = cmem.get_bytes(arg, size)
    return 0


@hip_api
def hipLaunchByPtr(function: int) -> int:
    stack = _config_stack()
    if not stack:
        return errors.MISSING_CONFIGURATION
    grid, block, shared, stream = stack.pop()
    kernarg = bytes(thread_state().pop("arguments", b""))
    image, name = host_function(function)
    return kernels.run(image, name, grid, block, kernarg, shared, stream)


# --- kernels and variables named by host address ---------------------------------------------

@hip_api
def hipFuncGetAttributes(out: int, function: int) -> int:
    image, name = host_function(function)
    attrs = kernels.attributes(image.kernel(name))
    if not out:
        return errors.INVALID_VALUE
    ctypes.memmove(out, ctypes.addressof(attrs), ctypes.sizeof(attrs))
    return 0


@hip_api
def hipFuncSetAttribute(function: int, attribute: int, value: int) -> int:
    host_function(function)
    return 0


@hip_api
def hipFuncSetCacheConfig(function: int, config: int) -> int:
    host_function(function)
    return 0


@hip_api
def hipFuncSetSharedMemConfig(function: int, config: int) -> int:
    host_function(function)
    return 0


@hip_api(status=False)
def hipKernelNameRefByPtr(function: int, stream: int) -> int:
    return cmem.c_string(host_function(function)[1])


def _kernel_of(function: int):
    image, name = host_function(function)
    return image.kernel(name)


@hip_api
def hipOccupancyMaxActiveBlocksPerMultiprocessor(out: int, function: int, block_size: int,
                                                 dynamic_lds: int) -> int:
    cmem.put_int(out, kernels.blocks_per_cu(_kernel_of(function), block_size, dynamic_lds))
    return 0


@hip_api
def hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(out: int, function: int,
                                                          block_size: int, dynamic_lds: int,
                                                          flags: int) -> int:
    cmem.put_int(out, kernels.blocks_per_cu(_kernel_of(function), block_size, dynamic_lds))
    return 0


@hip_api
def hipOccupancyMaxPotentialBlockSize(grid_out: int, block_out: int, function: int,
                                      dynamic_lds: int, limit: int) -> int:
    grid, block = kernels.best_block_size(_kernel_of(function), dynamic_lds, limit)
    cmem.put_int(grid_out, grid)
    cmem.put_int(block_out, block)
    return 0


def symbol(address: int) -> tuple[int, int]:
    """(device address, size) of the device variable whose host shadow is at address."""
    found = SYMBOLS.get(address)
    if found is None:
        raise errors.HipFailure(errors.INVALID_SYMBOL, f"{address:#x} is not a device variable")
    image, name = found
    return image.global_variable(name)


def _symbol_range(address: int, size: int, offset: int) -> int:
    base, total = symbol(address)
    if offset + size > total:
        raise errors.HipFailure(errors.INVALID_VALUE, "copy past the end of the symbol")
    return base + offset


@hip_api
def hipMemcpyToSymbol(sym: int, src: int, size: int, offset: int, kind: int) -> int:
    return transfers.copy(_symbol_range(sym, size, offset), src, size, kind)


@hip_api
def hipMemcpyToSymbolAsync(sym: int, src: int, size: int, offset: int, kind: int,
                           stream: int) -> int:
    target = _symbol_range(sym, size, offset)
    return streams.enqueue(stream, lambda: transfers.copy(target, src, size, kind))


@hip_api
def hipMemcpyFromSymbol(dst: int, sym: int, size: int, offset: int, kind: int) -> int:
    return transfers.copy(dst, _symbol_range(sym, size, offset), size, kind)


@hip_api
def hipMemcpyFromSymbolAsync(dst: int, sym: int, size: int, offset: int, kind: int,
                             stream: int) -> int:
    source = _symbol_range(sym, size, offset)
    return streams.enqueue(stream, lambda: transfers.copy(dst, source, size, kind))


@hip_api
def hipGetSymbolAddress(out: int, sym: int) -> int:
    cmem.put_ptr(out, symbol(sym)[0])
    return 0


@hip_api
def hipGetSymbolSize(out: int, sym: int) -> int:
    cmem.put_size(out, symbol(sym)[1])
    return 0
