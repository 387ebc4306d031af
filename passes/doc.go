// Package passes is gofx's library of graph transformations and the
// PassManager that runs them.
//
// A Pass is a value: a name, a one-line doc, the passes it requires to have
// run before it, and a function that edits a *fx.GraphModule in place and
// reports whether it changed it. A Manager checks the requirements through
// a requirement graph (dominikbraun/graph) before running anything: a
// cycle is refused with the passes on it, and a pass placed before one it
// requires with the order Order gives. Passes never leave a graph that fails
// Lint; a Manager runs them in order, optionally linting and verifying
// after each (and, with FixedPoint, until nothing changes), and reports per
// pass the nodes before and after, the node counts per opcode and target,
// the time and, when asked, a diff of the graph's lines:
//
//	rep, err := passes.Run(gm, passes.RemoveDropout, passes.FoldConstants, passes.CSE, passes.DCE)
//	fmt.Print(rep) // pass  changed  nodes  time
//
// The passes here:
//
//   - DCE removes unused nodes without side effects (unused get_attr
//     included); DeleteUnusedSubmodules then drops the submodules no node
//     calls or reads from.
//   - CSE merges nodes that compute the same pure expression (schema
//     defaults normalized), in one linear walk.
//   - FoldConstants computes once, with the interpreter and the same
//     kernels, what depends only on parameters, buffers and literals, and
//     stores the results as non-persistent buffers of the GraphModule;
//     FoldConstantsWith limits the size of what it stores.
//   - RemoveDropout replaces dropout that does nothing (evaluation mode,
//     train=False, p=0) by its input: a rule set (package rewrite), one
//     rule per dropout operator, one for nn.Dropout modules and one for
//     native_dropout's getitem 0.
//   - FuseConvBN and FuseLinearBN fold an evaluation-mode batch norm into
//     the convolution or linear layer before it at FX level (call_module
//     pairs, as torch.fx.experimental.optimization.fuse does; rules whose
//     patterns are the module pairs and whose constraints check modes,
//     features and callers), with
//     PyTorch's formulas in PyTorch's order (FuseConvBNWeights,
//     FuseLinearBNWeights): the fused weights of the zoo's convnet are
//     bit-identical to PyTorch's.
//   - FoldConvBN does the same at core-ATen level: aten.convolution followed
//     by the batch-norm op in evaluation form, weights read with get_attr
//     (what ExportedProgram.Module gives).
//   - FoldLinearBN does the same for nn.Linear as export writes it
//     (aten.permute.default(w, [1, 0]) then aten.addmm.default, or
//     aten.mm.default without bias, which becomes an addmm with the new
//     bias).
//   - FuseEpilogues replaces, in core ATen and in PyTorch 2.x's default
//     export IR, a convolution (aten.convolution, or conv1d/conv2d/conv3d
//     with sizes or a "valid"/"same" padding) followed by relu, hardtanh
//     (ReLU6) or clamp, in place or not, a convolution followed by a
//     residual add.Tensor (or add_ into the convolution's result) and
//     relu, and addmm or linear followed by relu,
//     by one of gofx's fused operators (gofx.convolution_relu,
//     convolution_hardtanh, convolution_clamp, convolution_add_relu,
//     addmm_relu, linear_relu), whose kernel applies the epilogue in the
//     GEMM's final stores; only where the intermediate results have no
//     other user. The fused operators decompose back (decomp.FusedOps),
//     and pt2.Save writes them decomposed for PyTorch (SaveOptions.ForPyTorch,
//     which gofx optimize -o sets).
//   - InlineConstantCond replaces a cond whose predicate is a constant (a
//     literal, or a one-element tensor constant folding left) by the
//     branch it takes, copied in place of the cond node.
//   - PruneHigherOrder removes the results of cond, while_loop and
//     map_impl that nothing reads and the operands their graphs do not
//     use, consistently across the graphs of one node (both branches'
//     outputs and placeholders, the operand list, the getitem indices and
//     the node's val).
//
// Every pass reaches into the graphs of higher-order operators
// (torch.cond's branches, while_loop's cond and body graphs, map_impl's
// body, nested ones included): Pass.Apply runs the pass on each such
// GraphModule, innermost first, then on the GraphModule itself. A pass
// sees one graph at a time, so a rewrite never spans the boundary between
// a graph and its branch. Constant folding and the batch-norm foldings
// work inside a branch on the state the branch reads with get_attr (its
// GraphModule's attributes); ExportedProgram.Transform arranges that for
// exported programs, whose branches receive the state as operands.
//
// Passes run on an exported program through ExportedProgram.Transform,
// which runs them on the program's GraphModule and lifts the state back
// into placeholders (a Pass and a *Manager are export.Pass values; this
// package does not import export):
//
//	folded, err := ep.Transform(passes.FoldConvBN, passes.DCE)
//	optimized, err := ep.Transform(passes.NewManager(passes.Default()...))
//
// The fusions, foldings and dropout removal are rule sets on package
// rewrite: patterns (module pairs, or graph text of core-ATen operators
// bound by schema argument), constraints that say why a match does not
// fold, and in-place edits that keep the layer's node and name, with the
// weight math in plain functions (FuseConvBNWeights, FuseLinearBNWeights).
// RuleSetOf returns a pass's rule set, whose Explain says why a rule did or
// did not fire at a node; FromRules makes a pass of any rule set.
//
// Default is the pipeline gofx optimize runs (dropout, the fusions and foldings,
// the fused epilogues, constant folding, CSE, DCE, unused submodules) and Optimize runs it.
//
// Every pass keeps the graph's outputs (bit for bit, except the fusions,
// whose folded weights round differently, within 1e-6 on the zoo), never
// merges or folds random operators, operators that write their arguments
// or state the graph writes, and never edits the user's modules: new state
// goes to the GraphModule, and modules on an edited path are replaced by
// copies.
//
// Two tools that work on a GraphModule without being passes live beside
// the graph they work on: fx.SplitModule (torch.fx's split_module) and the
// Graphviz drawer of package graph/dot (gofx draw).
package passes
