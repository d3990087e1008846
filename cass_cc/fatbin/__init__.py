"""Device code in CUDA binaries: the fatbin container (own parser, LZ4 and zstd included) and the
cubins inside it (kernels, .nv.info attributes, constant banks, device globals, relocations)."""

from .container import Fatbin, FatbinEntry, parse_fatbins
from .cubin import SUPPORTED_ARCHS, ConstantBank, Cubin, CubinKernel, Relocation, Variable
from .nvinfo import KernelParam, NvInfoRecord
from .reader import read_cubins, read_fatbins

__all__ = ["Fatbin", "FatbinEntry", "parse_fatbins", "Cubin", "CubinKernel", "ConstantBank",
           "Relocation", "Variable", "KernelParam", "NvInfoRecord", "SUPPORTED_ARCHS",
           "read_fatbins", "read_cubins"]
