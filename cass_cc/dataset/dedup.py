"""Duplicates: the same normalised text (sha256), or nearly the same token set (MinHash LSH over
token 5-grams, datasketch). The first source in path order is kept, so the result does not
depend on how the corpus was listed."""

from __future__ import annotations

from .corpus import Source, tokens

NUM_PERM = 128
THRESHOLD = 0.9   # estimated Jaccard similarity of shingle sets above which two sources are one
SHINGLE = 5
SEED = 1          # fixed: the same corpus gives the same duplicates on every machine


def _minhash(text: str):
    from datasketch import MinHash
    words = tokens(text)
    m = MinHash(num_perm=NUM_PERM, seed=SEED)
    for i in range(max(1, len(words) - SHINGLE + 1)):
        m.update(" ".join(words[i:i + SHINGLE]).encode())
    return m


def deduplicate(sources: list[Source]) -> tuple[list[Source], dict[str, str]]:
    """(the sources kept, {dropped path: path of the kept source it duplicates})."""
    from datasketch import MinHashLSH
    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM)
    by_digest: dict[str, str] = {}
    kept, dropped = [], {}
    for source in sources:
        if source.digest in by_digest:
            dropped[source.path] = by_digest[source.digest]
            continue
        m = _minhash(source.text)
        near = sorted(lsh.query(m))
        if near:
            dropped[source.path] = near[0]
            continue
        lsh.insert(source.path, m)
        by_digest[source.digest] = source.path
        kept.append(source)
    return kept, dropped
