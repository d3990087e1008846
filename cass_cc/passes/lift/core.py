"""The lifter's builder context: one thread's register file as allocas, operand reads and writes
with their modifiers, guard predicates, and the LLVM basic block of every branch target.

Families (integer.py, float.py, ...) register handlers `fn(ctx, ins)` for opcodes; a handler reads
operands through ctx (`u32`, `u64`, `f32`, `f64`, `pred`) and writes results through ctx (`set32`,
`set64`, `setp` ...). While a guard (`@P0`) is active for a pure instruction, writes become
`select(guard, new, old)`; instructions with side effects run inside a conditional block instead.
"""

from __future__ import annotations

from typing import Callable

from llvmlite import ir

from cass_cc.errors import Refusal, UnknownInstruction
from cass_cc.sass.model import ConstRef, Imm, Instruction, Label, Mem, Reg, SymbolRef

I1, I8, I16, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(16), ir.IntType(32), ir.IntType(64)
F16, F32, F64 = ir.HalfType(), ir.FloatType(), ir.DoubleType()
VOID = ir.VoidType()
PTR = {space: ir.PointerType(addrspace=space) for space in (0, 1, 3, 4, 5)}
FLAT, GLOBAL, LDS, CONST, PRIVATE = PTR[0], PTR[1], PTR[3], PTR[4], PTR[5]

# opcode -> (handler, kind); kind: "pure" (writes registers only), "effect" (memory, barriers,
# calls: runs under a branch when guarded), "control" (handles its guard itself)
Handler = Callable[["Lifter", Instruction], None]
HANDLERS: dict[str, tuple[Handler, str]] = {}


def handles(*opcodes: str, kind: str = "pure"):
    """Register a family's handler for `opcodes`."""
    def register(fn: Handler) -> Handler:
        for op in opcodes:
            HANDLERS[op] = (fn, kind)
        return fn
    return register


def unsupported(ins: Instruction, why: str = "") -> Refusal:
    extra = f" ({why})" if why else ""
    return UnknownInstruction(f"unsupported SASS: {ins.full_opcode} at 0x{ins.address:x}: {ins.text or ins.full_opcode}{extra}")


class PrivateAlloca(ir.instructions.AllocaInstr):
    """`alloca T, addrspace(5)`: AMDGPU's stack lives in the private address space."""

    def __init__(self, parent, typ, name):
        super().__init__(parent, typ, None, name)
        self.type = PRIVATE

    def descr(self, buf):
        buf.append(f"alloca {self.allocated_type}")
        if self.align is not None:
            buf.append(f", align {self.align}")
        buf.append(", addrspace(5)\n")


def opaque(g: ir.GlobalVariable, space: int) -> ir.Value:
    """A global as an opaque `ptr addrspace(N)` (llvmlite.ir types globals as typed pointers)."""
    return ir.FormattedConstant(ir.PointerType(addrspace=space), g.get_reference())


