"""Generates views.json: view operations and what torch makes of them.

Run from the repository root with /usr/bin/python3 tensor/testdata/gen_views.py.
Each case starts from torch.arange(numel, dtype=torch.float32) reshaped to
"shape" (contiguous) and applies "ops" in turn, each [name, args...]. The
expected result is the last tensor's shape, strides, storage offset,
contiguity, values (row-major) and whether it shares the base's storage, or
"error": true when torch raises at some step.
"""

import json
import os

import torch

A = torch.ops.aten


def apply(x, op):
    name, args = op[0], op[1:]
    if name == "view":
        return x.view(tuple(args))
    if name == "reshape":
        return x.reshape(tuple(args))
    if name == "permute":
        return x.permute(tuple(args))
    if name == "transpose":
        return x.transpose(*args)
    if name == "t":
        return x.t()
    if name == "expand":
        return x.expand(tuple(args))
    if name == "slice":
        return A.slice.Tensor(x, *args)
    if name == "narrow":
        return x.narrow(*args)
    if name == "select":
        return x.select(*args)
    if name == "squeeze":
        return x.squeeze()
    if name == "squeeze_dim":
        return x.squeeze(*args)
    if name == "unsqueeze":
        return x.unsqueeze(*args)
    if name == "as_strided":
        return torch.as_strided(x, *args)
    if name == "flatten":
        return x.flatten(*args)
    if name == "contiguous":
        return x.contiguous()
    if name == "clone":
        return x.clone()
    raise ValueError(name)


BIG = 2**62

