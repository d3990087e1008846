"""Memory instructions of inline PTX: ld/st with state spaces, cache operators, vectors and
memory orders; atom/red; fences; prefetch; cvta. Cache operators and L1/L2 hints change where
data is cached, not what is read: loads stay loads (streaming ones non-temporal)."""

from __future__ import annotations

from .ptx_emit import CTYPE, Emitter, operands, types_of
from .ptx_parse import Imm, Instruction, PtxRefusal, Vector

SPACES = ("global", "shared", "generic")
CACHE = ("ca", "cg", "cs", "lu", "cv", "nc", "wb", "wt")
SCOPES = {"cta": "__HIP_MEMORY_SCOPE_WORKGROUP", "gpu": "__HIP_MEMORY_SCOPE_AGENT",
          "sys": "__HIP_MEMORY_SCOPE_SYSTEM", "cluster": "__HIP_MEMORY_SCOPE_AGENT"}
SCOPE_NAMES = {"cta": "workgroup", "gpu": "agent", "sys": "", "cluster": "agent"}
ORDERS = {"relaxed": "__ATOMIC_RELAXED", "acquire": "__ATOMIC_ACQUIRE",
          "release": "__ATOMIC_RELEASE", "acq_rel": "__ATOMIC_ACQ_REL", "sc": "__ATOMIC_SEQ_CST"}
_HINTS = ("L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
          "L1::no_allocate", "L2::evict_normal", "L2::evict_first", "L2::evict_last",
          "L2::64B", "L2::128B", "L2::256B", "L1", "L2")


class _Mods:
    """The modifiers of a memory instruction, sorted by kind; anything else is refused."""

    def __init__(self, ins: Instruction, mods: list, extra=()):
        self.space = "generic"
        self.cache = None
        self.order = None
        self.scope = "gpu"
        self.vector = 1
        self.volatile = False
        self.rest = []
        for m in mods:
            if m in ("global", "shared"):
                self.space = m
            elif m in ("local", "const", "param", "tex", "shared::cta", "shared::cluster"):
                raise PtxRefusal(f"'{ins.opcode}': the .{m} state space is not supported")
            elif m in CACHE:
                self.cache = m
            elif m in ORDERS:
                self.order = m
            elif m in SCOPES:
                self.scope = m
            elif m in ("v2", "v4"):
                self.vector = int(m[1])
            elif m == "volatile":
                self.volatile = True
            elif m in ("weak",) or m in _HINTS:
                pass
            elif m in CTYPE or m in extra:
                self.rest.append(m)
            else:
                raise PtxRefusal(f"'{ins.opcode}': modifier .{m} is not supported")
        self.types = [m for m in self.rest if m in CTYPE]


def _element(ins: Instruction, m: _Mods) -> str:
    if len(m.types) != 1 or m.types[0] == "pred":
        raise PtxRefusal(f"'{ins.opcode}' needs one data type")
    return m.types[0]


def _registers(ins: Instruction, op, count: int) -> list:
    if count == 1:
        return [op]
    if not isinstance(op, Vector) or len(op.items) != count:
        raise PtxRefusal(f"'{ins.opcode}' needs a vector of {count} registers")
    return list(op.items)


def ld(em: Emitter, ins: Instruction, mods: list) -> None:
    m = _Mods(ins, mods)
    t = _element(ins, m)
    d, a = operands(ins, 2)
    ctype = CTYPE[t]
    em.emit("{")
    em.depth += 1
    em.emit(f"const {ctype}* cass_p = {em.address(a, m.space, f'const {ctype}')};")
    for i, reg in enumerate(_registers(ins, d, m.vector)):
        if reg is None:
            continue
        p = f"(cass_p + {i})"
        if m.order in ("relaxed", "acquire"):
            value = f"__hip_atomic_load({p}, {ORDERS[m.order]}, {SCOPES[m.scope]})"
        elif m.order is not None:
            raise PtxRefusal(f"'{ins.opcode}': a load cannot be .{m.order}")
        elif m.volatile or m.cache == "cv":
            value = f"*(const volatile {ctype}*){p}"
        elif m.cache in ("cs", "lu"):
            value = f"__builtin_nontemporal_load({p})"
        else:
            value = f"*{p}"
        em.write(reg, t, value)
    em.depth -= 1
    em.emit("}")


def st(em: Emitter, ins: Instruction, mods: list) -> None:
    m = _Mods(ins, mods)
    t = _element(ins, m)
    a, v = operands(ins, 2)
    ctype = CTYPE[t]
    em.emit("{")
    em.depth += 1
    em.emit(f"{ctype}* cass_p = {em.address(a, m.space, ctype)};")
    for i, reg in enumerate(_registers(ins, v, m.vector)):
        if reg is None:
            raise PtxRefusal(f"'{ins.opcode}': a store has no sink operand")
        p, value = f"(cass_p + {i})", em.read(reg, t)
        if m.order in ("relaxed", "release"):
            em.emit(f"__hip_atomic_store({p}, {value}, {ORDERS[m.order]}, {SCOPES[m.scope]});")
        elif m.order is not None:
            raise PtxRefusal(f"'{ins.opcode}': a store cannot be .{m.order}")
        elif m.volatile or m.cache == "wt":
            em.emit(f"*(volatile {ctype}*){p} = {value};")
        elif m.cache == "cs":
            em.emit(f"__builtin_nontemporal_store({value}, {p});")
        else:
            em.emit(f"*{p} = {value};")
    em.depth -= 1
    em.emit("}")