class Lifter:
    """Lifting state for one kernel: module, function, builder, registers, blocks."""

    def __init__(self, module: ir.Module, fn: ir.Function, sm_arch: str):
        self.module, self.fn, self.sm_arch = module, fn, sm_arch
        self.entry = fn.append_basic_block("entry")
        self.entry_builder = ir.IRBuilder(self.entry)
        self.b = ir.IRBuilder(self.entry)
        self.regs: dict[tuple[str, int], ir.Value] = {}
        self.blocks: dict[tuple[tuple[int, ...], int], ir.Block] = {}
        self.context: tuple[int, ...] = ()          # call sites of the subroutine copy being lifted
        self.guard: ir.Value | None = None          # pure instructions: writes select on it
        self.guard_value: ir.Value | None = None    # control instructions: their guard
        self.ins: Instruction | None = None
        self.intrinsics: dict[str, ir.Function] = {}
        self.state: dict = {}          # per-kernel facts families share (launch state, frame, ...)
        self.slot_inits: dict[tuple[str, int], ir.instructions.StoreInstr] = {}   # each slot's first store

    # ---- functions -----------------------------------------------------------------------------
    def enter_function(self, fn: ir.Function) -> tuple:
        """Lift into `fn` from now on, with a register file of its own (subroutines.py). Facts in
        `state` carry over; IR values in it (launch-state pointers, the frame) belong to the
        function they were built in and are rebuilt in `fn` when used. Returns what
        `leave_function` restores."""
        saved = (self.fn, self.entry, self.entry_builder, self.b, self.regs, self.blocks, self.state,
                 self.context, self.slot_inits)
        self.fn = fn
        self.entry = fn.append_basic_block("entry")
        self.entry_builder = ir.IRBuilder(self.entry)
        self.b = ir.IRBuilder(self.entry)
        self.regs, self.blocks, self.slot_inits, self.context = {}, {}, {}, ()
        self.state = {k: v for k, v in self.state.items() if not isinstance(v, ir.Value)}
        return saved

    def leave_function(self, saved: tuple) -> None:
        outer = saved[6]
        for k, v in self.state.items():     # facts a family first computed inside the function
            if k not in outer and not isinstance(v, ir.Value):
                outer[k] = v
        (self.fn, self.entry, self.entry_builder, self.b, self.regs, self.blocks, self.state,
         self.context, self.slot_inits) = saved

    # ---- helpers -------------------------------------------------------------------------------
    def refuse(self, why: str = "") -> Refusal:
        return unsupported(self.ins, why)

    def check(self, ins: Instruction, allowed: set[str] | frozenset[str]) -> None:
        """Refuse an instruction carrying a modifier this handler does not implement."""
        for m in ins.modifiers:
            if m not in allowed:
                raise unsupported(ins, f"modifier .{m}")

    def intrinsic(self, name: str, ret: ir.Type, args: list[ir.Type], attrs: tuple = ()) -> ir.Function:
        fn = self.intrinsics.get(name) or self.module.globals.get(name)
        if fn is None:
            fn = ir.Function(self.module, ir.FunctionType(ret, args), name=name)
            for a in attrs:
                fn.attributes.add(a)
        self.intrinsics[name] = fn
        return fn

    def call(self, name: str, ret: ir.Type, args: list[ir.Value]) -> ir.Value:
        return self.b.call(self.intrinsic(name, ret, [a.type for a in args]), args)

    def block_at(self, address: int, context: tuple[int, ...] | None = None) -> ir.Block:
        """The block at a code address in a call context (default: the one being lifted)."""
        key = (self.context if context is None else context, address)
        if key not in self.blocks:
            suffix = "".join(f".c{site:x}" for site in key[0])
            self.blocks[key] = self.fn.append_basic_block(f"L_{address:x}{suffix}")
        return self.blocks[key]

    def new_block(self, hint: str) -> ir.Block:
        return self.fn.append_basic_block(f"{hint}_{self.ins.address:x}" if self.ins else hint)

    # ---- register file -------------------------------------------------------------------------
    def slot(self, kind: str, index: int) -> ir.Value:
        """The alloca holding register kind+index (R/UR as i32, P/UP as i1), zero-initialised."""
        key = (kind, index)
        if key not in self.regs:
            ty = I1 if kind in ("P", "UP") else I32
            eb = self.entry_builder
            eb.position_at_start(self.entry)
            slot = PrivateAlloca(eb.block, ty, f"{kind}{index}")
            eb._insert(slot)
            self.slot_inits[key] = eb.store(ir.Constant(ty, 0), slot)
            self.regs[key] = slot
        return self.regs[key]

    def _reg_raw(self, reg: Reg, delta: int = 0) -> ir.Value:
        if reg.index is None:                      # RZ, URZ
            return ir.Constant(I32, 0)
        if reg.kind not in ("R", "UR"):
            raise self.refuse(f"{reg.name} is not a data register")
        limit = 255 if reg.kind == "R" else 63
        if reg.index + delta >= limit:             # R255 is RZ, UR63 is URZ
            return ir.Constant(I32, 0)
        return self.b.load(self.slot(reg.kind, reg.index + delta), typ=I32)

    def _store_raw(self, reg: Reg, value: ir.Value, delta: int = 0) -> None:
        if reg.index is None:
            return
        if reg.kind not in ("R", "UR"):
            raise self.refuse(f"cannot write {reg.name}")
        slot = self.slot(reg.kind, reg.index + delta)
        if self.guard is not None:
            value = self.b.select(self.guard, value, self.b.load(slot, typ=I32))
        self.b.store(value, slot)

    # ---- launch state --------------------------------------------------------------------------
    # Constant-bank words, special registers and the addresses of device variables are the
    # kernel's launch state, the layer above this one (launch.py): the kernel's Lifter
    # (lift/__init__.py, KernelLifter) reads them there.
    def const_load(self, ref: ConstRef, ty: ir.Type) -> ir.Value:
        """c[bank][offset] (+ register) as `ty` (i32 or i64)."""
        raise NotImplementedError

    def special_register(self, reg: Reg) -> ir.Value:
        """An SR_* register as i32."""
        raise NotImplementedError

    def symbol_word(self, ref: SymbolRef) -> ir.Value:
        """`32@lo(var)` / `32@hi(var)`: half of a device variable's address."""
        raise NotImplementedError

    # ---- reads ---------------------------------------------------------------------------------
    def u32(self, op, allow_suffixes: tuple[str, ...] = ()) -> ir.Value:
        """An operand as a 32-bit integer, with integer modifiers (-x, ~x, |x|) applied."""
        b = self.b
        if isinstance(op, Reg):
            if op.kind in ("P", "UP"):
                raise self.refuse(f"predicate {op.name} used as an integer")
            if op.kind == "SR":
                v = self.special_register(op)
            else:
                self._suffixes_ok(op.suffixes, allow_suffixes)
                v = self._reg_raw(op)
            return self._int_mods(v, op.negate, op.absolute, op.invert)
        if isinstance(op, Imm):
            return ir.Constant(I32, self.imm_bits32(op))
        if isinstance(op, ConstRef):
            v = self.const_load(op, I32)
            return self._int_mods(v, op.negate, op.absolute, op.invert)
        if isinstance(op, SymbolRef):
            return self.symbol_word(op)
        if isinstance(op, Label) and op.address is None:
            raise self.refuse(f"address of the symbol {op.name}, left to a device link (-rdc)")
        raise self.refuse(f"operand {op!r} is not a 32-bit value")

    def _int_mods(self, v, negate, absolute, invert):
        if absolute:
            v = self.b.select(self.b.icmp_signed("<", v, ir.Constant(v.type, 0)), self.b.neg(v), v)
        if negate:
            v = self.b.neg(v)
        if invert:
            v = self.b.not_(v)
        return v

    def _suffixes_ok(self, suffixes, allowed):
        for s in suffixes:
            if s not in allowed:
                raise self.refuse(f"operand suffix .{s}")

    def imm_bits32(self, op: Imm) -> int:
        """An integer immediate (or the IEEE single bits of a float one), as an unsigned 32-bit value."""
        if op.is_float:
            import struct
            v = op.value             # signed as written (`negate` only records the '-')
            return struct.unpack("<I", struct.pack("<f", v))[0]
        return int(op.value) & 0xFFFFFFFF

    def u64(self, op) -> ir.Value:
        """A register pair (R4 = R4:R5), a 64-bit constant-bank word or an immediate, as i64."""
        b = self.b
        if isinstance(op, Reg) and op.kind in ("R", "UR"):
            self._suffixes_ok(op.suffixes, ("64",))
            lo, hi = self._reg_raw(op), self._reg_raw(op, 1)
            v = self.join64(lo, hi)
            return self._int_mods(v, op.negate, op.absolute, op.invert)
        if isinstance(op, Imm):
            return ir.Constant(I64, int(op.value) & 0xFFFFFFFFFFFFFFFF)
        if isinstance(op, ConstRef):
            return self._int_mods(self.const_load(op, I64), op.negate, op.absolute, op.invert)
        raise self.refuse(f"operand {op!r} is not a 64-bit value")

    def join64(self, lo: ir.Value, hi: ir.Value) -> ir.Value:
        b = self.b
        return b.or_(b.zext(lo, I64), b.shl(b.zext(hi, I64), ir.Constant(I64, 32)))

    def split64(self, v: ir.Value) -> tuple[ir.Value, ir.Value]:
        b = self.b
        return b.trunc(v, I32), b.trunc(b.lshr(v, ir.Constant(I64, 32)), I32)

    def f32(self, op) -> ir.Value:
        """An operand as a float, with float modifiers (-x, |x|) applied; float immediates as written."""
        b = self.b
        if isinstance(op, Imm):
            return ir.Constant(F32, self.imm_float(op))
        if isinstance(op, Reg) and op.kind == "SR":
            raise self.refuse("special register used as a float")
        if isinstance(op, (Reg, ConstRef)):
            if isinstance(op, Reg):
                self._suffixes_ok(op.suffixes, ())
                raw = self._reg_raw(op)
            else:
                raw = self.const_load(op, I32)
            v = b.bitcast(raw, F32)
            return self.float_mods(v, op.negate, op.absolute)
        raise self.refuse(f"operand {op!r} is not a float")

    def imm_float(self, op: Imm) -> float:
        """Float-instruction immediates: nvdisasm writes them as numbers (`1`, `0.5`, `+INF`); hex
        text means raw bits."""
        import struct
        if not op.is_float and (op.text or "").lstrip("+-").lower().startswith("0x"):
            v = struct.unpack("<f", struct.pack("<I", int(op.value) & 0xFFFFFFFF))[0]
        else:
            v = float(op.value)
        return v

    def float_mods(self, v, negate, absolute):
        if absolute:
            v = self.call(f"llvm.fabs.{'f32' if v.type == F32 else 'f64' if v.type == F64 else 'f16'}", v.type, [v])
        if negate:
            v = self.b.fneg(v)
        return v

    def f64(self, op) -> ir.Value:
        """A double operand: register pair, 64-bit constant-bank word, or immediate (as written)."""
        b = self.b
        if isinstance(op, Imm):
            import struct
            if not op.is_float and (op.text or "").lstrip("+-").lower().startswith("0x"):
                v = struct.unpack("<d", struct.pack("<Q", int(op.value) & 0xFFFFFFFFFFFFFFFF))[0]
            else:
                v = float(op.value)
            return ir.Constant(F64, v)
        if isinstance(op, Reg):
            if op.kind == "SR":
                raise self.refuse("special register used as a double")
            self._suffixes_ok(op.suffixes, ("64",))
            raw = self.join64(self._reg_raw(op), self._reg_raw(op, 1))
        elif isinstance(op, ConstRef):
            raw = self.const_load(op, I64)
        else:
            raise self.refuse(f"operand {op!r} is not a double")
        return self.float_mods(b.bitcast(raw, F64), op.negate, op.absolute)

    def pred(self, op) -> ir.Value:
        """A predicate operand (P0, !P1, PT, UP0) as i1."""
        if not isinstance(op, Reg) or op.kind not in ("P", "UP"):
            raise self.refuse(f"operand {op!r} is not a predicate")
        v = ir.Constant(I1, 1) if op.index is None or op.index == 7 else self.b.load(self.slot(op.kind, op.index), typ=I1)
        return self.b.not_(v) if op.invert else v

    def is_pt(self, op) -> bool:
        return isinstance(op, Reg) and op.kind in ("P", "UP") and (op.index is None or op.index == 7) and not op.invert

    # ---- writes --------------------------------------------------------------------------------
    def dest(self, op) -> Reg:
        if not isinstance(op, Reg) or op.negate or op.absolute or op.invert:
            raise self.refuse(f"destination {op!r}")
        return op

    def set32(self, op, value: ir.Value) -> None:
        reg = self.dest(op)
        if value.type != I32:
            value = self.b.bitcast(value, I32)
        self._store_raw(reg, value)

    def set64(self, op, value: ir.Value) -> None:
        reg = self.dest(op)
        if value.type != I64:
            value = self.b.bitcast(value, I64)
        lo, hi = self.split64(value)
        self._store_raw(reg, lo)
        self._store_raw(reg, hi, 1)

    def set_regs(self, op, words: list[ir.Value]) -> None:
        """Consecutive registers from op (LDG.128 R4 -> R4..R7)."""
        reg = self.dest(op)
        for i, w in enumerate(words):
            self._store_raw(reg, w, i)

    def get_regs(self, op, count: int) -> list[ir.Value]:
        if not isinstance(op, Reg) or op.kind not in ("R", "UR"):
            raise self.refuse(f"operand {op!r} is not a register")
        return [self._reg_raw(op, i) for i in range(count)]

    def setp(self, op, value: ir.Value) -> None:
        reg = self.dest(op) if not (isinstance(op, Reg) and op.invert) else None
        if reg is None:
            raise self.refuse(f"predicate destination {op!r}")
        if reg.kind not in ("P", "UP"):
            raise self.refuse(f"{reg.name} is not a predicate")
        if reg.index is None or reg.index == 7:    # PT: discarded
            return
        slot = self.slot(reg.kind, reg.index)
        if self.guard is not None:
            value = self.b.select(self.guard, value, self.b.load(slot, typ=I1))
        self.b.store(value, slot)

    # ---- small IR utilities used by many families ------------------------------------------------
    def c32(self, v: int) -> ir.Constant:
        return ir.Constant(I32, v & 0xFFFFFFFF)

    def c64(self, v: int) -> ir.Constant:
        return ir.Constant(I64, v & 0xFFFFFFFFFFFFFFFF)

    def combine(self, ins: Instruction, cond: ir.Value, logic: str, other: ir.Value) -> ir.Value:
        """SETP's .AND/.OR/.XOR with its trailing predicate operand."""
        if logic == "AND":
            return self.b.and_(cond, other)
        if logic == "OR":
            return self.b.or_(cond, other)
        if logic == "XOR":
            return self.b.xor(cond, other)
        raise unsupported(ins, f"combining operation .{logic}")

    def operands(self, ins: Instruction, *counts: int) -> tuple:
        if len(ins.operands) not in counts:
            raise unsupported(ins, f"{len(ins.operands)} operands")
        return ins.operands


__all__ = ["Lifter", "HANDLERS", "handles", "unsupported", "opaque", "I1", "I8", "I16", "I32", "I64", "F16",
           "F32", "F64", "VOID", "FLAT", "GLOBAL", "LDS", "CONST", "PRIVATE", "ConstRef", "Imm",
           "Instruction", "Label", "Mem", "Reg"]
