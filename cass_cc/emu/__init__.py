"""A functional RDNA3 (gfx1100, wave32) emulator for AMDGPU code objects.

    from cass_cc.emu import Memory, CodeObject, launch, EmuFault
    mem = Memory()
    co = CodeObject.load(open("k.hsaco", "rb").read(), mem)
    stats = launch(co, "kernel", grid=(4, 1, 1), block=(64, 1, 1), kernarg=args, memory=mem)
"""

from .code_object import CodeObject, KernelArg, KernelInfo
from .fault import EmuFault
from .launch import LaunchStats, launch
from .memory import Memory

__all__ = ["Memory", "CodeObject", "KernelInfo", "KernelArg", "launch", "LaunchStats", "EmuFault"]
