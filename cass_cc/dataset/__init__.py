"""The CASS data pipeline (`cass-cc dataset`): CUDA sources -> paired CUDA/HIP samples with their
host x86 assembly, NVIDIA SASS, AMD device assembly and the lifter's RDNA3, in Parquet shards.

corpus (find and normalise sources) -> dedup (exact and MinHash) -> sample (one source through
the tools, in a worker) -> shards (Parquet, sorted by source) -> report (stats and plots)."""
