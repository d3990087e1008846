"""The table of HIP functions the C shim calls, and what every call shares: the last error,
turning Python failures into HIP error codes, emulator faults into the fault report and exit 134,
and the emulator's own bugs into an internal-error report and exit 70."""

from __future__ import annotations

import ctypes
import functools
import os
import sys
import threading
import traceback
from typing import Callable

from cass_cc.errors import INTERNAL_ERROR_EXIT

from . import errors

API: dict[str, Callable[..., int]] = {}
FAULT_EXIT_STATUS = 134

_libc = ctypes.CDLL(None)
_libc.fflush.argtypes = [ctypes.c_void_p]
_libc.fwrite.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p]
_c_stdout = ctypes.c_void_p.in_dll(_libc, "stdout")
_per_thread: dict[int, dict] = {}
# One call at a time, as if the device had one queue: the GIL alone would let threads
# interleave inside a call (a lazy first allocation, a launch's bookkeeping).
_device_lock = threading.RLock()
_unsupported_named: set[str] = set()


def hip_api(fn: Callable | None = None, *, status: bool = True):
    """Register fn under its own name. With status=True its result is a hipError_t that
    becomes the thread's last error when it is not hipSuccess."""

    def register(f: Callable) -> Callable:
        @functools.wraps(f)
        def call(*args):
            try:
                with _device_lock:
                    result = f(*args)
            except errors.HipFailure as e:
                if e.report:
                    _libc.fflush(None)
                    sys.stderr.write(f"cass-run: error: {f.__name__}: {e}\n")
                    sys.stderr.flush()
                result = e.code if status else 0
            except Exception as e:  # noqa: BLE001 - a HIP call must never raise into C
                if _is_emu_fault(e):
                    fault_exit(e)
                _libc.fflush(None)
                sys.stderr.write(f"cass-run: internal error in the emulated {f.__name__}:\n")
                traceback.print_exc()
                result = errors.UNKNOWN if status else 0
            if status and result:
                thread_state()["last_error"] = result
            return result or 0

        API[f.__name__] = call
        return f

    return register(fn) if fn is not None else register


def thread_state() -> dict:
    """State of the calling OS thread. Not threading.local: the C shim's PyGILState calls give
    a thread that Python did not start a fresh Python thread state for every call."""
    return _per_thread.setdefault(threading.get_ident(), {})


def take_last_error() -> int:
    return thread_state().pop("last_error", 0)


def peek_last_error() -> int:
    return thread_state().get("last_error", 0)


def _is_emu_fault(e: Exception) -> bool:
    """An emulator fault, or a bug of the emulator (EmuInternalError): either ends the program."""
    try:
        from cass_cc.emu.fault import EmuFault, EmuInternalError
    except ImportError:
        return False
    return isinstance(e, (EmuFault, EmuInternalError))


def flush_c_streams() -> None:
    """Flush the C library's streams, so what Python writes next comes after the program's output."""
    _libc.fflush(None)


def write_stdout(text: str) -> None:
    """Write through the C library's stdout, so device printf lines and the program's own
    printf output keep their order."""
    data = text.encode(errors="replace")
    _libc.fwrite(data, 1, len(data), _c_stdout)


def fault_exit(fault: Exception) -> None:
    """An emulator fault ends the program like a GPU memory fault ends a real one (exit 134). A
    bug of the emulator (EmuInternalError) is cass-cc's own failure: exit INTERNAL_ERROR_EXIT, with
    the traceback of the failure under CASS_DEBUG=1."""
    from cass_cc.emu.fault import EmuInternalError
    _libc.fflush(None)
    if not isinstance(fault, EmuInternalError):
        os.write(2, f"cass-run: {fault}\n".encode(errors="replace"))
        os._exit(FAULT_EXIT_STATUS)
    text = f"cass-run: {fault}; set CASS_DEBUG=1 for the traceback\n"
    if os.environ.get("CASS_DEBUG") and fault.__cause__ is not None:
        text = "".join(traceback.format_exception(fault.__cause__)) + text
    os.write(2, text.encode(errors="replace"))
    os._exit(INTERNAL_ERROR_EXIT)


@hip_api
def _unsupported(name: str) -> int:
    if name not in _unsupported_named:
        _unsupported_named.add(name)
        _libc.fflush(None)
        sys.stderr.write(f"cass-run: {name} is not supported by the emulated runtime\n")
        sys.stderr.flush()
    return errors.NOT_SUPPORTED
