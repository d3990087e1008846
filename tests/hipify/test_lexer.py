"""The lexer keeps every byte and splits CUDA source where a compiler would."""

from __future__ import annotations

import pytest

from cass_cc.hipify.lexer import (CHAR, COMMENT, HASH, HEADER, IDENT, NUMBER, PUNCT, STRING,
                                  LexError, tokenize)

ROUND_TRIP = [
    "",
    "int x;\n",
    "a\r\nb\r\n",
    "/* multi\n line */ int y; // tail \\\n continued comment\nz",
    'const char* s = "a \\" cudaMalloc // not a comment";',
    "const char* r = R\"delim(cudaFree \" )\" still)delim\";",
    "auto w = L\"wide\" u8\"utf8\" U'x' '\\n' '\\'';",
    "#define M(x) \\\n  cudaMalloc(x)\nint after;",
    "k<<<grid, block, 0, stream>>>(a, b);",
    "x = 1'000'000 + 0x1Fu + 1.5e-3f + .5 + 0b1010ull;",
    "  \t\f odd \v spacing\n\n\n",
    "\x01 stray \x7f bytes",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_round_trip(text):
    assert "".join(t.text for t in tokenize(text)) == text


def kinds(text):
    return [(t.kind, t.text) for t in tokenize(text) if t.kind not in ("space", "newline")]


def test_strings_and_comments_are_single_tokens():
    toks = kinds('f("cudaMalloc", \'c\'); /* cudaFree */ // cudaMemcpy')
    assert (STRING, '"cudaMalloc"') in toks
    assert (CHAR, "'c'") in toks
    assert (COMMENT, "/* cudaFree */") in toks
    assert (COMMENT, "// cudaMemcpy") in toks
    assert not [t for t in toks if t[0] == IDENT and t[1].startswith("cuda")]


def test_raw_string_with_quotes_and_parens():
    text = 'R"x(a )" b " c)x" tail'
    toks = kinds(text)
    assert toks[0] == (STRING, 'R"x(a )" b " c)x"')
    assert toks[1] == (IDENT, "tail")


def test_prefixed_raw_string():
    assert kinds('u8R"(cudaMalloc)"') == [(STRING, 'u8R"(cudaMalloc)"')]


def test_kernel_launch_chevrons():
    toks = kinds("k<<<g, b>>>(x); a << b; c >> d;")
    assert (PUNCT, "<<<") in toks and (PUNCT, ">>>") in toks
    assert (PUNCT, "<<") in toks and (PUNCT, ">>") in toks


def test_line_continuation_keeps_directive():
    toks = tokenize("#define CHECK(x) \\\n  cudaGetLastError()\nint z;")
    by_text = {t.text: t for t in toks}
    assert by_text["cudaGetLastError"].directive
    assert by_text["cudaGetLastError"].line == 2
    assert not by_text["z"].directive


def test_include_header_names():
    toks = kinds('#include <cuda_runtime.h>\n# include "cuda_fp16.h"\nbool b = a <c> d;')
    assert toks[0] == (HASH, "#")
    assert (HEADER, "<cuda_runtime.h>") in toks
    assert (HEADER, '"cuda_fp16.h"') in toks
    assert (PUNCT, "<") in toks  # only after #include is <...> a header name


def test_hash_inside_line_is_not_a_directive():
    toks = tokenize("#define S(x) #x\n")
    assert [t.kind for t in toks if t.text == "#"] == [HASH, PUNCT]


def test_numbers():
    toks = kinds("1'000 0xFFFFFFFFFFFFFFFFull 3.0e+5f .25 1.f")
    assert [t for t in toks if t[0] == NUMBER] == [
        (NUMBER, "1'000"), (NUMBER, "0xFFFFFFFFFFFFFFFFull"), (NUMBER, "3.0e+5f"),
        (NUMBER, ".25"), (NUMBER, "1.f")]


def test_positions():
    toks = tokenize("int a;\n  cudaFree(p);")
    free = next(t for t in toks if t.text == "cudaFree")
    assert (free.line, free.column) == (2, 3)


@pytest.mark.parametrize("text, line", [("int a; /* open", 1), ('\nR"d(never closed', 2)])
def test_unterminated(text, line):
    with pytest.raises(LexError) as err:
        tokenize(text)
    assert err.value.line == line