_ATOMIC_OPS = ("add", "min", "max", "and", "or", "xor", "exch", "cas", "inc", "dec")


def atom(em: Emitter, ins: Instruction, mods: list) -> None:
    """atom (the old value is returned) and red (no result)."""
    is_red = ins.parts[0] == "red"
    m = _Mods(ins, mods, _ATOMIC_OPS)
    ops = [x for x in m.rest if x in _ATOMIC_OPS]
    t = _element(ins, m)
    if len(ops) != 1 or t not in ("b32", "b64", "u32", "s32", "u64", "s64", "f32", "f64"):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    op = ops[0]
    if (op in ("min", "max") and t[0] not in "us") or (op in ("and", "or", "xor") and t[0] != "b") \
            or (op in ("inc", "dec") and t != "u32") or (t[0] == "f" and op not in ("add", "exch")) \
            or (is_red and op in ("cas", "exch")):
        raise PtxRefusal(f"'{ins.opcode}': .{op} is not defined for .{t}")
    count = (3 if op == "cas" else 2) + (0 if is_red else 1)
    found = operands(ins, count)
    d, a, *values = ([None] if is_red else []) + found
    ctype = CTYPE[t]
    order = ORDERS[m.order or "relaxed"]
    scope = SCOPES[m.scope]
    em.emit("{")
    em.depth += 1
    em.emit(f"{ctype}* cass_p = {em.address(a, m.space, ctype)};")
    b = em.read(values[0], t)
    if op == "cas":
        em.emit(f"{ctype} cass_old = {b};")
        em.emit(f"__hip_atomic_compare_exchange_strong(cass_p, &cass_old, {em.read(values[1], t)}, "
                f"{order}, __ATOMIC_RELAXED, {scope});")
        result = "cass_old"
    elif op in ("inc", "dec"):
        result = (f"__builtin_amdgcn_atomic_{op}32(cass_p, {b}, {order}, "
                  f"\"{SCOPE_NAMES[m.scope]}\")")
    else:
        name = {"exch": "exchange"}.get(op, f"fetch_{op}")
        result = f"__hip_atomic_{name}(cass_p, {b}, {order}, {scope})"
    em.write(d, t, result)
    em.depth -= 1
    em.emit("}")


def fence(em: Emitter, ins: Instruction, mods: list) -> None:
    base = ins.parts[0]
    if base == "membar":
        if mods not in (["cta"], ["gl"], ["sys"]):
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        scope = {"cta": "workgroup", "gl": "agent", "sys": ""}[mods[0]]
        order = "__ATOMIC_SEQ_CST"
    else:
        known = [x for x in mods if x in ORDERS or x in SCOPES]
        if known != mods or not any(x in SCOPES for x in mods):
            raise PtxRefusal(f"'{ins.opcode}' is not supported")
        order = ORDERS[next((x for x in mods if x in ORDERS), "sc")]
        scope = SCOPE_NAMES[next(x for x in mods if x in SCOPES)]
    operands(ins, 0)
    em.emit(f"__builtin_amdgcn_fence({order}, \"{scope}\");")


def prefetch(em: Emitter, ins: Instruction, mods: list) -> None:
    """A hint: nothing to do beyond accepting the address."""
    _Mods(ins, mods)
    (a,) = operands(ins, 1)
    em.emit(f"(void){em.address(a, 'generic', 'const void')};")


def cvta(em: Emitter, ins: Instruction, mods: list) -> None:
    t = types_of(mods)
    if t not in (["u64"], ["u32"]):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    to = "to" in mods
    space = [x for x in mods if x not in ("to", "u64", "u32")]
    if space not in (["global"], ["shared"]):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    d, a = operands(ins, 2)
    x = em.read(a, "u64")
    if space == ["global"]:
        expr = x                    # global addresses are generic addresses on AMD GPUs
    else:
        expr = f"cass_ptx::{'to_shared' if to else 'from_shared'}({x})"
    em.write(d, t[0], f"({CTYPE[t[0]]}){expr}")


def cp(em: Emitter, ins: Instruction, mods: list) -> None:
    """cp.async: the copy is made at once, so commit_group and wait_group/wait_all have nothing
    left to wait for (a schedule the asynchronous copy allows)."""
    if mods[:1] != ["async"] or "bulk" in mods:
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    if mods[1:] in (["commit_group"], ["wait_all"], ["wait_group"]):
        operands(ins, 1 if mods[1] == "wait_group" else 0)
        return
    rest = [m for m in mods[1:] if m not in _HINTS]
    if rest not in (["ca", "shared", "global"], ["cg", "shared", "global"],
                    ["ca", "shared::cta", "global"], ["cg", "shared::cta", "global"]):
        raise PtxRefusal(f"'{ins.opcode}' is not supported")
    found = operands(ins, (3, 4))
    dst, src, size = found[:3]
    if not isinstance(size, Imm) or size.value not in (4, 8, 16):
        raise PtxRefusal(f"'{ins.opcode}': the copy size must be 4, 8 or 16")
    src_size = em.read(found[3], "u32") if len(found) == 4 else str(size.value)
    em.emit(f"cass_ptx::copy_zero_fill({em.address(dst, 'shared', 'unsigned char')}, "
            f"{em.address(src, 'global', 'const unsigned char')}, {size.value}u, {src_size});")


HANDLERS = {"cp": cp, "ld": ld, "ldu": ld, "st": st, "atom": atom, "red": atom, "membar": fence,
            "fence": fence, "prefetch": prefetch, "prefetchu": prefetch, "cvta": cvta}
