"""Kernel launches written with their chevrons apart, `kernel << <grid, block >> > (args)`, as
Visual Studio's formatter leaves them: nvcc reads them as launches, clang only `<<<` and `>>>`
written whole. Their tokens are joined; nothing else changes."""

from __future__ import annotations

from .source import Source


def spaced_launches(src: Source) -> dict[int, str]:
    """{token index: new text} joining the chevrons of each launch spelled apart."""
    changed: dict[int, str] = {}
    tokens, code = src.tokens, src.code
    for pos in range(len(code) - 1):
        if not (tokens[code[pos]].is_punct("<<") and tokens[code[pos + 1]].is_punct("<")):
            continue
        if pos and tokens[code[pos - 1]].is_ident("operator"):   # operator<< <T>(...)
            continue
        close = _closing(src, pos + 2)
        if close is None:
            continue
        changed[code[pos]], changed[code[pos + 1]] = "<<<", ""
        changed.update(close)
    return changed


def _closing(src: Source, start: int) -> dict[int, str] | None:
    """The launch configuration from code position `start` runs to `>>>` at bracket depth 0,
    followed by the arguments' `(`: {} when it is written whole, the tokens that join it when
    it is spelled apart (`>> >`, `> >>`, `> > >`), None when this is no launch."""
    tokens, code = src.tokens, src.code
    depth = 0
    for pos in range(start, len(code)):
        tok = tokens[code[pos]]
        if tok.is_punct("(", "[", "{"):
            depth += 1
        elif tok.is_punct(")", "]", "}"):
            depth -= 1
            if depth < 0:
                return None
        elif tok.is_punct(";"):
            return None
        elif depth == 0 and tok.is_punct(">>>"):
            return {}
        elif depth == 0 and tok.is_punct(">", ">>"):
            run, chars = [], 0
            while pos + len(run) < len(code) and chars < 3 and tokens[code[pos + len(run)]].is_punct(">", ">>"):
                chars += len(tokens[code[pos + len(run)]].text)
                run.append(code[pos + len(run)])
            after = pos + len(run)
            if chars == 3 and after < len(code) and tokens[code[after]].is_punct("("):
                return {run[0]: ">>>", **{i: "" for i in run[1:]}}
    return None