CASES = [
    # view
    ("view_2x3_to_3x2", [2, 3], [["view", 3, 2]]),
    ("view_flat", [2, 3], [["view", -1]]),
    ("view_infer_inner", [2, 3, 4], [["view", 2, -1]]),
    ("view_add_ones", [2, 3], [["view", 1, 2, 1, 3, 1]]),
    ("view_two_infer", [2, 3], [["view", -1, -1]]),
    ("view_bad_numel", [2, 3], [["view", 4]]),
    ("view_bad_infer", [2, 3], [["view", 4, -1]]),
    ("view_negative", [2, 3], [["view", -2, 3]]),
    ("view_scalar_to_1", [], [["view", 1]]),
    ("view_1_to_scalar", [1], [["view"]]),
    ("view_scalar_to_1x1", [], [["view", 1, 1]]),
    ("view_transposed_flat", [2, 3], [["t"], ["view", 6]]),
    ("view_transposed_same", [2, 3], [["t"], ["view", 3, 2]]),
    ("view_transposed_split_inner", [2, 3], [["t"], ["view", 3, 2, 1]]),
    ("view_transposed_merge_ok", [4, 2, 3], [["transpose", 0, 2], ["view", 3, 8]]),
    ("view_transposed_merge_bad", [4, 2, 3], [["transpose", 0, 2], ["view", 12, 2]]),
    ("view_slice_step", [4, 6], [["slice", 1, 0, 6, 2], ["view", 2, 2, 3]]),
    ("view_slice_step_flat", [4, 6], [["slice", 1, 0, 6, 2], ["view", 12]]),
    ("view_slice_rows_flat", [4, 6], [["slice", 0, 1, 3, 1], ["view", 12]]),
    ("view_expanded_split", [3, 1], [["expand", 3, 4], ["view", 3, 2, 2]]),
    ("view_expanded_flat", [3, 1], [["expand", 3, 4], ["view", 12]]),
    ("view_empty_flat", [0, 3], [["view", -1]]),
    ("view_empty_reorder", [0, 3], [["view", 3, 0]]),
    ("view_empty_ambiguous", [0, 3], [["view", 0, -1]]),
    ("view_empty_same_shape_strided", [3, 4], [["slice", 0, 0, 0, 1], ["t"], ["view", 4, 0]]),
    ("view_select_flat", [2, 3, 4], [["select", 1, 1], ["view", 8]]),
    ("view_offset_kept", [3, 4], [["select", 0, 2], ["view", 2, 2]]),
    # reshape
    ("reshape_contiguous", [2, 3], [["reshape", 3, 2]]),
    ("reshape_transposed_copy", [2, 3], [["t"], ["reshape", 6]]),
    ("reshape_transposed_view", [2, 3], [["t"], ["reshape", 3, 2, 1]]),
    ("reshape_slice_copy", [4, 6], [["slice", 1, 0, 6, 2], ["reshape", 12]]),
    ("reshape_expanded_copy", [3, 1], [["expand", 3, 4], ["reshape", 12]]),
    ("reshape_bad", [2, 3], [["reshape", 5]]),
    ("reshape_scalar", [], [["reshape", 1, 1, 1]]),
    ("reshape_to_scalar", [1, 1], [["reshape"]]),
    ("reshape_empty", [2, 0], [["reshape", 0, 5]]),
    # permute
    ("permute_3d", [2, 3, 4], [["permute", 2, 0, 1]]),
    ("permute_negative", [2, 3, 4], [["permute", -1, 0, -2]]),
    ("permute_repeated", [2, 3, 4], [["permute", 0, 0, 1]]),
    ("permute_short", [2, 3, 4], [["permute", 0, 1]]),
    ("permute_out_of_range", [2, 3, 4], [["permute", 0, 1, 3]]),
    ("permute_scalar", [], [["permute"]]),
    ("permute_identity_contiguous", [2, 1, 3], [["permute", 1, 0, 2]]),
    # transpose and t
    ("transpose_0_2", [2, 3, 4], [["transpose", 0, 2]]),
    ("transpose_negative", [2, 3, 4], [["transpose", -1, -3]]),
    ("transpose_same", [2, 3], [["transpose", 1, 1]]),
    ("transpose_out_of_range", [2, 3], [["transpose", 0, 2]]),
    ("transpose_scalar", [], [["transpose", 0, -1]]),
    ("transpose_scalar_bad", [], [["transpose", 0, 1]]),
    ("t_2d", [2, 3], [["t"]]),
    ("t_1d", [3], [["t"]]),
    ("t_0d", [], [["t"]]),
    ("t_3d", [2, 3, 4], [["t"]]),
    ("t_twice", [2, 3], [["t"], ["t"]]),
    # expand
    ("expand_col", [3, 1], [["expand", 3, 4]]),
    ("expand_new_dims", [3, 1], [["expand", 2, 3, 4]]),
    ("expand_keep", [3, 1], [["expand", -1, 4]]),
    ("expand_1d", [3], [["expand", 2, -1]]),
    ("expand_to_zero", [3, 1], [["expand", 3, 0]]),
    ("expand_bad_size", [3, 1], [["expand", 4, 4]]),
    ("expand_leading_keep", [3, 1], [["expand", -1, 3, 4]]),
    ("expand_too_few", [2, 3, 1], [["expand", 3, 4]]),
    ("expand_scalar", [], [["expand", 2, 3]]),
    ("expand_scalar_to_scalar", [], [["expand"]]),
    ("expand_transposed", [1, 3], [["t"], ["expand", 3, 5]]),
    ("expand_negative", [3, 1], [["expand", 3, -2]]),
    # slice
    ("slice_basic", [5, 4], [["slice", 0, 1, 4, 1]]),
    ("slice_step2", [5, 4], [["slice", 0, 0, 5, 2]]),
    ("slice_step3_partial", [7], [["slice", 0, 1, 7, 3]]),
    ("slice_negative_bounds", [5, 4], [["slice", 1, -3, -1, 1]]),
    ("slice_big_end", [5, 4], [["slice", 0, 2, BIG, 1]]),
    ("slice_very_negative_start", [5, 4], [["slice", 0, -100, 2, 1]]),
    ("slice_start_past_end", [5, 4], [["slice", 0, 10, 20, 1]]),
    ("slice_end_before_start", [5, 4], [["slice", 0, 3, 1, 1]]),
    ("slice_negative_dim", [5, 4], [["slice", -1, 1, 3, 1]]),
    ("slice_zero_step", [5, 4], [["slice", 0, 0, 5, 0]]),
    ("slice_negative_step", [5, 4], [["slice", 0, 0, 5, -1]]),
    ("slice_scalar", [], [["slice", 0, 0, 1, 1]]),
    ("slice_dim_out_of_range", [5, 4], [["slice", 2, 0, 1, 1]]),
    ("slice_of_slice", [10], [["slice", 0, 1, 9, 2], ["slice", 0, 1, 4, 2]]),
    ("slice_transposed", [3, 4], [["t"], ["slice", 1, 1, 3, 1]]),
    ("slice_empty_dim", [0, 4], [["slice", 0, 0, 2, 1]]),
    # narrow
    ("narrow_basic", [4, 5], [["narrow", 1, 1, 3]]),
    ("narrow_negative_start", [4, 5], [["narrow", 0, -2, 2]]),
    ("narrow_zero_length_at_end", [4, 5], [["narrow", 0, 4, 0]]),
    ("narrow_past_end", [4, 5], [["narrow", 0, 3, 2]]),
    ("narrow_negative_past_end", [4, 5], [["narrow", 0, -1, 2]]),
    ("narrow_start_out_of_range", [4, 5], [["narrow", 0, 5, 0]]),
    ("narrow_start_too_negative", [4, 5], [["narrow", 0, -5, 1]]),
    ("narrow_negative_length", [4, 5], [["narrow", 0, 0, -1]]),
    ("narrow_scalar", [], [["narrow", 0, 0, 1]]),
    ("narrow_empty_dim", [0, 5], [["narrow", 0, 0, 0]]),
    ("narrow_empty_dim_negative", [0, 5], [["narrow", 0, -1, 0]]),
    ("narrow_dim_out_of_range", [4, 5], [["narrow", 2, 0, 1]]),
    # select
    ("select_row", [3, 4], [["select", 0, 1]]),
    ("select_col_negative", [3, 4], [["select", 1, -1]]),
    ("select_out_of_range", [3, 4], [["select", 0, 3]]),
    ("select_too_negative", [3, 4], [["select", 0, -4]]),
    ("select_to_scalar", [3], [["select", 0, 2]]),
    ("select_scalar", [], [["select", 0, 0]]),
    ("select_empty_dim", [0, 4], [["select", 0, 0]]),
    ("select_dim_out_of_range", [3, 4], [["select", 2, 0]]),
    ("select_transposed", [3, 4], [["t"], ["select", 0, 2]]),
    # squeeze
    ("squeeze_all", [1, 3, 1], [["squeeze"]]),
    ("squeeze_to_scalar", [1, 1], [["squeeze"]]),
    ("squeeze_scalar", [], [["squeeze"]]),
    ("squeeze_none", [2, 3], [["squeeze"]]),
    ("squeeze_dim0", [1, 3, 1], [["squeeze_dim", 0]]),
    ("squeeze_dim_last", [1, 3, 1], [["squeeze_dim", -1]]),
    ("squeeze_dim_not_one", [1, 3, 1], [["squeeze_dim", 1]]),
    ("squeeze_dim_out_of_range", [1, 3, 1], [["squeeze_dim", 3]]),
    ("squeeze_dim_scalar", [], [["squeeze_dim", 0]]),
    ("squeeze_dim_scalar_negative", [], [["squeeze_dim", -1]]),
    ("squeeze_dim_scalar_bad", [], [["squeeze_dim", 1]]),
    ("squeeze_expanded", [3, 1], [["expand", 3, 1], ["unsqueeze", 0], ["squeeze"]]),
    # unsqueeze
    ("unsqueeze_front", [2, 3], [["unsqueeze", 0]]),
    ("unsqueeze_middle", [2, 3], [["unsqueeze", 1]]),
    ("unsqueeze_end", [2, 3], [["unsqueeze", 2]]),
    ("unsqueeze_negative", [2, 3], [["unsqueeze", -1]]),
    ("unsqueeze_negative_front", [2, 3], [["unsqueeze", -3]]),
    ("unsqueeze_out_of_range", [2, 3], [["unsqueeze", 3]]),
    ("unsqueeze_too_negative", [2, 3], [["unsqueeze", -4]]),
    ("unsqueeze_scalar", [], [["unsqueeze", 0]]),
    ("unsqueeze_scalar_negative", [], [["unsqueeze", -1]]),
    ("unsqueeze_transposed", [2, 3], [["t"], ["unsqueeze", 1]]),
    ("unsqueeze_sliced", [4, 6], [["slice", 1, 0, 6, 2], ["unsqueeze", 2]]),
    ("unsqueeze_expanded", [3, 1], [["expand", 3, 4], ["unsqueeze", 1]]),
    # as_strided
    ("as_strided_transpose", [2, 3], [["as_strided", [3, 2], [1, 3], 0]]),
    ("as_strided_offset", [2, 3], [["as_strided", [2, 2], [3, 1], 1]]),
    ("as_strided_overlap", [6], [["as_strided", [3, 3], [1, 1], 0]]),
    ("as_strided_out_of_bounds", [2, 3], [["as_strided", [2, 3], [3, 1], 1]]),
    ("as_strided_negative_stride", [2, 3], [["as_strided", [2], [-1], 1]]),
    ("as_strided_negative_offset", [2, 3], [["as_strided", [2], [1], -1]]),
    ("as_strided_empty_any_offset", [2, 3], [["as_strided", [0, 3], [3, 1], 100]]),
    ("as_strided_on_view", [4, 4], [["select", 0, 1], ["as_strided", [2, 2], [4, 1], 5]]),
    ("as_strided_scalar", [2, 3], [["as_strided", [], [], 4]]),
    ("as_strided_zero_stride", [2, 3], [["as_strided", [2, 3], [0, 0], 5]]),
    # flatten
    ("flatten_all", [2, 3, 4], [["flatten", 0, -1]]),
    ("flatten_middle", [2, 3, 4], [["flatten", 1, 2]]),
    ("flatten_one_dim", [2, 3, 4], [["flatten", 1, 1]]),
    ("flatten_bad_order", [2, 3, 4], [["flatten", 2, 0]]),
    ("flatten_out_of_range", [2, 3, 4], [["flatten", 0, 3]]),
    ("flatten_scalar", [], [["flatten", 0, -1]]),
    ("flatten_transposed_copy", [2, 3], [["t"], ["flatten", 0, 1]]),
    ("flatten_transposed_partial_view", [2, 3, 4], [["transpose", 0, 1], ["flatten", 1, 2]]),
    ("flatten_empty", [2, 0, 3], [["flatten", 0, -1]]),
    # contiguous and clone
    ("contiguous_already", [2, 3], [["contiguous"]]),
    ("contiguous_transposed", [2, 3], [["t"], ["contiguous"]]),
    ("contiguous_expanded", [3, 1], [["expand", 3, 4], ["contiguous"]]),
    ("contiguous_slice_rows", [4, 3], [["slice", 0, 1, 3, 1], ["contiguous"]]),
    ("contiguous_size1_any_stride", [3, 4], [["slice", 1, 1, 2, 1], ["contiguous"]]),
    ("contiguous_empty_strided", [3, 4], [["slice", 1, 0, 4, 2], ["slice", 0, 0, 0, 1], ["contiguous"]]),
    ("clone_contiguous", [2, 3], [["clone"]]),
    ("clone_view", [4, 3], [["slice", 0, 1, 3, 1], ["clone"]]),
]


def main():
    out = []
    for name, shape, ops in CASES:
        n = 1
        for d in shape:
            n *= d
        base = torch.arange(n, dtype=torch.float32).reshape(shape)
        case = {"name": name, "shape": shape, "ops": ops}
        x = base
        try:
            for op in ops:
                x = apply(x, op)
        except (RuntimeError, IndexError, ValueError) as e:
            case["error"] = True
            case["message"] = str(e).split("\n")[0]
            out.append(case)
            continue
        case["error"] = False
        case["want_shape"] = list(x.shape)
        case["want_strides"] = list(x.stride())
        case["want_offset"] = x.storage_offset()
        case["want_contiguous"] = x.is_contiguous()
        case["want_values"] = [int(v) for v in x.reshape(-1).tolist()]
        case["want_shares"] = x.storage().data_ptr() == base.storage().data_ptr()
        out.append(case)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "views.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
