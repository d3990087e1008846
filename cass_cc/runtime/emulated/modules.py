"""The module API: code objects a program loads itself (hipModuleLoad/LoadData), their kernels
(hipFunction_t) and globals, and hipModuleLaunchKernel."""

from __future__ import annotations

from . import check, cmem, errors, kernels
from .kernels import Image, pick_code_object
from .registry import hip_api

MODULES: dict[int, Image] = {}
FUNCTIONS: dict[int, tuple[Image, str]] = {}
REFERENCES: dict[int, Image] = {}  # address of a bundle's reference entry -> its Image (cass-run --check)


def _load(out: int, data: bytes, origin: str) -> int:
    if not out:
        return errors.INVALID_VALUE
    code_object = pick_code_object(lambda offset, size: data[offset:offset + size])
    image = Image(lambda offset, size: code_object[offset:offset + size], origin)
    image.co  # load now: a bad image is hipModuleLoad's error, not a later launch's
    handle = cmem.new_handle()
    MODULES[handle] = image
    cmem.put_ptr(out, handle)
    return 0


@hip_api
def hipModuleLoad(out: int, fname: int) -> int:
    path = cmem.get_str(fname)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return errors.FILE_NOT_FOUND
    return _load(out, data, path)


def _image_bytes(address: int) -> bytes:
    """A bundle or ELF image in the program's memory, copied (the program may free it)."""
    if not address:
        raise errors.HipFailure(errors.INVALID_VALUE, "null image")
    read = lambda offset, size: cmem.get_bytes(address + offset, size)  # noqa: E731
    return pick_code_object(read)


@hip_api
def hipModuleLoadData(out: int, image: int) -> int:
    return _load(out, _image_bytes(image), f"the image at {image:#x}")


@hip_api
def hipModuleLoadDataEx(out: int, image: int, num_options: int, options: int,
                        values: int) -> int:
    return _load(out, _image_bytes(image), f"the image at {image:#x}")


def _module(handle: int) -> Image:
    image = MODULES.get(handle)
    if image is None:
        raise errors.HipFailure(errors.INVALID_HANDLE, f"unknown module {handle:#x}")
    return image


@hip_api
def __cassEmuDescribeModule(module: int, entry: int, reference: int) -> int:
    """cass-cc's extension, called by libcassrt: the offload bundle entry a module was loaded
    from, and the reference code object of its translation unit (0 without one)."""
    image = _module(module)
    image.entry = cmem.get_str(entry) if entry else ""
    if reference and check.enabled() and image.entry.startswith(check.TRANSLATED_KIND):
        if reference not in REFERENCES:
            data = _image_bytes(reference)
            ref = Image(lambda offset, size: data[offset:offset + size], f"the reference of {image.origin}")
            ref.is_reference = True
            REFERENCES[reference] = ref
        image.reference = REFERENCES[reference]
    return 0


@hip_api
def hipModuleUnload(handle: int) -> int:
    _module(handle)
    del MODULES[handle]
    return 0


@hip_api
def hipModuleGetFunction(out: int, module: int, name: int) -> int:
    image, kernel = _module(module), cmem.get_str(name)
    if kernel not in image.co.kernels:
        return errors.NOT_FOUND
    handle = cmem.new_handle()
    FUNCTIONS[handle] = (image, kernel)
    cmem.put_ptr(out, handle)
    return 0


@hip_api
def hipModuleGetGlobal(dptr: int, nbytes: int, module: int, name: int) -> int:
    address, size = _module(module).global_variable(cmem.get_str(name))
    if dptr:
        cmem.put_ptr(dptr, address)
    if nbytes:
        cmem.put_size(nbytes, size)
    return 0


def _function(handle: int) -> tuple[Image, str]:
    found = FUNCTIONS.get(handle)
    if found is None:
        raise errors.HipFailure(errors.INVALID_HANDLE, f"unknown function {handle:#x}")
    return found


@hip_api
def hipModuleLaunchKernel(function: int, gx: int, gy: int, gz: int, bx: int, by: int, bz: int,
                          shared: int, stream: int, params: int, extra: int) -> int:
    image, name = _function(function)
    if params and extra:
        return errors.INVALID_VALUE
    if extra:
        kernarg = kernels.pack_from_extra(extra)
    else:
        kernarg = kernels.pack_from_pointers(image.kernel(name), params)
    return kernels.run(image, name, (gx, gy, gz), (bx, by, bz), kernarg, shared, stream)


@hip_api
def hipFuncGetAttribute(out: int, attribute: int, function: int) -> int:
    image, name = _function(function)
    cmem.put_int(out, kernels.attribute(image.kernel(name), attribute))
    return 0


@hip_api(status=False)
def hipKernelNameRef(function: int) -> int:
    return cmem.c_string(_function(function)[1])


def _kernel_of(function: int):
    image, name = _function(function)
    return image.kernel(name)


@hip_api
def hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(out: int, function: int, block_size: int,
                                                       dynamic_lds: int) -> int:
    cmem.put_int(out, kernels.blocks_per_cu(_kernel_of(function), block_size, dynamic_lds))
    return 0


@hip_api
def hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(out: int, function: int,
                                                                block_size: int,
                                                                dynamic_lds: int,
                                                                flags: int) -> int:
    cmem.put_int(out, kernels.blocks_per_cu(_kernel_of(function), block_size, dynamic_lds))
    return 0


def _potential(grid_out: int, block_out: int, function: int, dynamic_lds: int, limit: int) -> int:
    grid, block = kernels.best_block_size(_kernel_of(function), dynamic_lds, limit)
    cmem.put_int(grid_out, grid)
    cmem.put_int(block_out, block)
    return 0


@hip_api
def hipModuleOccupancyMaxPotentialBlockSize(grid_out: int, block_out: int, function: int,
                                            dynamic_lds: int, limit: int) -> int:
    return _potential(grid_out, block_out, function, dynamic_lds, limit)


@hip_api
def hipModuleOccupancyMaxPotentialBlockSizeWithFlags(grid_out: int, block_out: int,
                                                     function: int, dynamic_lds: int,
                                                     limit: int, flags: int) -> int:
    return _potential(grid_out, block_out, function, dynamic_lds, limit)
