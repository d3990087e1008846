"""A translation unit's tokens with the neighbourhood queries that the rewrite rules and the
checks ask: the code token before or after one, whether a name is the TU's own, which kernels
it defines."""

from __future__ import annotations

from dataclasses import dataclass, field

from .lexer import HASH, HEADER, IDENT, Token, code_tokens, tokenize

# Keywords after which an identifier is an expression, not a declarator.
_EXPRESSION_KEYWORDS = frozenset(
    "return case goto throw else do sizeof new delete co_return co_yield co_await not and or "
    "alignof decltype typeid static_assert if while for switch".split())


@dataclass
class Source:
    text: str
    filename: str
    tokens: list[Token] = field(init=False)
    code: list[int] = field(init=False)          # indices of non-trivia tokens
    _position: dict[int, int] = field(init=False)  # token index -> position in `code`

    def __post_init__(self) -> None:
        self.tokens = tokenize(self.text)
        self.code = code_tokens(self.tokens)
        self._position = {index: pos for pos, index in enumerate(self.code)}

    def position(self, index: int) -> int:
        """Where token `index` sits in `code`."""
        return self._position[index]

    def prev(self, index: int, steps: int = 1) -> Token | None:
        pos = self._position[index] - steps
        return self.tokens[self.code[pos]] if pos >= 0 else None

    def next(self, index: int, steps: int = 1) -> Token | None:
        pos = self._position[index] + steps
        return self.tokens[self.code[pos]] if pos < len(self.code) else None

    def call_arguments(self, index: int) -> list[list[Token]] | None:
        """The code tokens of each argument of the call `name(...)` at `index`; None if it is
        no call (or the parentheses never close)."""
        pos = self._position[index] + 1
        if pos >= len(self.code) or not self.tokens[self.code[pos]].is_punct("("):
            return None
        depth, arguments = 1, [[]]
        for later in self.code[pos + 1:]:
            tok = self.tokens[later]
            if tok.is_punct(")", "]", "}"):
                depth -= 1
                if depth == 0:
                    return arguments if arguments != [[]] else []
            elif tok.is_punct("(", "[", "{"):
                depth += 1
            elif depth == 1 and tok.is_punct(","):
                arguments.append([])
                continue
            arguments[-1].append(tok)
        return None

    def is_member(self, index: int) -> bool:
        """The identifier follows `.` or `->` (a member of some object)."""
        before = self.prev(index)
        return before is not None and before.is_punct(".", "->")

    def qualifier(self, index: int) -> str | None:
        """`ns` for an identifier written `ns::name`; '' for `::name`; None when unqualified."""
        before = self.prev(index)
        if before is None or not before.is_punct("::"):
            return None
        scope = self.prev(index, 2)
        return scope.text if scope is not None and scope.kind == IDENT else ""

    def own_names(self) -> set[str]:
        """Names the TU itself defines: macros, and declarators (a name right after a type,
        `T name`, `T *name`, `T &name`)."""
        return {self.tokens[index].text for pos, index in enumerate(self.code) if self.declares(pos)}

    def declares(self, pos: int) -> bool:
        """The identifier at code position `pos` is being defined there: a macro's name or a
        declarator."""
        tok = self.tokens[self.code[pos]]
        if tok.kind != IDENT:
            return False
        before = self.tokens[self.code[pos - 1]] if pos else None
        after = self.tokens[self.code[pos + 1]] if pos + 1 < len(self.code) else None
        before2 = self.tokens[self.code[pos - 2]] if pos > 1 else None
        if before is not None and before.is_ident("define") and before2 is not None and before2.kind == HASH:
            return True
        if after is None or before is None or before.directive:
            return False
        if before.kind == IDENT and before.text not in _EXPRESSION_KEYWORDS:
            return after.is_punct("(", "=", ";", "[", ",", ")", "{")
        if before.is_punct(",") and after.is_punct("=", ";", "[", ","):
            return self._in_declaration_list(pos - 1)
        # `T *name;`, `vector<T> name;`: a declarator, not a product
        return (before.is_punct("*", "&", ">") and after.is_punct("=", ";", "[", ",")
                and before2 is not None and (before2.kind == IDENT or before2.is_punct(">"))
                and self._starts_declaration(pos - 2))

    def _in_declaration_list(self, pos: int) -> bool:
        """The `,` at `pos` separates the declarators of a statement that begins `T name`
        (`dim3 grid, block;`), not the arguments of a call or an expression's operands."""
        depth = 0
        while pos > 0:
            pos -= 1
            tok = self.tokens[self.code[pos]]
            if tok.is_punct(")", "]"):
                depth += 1
            elif tok.is_punct("(", "["):
                if depth == 0:
                    return False
                depth -= 1
            elif depth == 0 and tok.is_punct(";", "{", "}"):
                pos += 1
                break
        first = self.tokens[self.code[pos]]
        second = self.tokens[self.code[pos + 1]] if pos + 1 < len(self.code) else None
        return (first.kind == IDENT and first.text not in _EXPRESSION_KEYWORDS and second is not None
                and (second.kind == IDENT or second.is_punct("<", "::", "*", "&")))

    def _starts_declaration(self, pos: int) -> bool:
        """The type at `pos` opens a declaration (not the left operand of `a * b`)."""
        if pos == 0:
            return True
        before = self.tokens[self.code[pos - 1]]
        return before.kind == IDENT or before.is_punct(";", "{", "}", "(", ",", "<", ">", "::")

    def headers(self) -> list[int]:
        """Indices of `#include` header-name tokens."""
        return [i for i in self.code if self.tokens[i].kind == HEADER]

    def kernels(self) -> list[str]:
        """Names of the __global__ functions, in order of first appearance."""
        found: list[str] = []
        for pos, index in enumerate(self.code):
            if self.tokens[index].is_ident("__global__"):
                name = self._declarator_after(pos + 1)
                if name and name not in found:
                    found.append(name)
        return found

    def kernel_bodies(self) -> dict[str, int]:
        """{kernel name: index of the token `{` opening its body} for each __global__ function
        defined here (the first definition of a name; overloads share it)."""
        found: dict[str, int] = {}
        for pos, index in enumerate(self.code):
            tok = self.tokens[index]
            if not tok.is_ident("__global__") or tok.directive:
                continue
            name, start = self._declarator_after(pos + 1), self._body_after(pos + 1)
            if name and start is not None:
                found.setdefault(name, self.code[start])
        return found

    def device_bodies(self) -> list[tuple[int, int]]:
        """(first, last) positions in `code` of the bodies of __global__ and __device__
        functions (the braces included)."""
        bodies = []
        for pos, index in enumerate(self.code):
            tok = self.tokens[index]
            if not tok.is_ident("__global__", "__device__") or tok.directive:
                continue
            start = self._body_after(pos + 1)
            if start is not None and not any(a <= start <= b for a, b in bodies):
                bodies.append((start, self._after_group(start, "{", "}") - 1))
        return bodies

    def _body_after(self, pos: int) -> int | None:
        """Position of the `{` opening a function body after a declaration's parameter list, or
        None when the declaration ends first (a variable, a prototype)."""
        seen_parameters = False
        while pos < len(self.code):
            tok = self.tokens[self.code[pos]]
            if tok.is_punct(";", "=", "}"):
                return None
            if tok.is_punct("{"):
                return pos if seen_parameters else None
            if tok.is_punct("("):
                seen_parameters = True
                pos = self._after_group(pos)
                continue
            pos += 1
        return None

    def _declarator_after(self, pos: int) -> str | None:
        """The function name in `<specifiers and type> name (`, skipping attribute arguments."""
        while pos < len(self.code):
            tok = self.tokens[self.code[pos]]
            if tok.is_punct(";", "{", "}", "("):
                return None
            after = self.tokens[self.code[pos + 1]] if pos + 1 < len(self.code) else None
            if tok.is_ident("__launch_bounds__", "__attribute__", "__declspec", "alignas"):
                pos = self._after_group(pos + 1)
                continue
            if tok.kind == IDENT and after is not None and after.is_punct("("):
                return tok.text
            pos += 1
        return None

    def _after_group(self, pos: int, open_: str = "(", close: str = ")") -> int:
        """Position after the balanced group opening at `pos` (or `pos` if none opens there)."""
        if pos >= len(self.code) or not self.tokens[self.code[pos]].is_punct(open_):
            return pos
        depth = 0
        while pos < len(self.code):
            tok = self.tokens[self.code[pos]]
            depth += tok.is_punct(open_) - tok.is_punct(close)
            pos += 1
            if depth == 0:
                break
        return pos
