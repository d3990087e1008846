"""A lexer for C/C++ (and CUDA) source that loses nothing: joining the tokens' texts gives back
the input byte for byte, so the translator can rewrite single tokens and keep all formatting.

Preprocessor directives are lexed like code (macros hold CUDA calls too); each token knows
whether it sits in a directive line, and `#include <...>` yields one `header` token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Token kinds.
SPACE = "space"          # blanks and backslash-newline continuations
NEWLINE = "newline"
COMMENT = "comment"
STRING = "string"        # "..." with any prefix (L, u8, u, U), raw strings R"d(...)d" included
CHAR = "char"
NUMBER = "number"
IDENT = "ident"
PUNCT = "punct"          # operators; `<<<` and `>>>` are single tokens
HASH = "hash"            # the `#` that opens a directive
HEADER = "header"        # <file.h> or "file.h" after #include
OTHER = "other"          # a stray byte the language does not know (kept as is)

TRIVIA = (SPACE, NEWLINE, COMMENT)


@dataclass
class Token:
    kind: str
    text: str
    line: int       # 1-based line of the token's first character
    column: int     # 1-based column
    directive: bool  # inside a preprocessor directive line

    def is_ident(self, *names: str) -> bool:
        return self.kind == IDENT and (not names or self.text in names)

    def is_punct(self, *ops: str) -> bool:
        return self.kind == PUNCT and (not ops or self.text in ops)


_PUNCTS = sorted("""
<<<  >>>  <<=  >>=  ...  ->*  <=>  ::  ->  ++  --  <<  >>  <=  >=  ==  !=  &&  ||  +=  -=  *=  /=  %=
&=  |=  ^=  .*  ##  #  {  }  [  ]  (  )  ;  :  ?  .  +  -  *  /  %  ^  &  |  ~  !  =  <  >  ,  @  $
""".split(), key=len, reverse=True)

_STRING_PREFIX = r"(?:u8|u|U|L)?"
_RAW_OPEN = re.compile(_STRING_PREFIX + r'R"([^()\\\s]{0,16})\(')
_PATTERNS = [
    (SPACE, re.compile(r"(?:[ \t\f\v]|\\\r?\n)+")),
    (NEWLINE, re.compile(r"\r?\n|\r")),
    (COMMENT, re.compile(r"//(?:[^\n\\]|\\\r?\n|\\(?!\r?\n))*")),
    (COMMENT, re.compile(r"/\*(?s:.*?)\*/")),
    (STRING, re.compile(_STRING_PREFIX + r'"(?:[^"\\\n]|\\.|\\\r?\n)*"')),
    (CHAR, re.compile(_STRING_PREFIX + r"'(?:[^'\\\n]|\\.)*'")),
    (NUMBER, re.compile(r"\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z_]|[0-9A-Za-z_.])*")),
    (IDENT, re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")),
    (PUNCT, re.compile("|".join(re.escape(p) for p in _PUNCTS))),
]
# One pattern for all kinds, tried in the order above (named groups carry the kind).
_TOKEN = re.compile("|".join(f"(?P<{kind}{n}>{pattern.pattern})"
                             for n, (kind, pattern) in enumerate(_PATTERNS)))
_KIND_OF_GROUP = {f"{kind}{n}": kind for n, (kind, _) in enumerate(_PATTERNS)}
_HEADER_NAME = re.compile(r'<[^>\n]*>|"[^"\n]*"')


class LexError(ValueError):
    """The source cannot be split into tokens (an unterminated comment or raw string)."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.line = line
        self.column = column


def tokenize(text: str) -> list[Token]:
    """All tokens of `text`, trivia included; "".join(t.text for t in tokens) == text."""
    tokens: list[Token] = []
    pos, line, col = 0, 1, 1
    in_directive = False
    line_has_code = False     # a non-trivia token was seen on this (logical) line
    expect_header = False     # the previous tokens were `# include`
    n = len(text)
    while pos < n:
        kind, end = _next_token(text, pos, expect_header)
        if kind is None:
            if text.startswith("/*", pos):
                raise LexError("unterminated /* comment", line, col)
            if _RAW_OPEN.match(text, pos):
                raise LexError("unterminated raw string literal", line, col)
            kind, end = OTHER, pos + 1
        piece = text[pos:end]
        if kind == PUNCT and piece == "#" and not line_has_code:
            kind, in_directive = HASH, True
        tokens.append(Token(kind, piece, line, col, in_directive))
        if kind == NEWLINE:
            in_directive = line_has_code = False
        elif kind not in TRIVIA:
            line_has_code = True
        if kind not in TRIVIA:
            expect_header = (kind == IDENT and piece in ("include", "include_next", "import")
                             and len(tokens) >= 2 and _previous_code(tokens).kind == HASH)
        newlines = piece.count("\n")
        if newlines:
            line += newlines
            col = len(piece) - piece.rfind("\n")
        else:
            col += len(piece)
        pos = end
    return tokens


def _previous_code(tokens: list[Token]) -> Token:
    for tok in reversed(tokens[:-1]):
        if tok.kind not in TRIVIA:
            return tok
    return tokens[0]


def _next_token(text: str, pos: int, expect_header: bool) -> tuple[str | None, int]:
    if expect_header:
        m = _HEADER_NAME.match(text, pos)
        if m:
            return HEADER, m.end()
    if text.startswith("/*", pos) and text.find("*/", pos + 2) < 0:
        return None, pos
    if text[pos] in "RuUL":
        raw = _RAW_OPEN.match(text, pos)
        if raw:
            close = text.find(")" + raw.group(1) + '"', raw.end())
            return (STRING, close + len(raw.group(1)) + 2) if close >= 0 else (None, pos)
    m = _TOKEN.match(text, pos)
    if m and m.end() > pos:
        return _KIND_OF_GROUP[m.lastgroup], m.end()
    return None, pos


def code_tokens(tokens: list[Token]) -> list[int]:
    """Indices of the tokens that are not trivia, in order."""
    return [i for i, t in enumerate(tokens) if t.kind not in TRIVIA]
