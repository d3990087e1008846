"""Cooperative groups: HIP 5.2 keeps the namespace and the group types; cg::reduce and its
operators, and static tiles that know their meta group, come from the compatibility
header. Members HIP 5.2 lacks are renamed where an equivalent exists (MEMBER_RENAMES) and
reported otherwise (MEMBER_UNSUPPORTED)."""

FAMILY = "coop_groups"

RENAMES: dict[str, str] = {}

# Group types the compatibility header replaces (cass_cg_extras.h), and the function that makes
# one, renamed however they are qualified (cg:: and other namespace aliases): its tiles know
# their meta group, votes and matches, and come larger than a wavefront; its coalesced groups
# vote, match and partition; block_tile_memory is CUDA 12's scratch of the large tiles.
TYPE_RENAMES = {"thread_block_tile": "cass_thread_block_tile", "coalesced_group": "cass_coalesced_group",
                "coalesced_threads": "cass_coalesced_threads", "block_tile_memory": "cass_block_tile_memory"}

KEEP = """
cooperative_groups thread_group thread_block this_thread_block grid_group this_grid
tiled_partition group_size thread_rank sync is_valid
"""

COMPAT = """
reduce plus less greater bit_and bit_or bit_xor inclusive_scan exclusive_scan memcpy_async
wait wait_prior labeled_partition binary_partition
"""

# group.num_threads() is CUDA 12's spelling of size().
MEMBER_RENAMES = {"num_threads": "size"}

MEMBER_UNSUPPORTED = {
    "group_dim": "HIP 5.2's thread_block has no group_dim(); use blockDim",
    "dim_threads": "HIP 5.2's thread_block has no dim_threads(); use blockDim",
    "dim_blocks": "HIP 5.2's grid_group has no dim_blocks(); use gridDim",
    "block_index": "HIP 5.2's grid_group has no block_index(); use blockIdx",
    "block_rank": "HIP 5.2's grid_group has no block_rank(); compute it from blockIdx and gridDim",
    "num_blocks": "HIP 5.2's grid_group has no num_blocks(); compute it from gridDim",
}
