"""Cooperative groups: HIP 5.2 keeps the namespace and the group types; cg::reduce and its
operators, and static tiles that know their meta group, come from the compatibility
header. Members HIP 5.2 lacks are renamed where an equivalent exists (MEMBER_RENAMES) and
reported otherwise (MEMBER_UNSUPPORTED)."""

FAMILY = "coop_groups"

RENAMES: dict[str, str] = {}

# Group types the compatibility header replaces, renamed however they are qualified (cg:: and
# other namespace aliases): its tile knows its meta_group_rank()/meta_group_size().
TYPE_RENAMES = {"thread_block_tile": "cass_thread_block_tile"}

KEEP = """
cooperative_groups thread_group thread_block this_thread_block grid_group this_grid
coalesced_group coalesced_threads tiled_partition
group_size thread_rank sync is_valid
"""

COMPAT = """
reduce plus less greater bit_and bit_or bit_xor inclusive_scan exclusive_scan memcpy_async
wait wait_prior labeled_partition binary_partition
"""

# group.num_threads() is CUDA 12's spelling of size().
MEMBER_RENAMES = {"num_threads": "size"}

MEMBER_UNSUPPORTED = {
    "match_any": "HIP 5.2's thread_block_tile has no match_any(); use __match_any_sync",
    "match_all": "HIP 5.2's thread_block_tile has no match_all(); use __match_all_sync",
    "group_dim": "HIP 5.2's thread_block has no group_dim(); use blockDim",
    "dim_threads": "HIP 5.2's thread_block has no dim_threads(); use blockDim",
    "dim_blocks": "HIP 5.2's grid_group has no dim_blocks(); use gridDim",
    "block_index": "HIP 5.2's grid_group has no block_index(); use blockIdx",
    "block_rank": "HIP 5.2's grid_group has no block_rank(); compute it from blockIdx and gridDim",
    "num_blocks": "HIP 5.2's grid_group has no num_blocks(); compute it from gridDim",
}
