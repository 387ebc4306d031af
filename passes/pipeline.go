package passes

import "github.com/gofx/gofx/fx"

// Default returns the default optimization pipeline, in order: dropout
// removal, batch-norm folding into the preceding convolution or linear
// layer at FX level (call_module) and at core-ATen level (get_attr state),
// the fusion of convolutions and linear layers with the activation and
// residual add after them into gofx's fused operators (FuseEpilogues),
// constant folding, the inlining of a cond whose predicate is constant,
// common-subexpression elimination, dead-code elimination, the pruning of
// unused results and operands of cond, while_loop and map_impl, and
// deletion of the submodules nothing calls any more. Each pass also runs
// inside the branch and body graphs of higher-order operators (Pass.Apply).
// gofx optimize runs it on exported programs; on a traced GraphModule the
// FX-level fusions apply instead of the ATen one.
func Default() []Pass {
	return []Pass{RemoveDropout, FuseConvBN, FuseLinearBN, FoldConvBN, FoldLinearBN, FuseEpilogues, FoldConstants, InlineConstantCond, CSE, DCE, PruneHigherOrder, DeleteUnusedSubmodules}
}

// Optimize runs the Default pipeline over gm in a Manager that lints after
// every pass, and returns the Manager's report. For an exported program,
// ep.Transform(passes.NewManager(passes.Default()...)) runs the same
// pipeline and returns the optimized program, its inputs still checked.
func Optimize(gm *fx.GraphModule) (*Report, error) {
	return NewManager(Default()...).Run(gm)
}
