// Package shapeprop computes what every node of a graph produces: its
// dtype and shape, concrete or symbolic.
//
// Propagate is torch.fx's ShapeProp: it runs a GraphModule on concrete
// tensors with the interpreter and records node.Val (a node.TensorMeta, or
// a node.ValueTuple for a tuple of tensors) on every node whose value is a
// tensor.
//
// FakeProp runs a GraphModule on fake tensors without running a kernel. A
// Fake is a dtype, a shape of sym.Expr dims (s0, 2*s0, 16) and whether
// gofx's kernels would lay it out contiguously. Every operator call goes
// to Infer; standard layers run their Forward on fakes, tensor methods and
// Python-level functions (getattr(x, "shape"), operator.getitem) work on
// fakes and symbolic sizes, so that FakeProp works on any GraphModule, the
// module-level graphs of fx.SymbolicTrace as well as the aten-level graphs
// of later passes. It records node.Val = *Fake (sym.Expr for an int node,
// node.ValueTuple for a tuple) on every node; MetaOf reads either record.
//
// # Higher-order operators
//
// Both go through torch.export's cond, while_loop and map_impl, recording
// node.Val inside their branch and body graphs too. Propagate runs them
// as the interpreter does (cond's taken branch only, the body of a loop as
// often as the data says), the subgraph nodes recording what they
// computed. FakeProp propagates both branches of a cond: with a known
// predicate (a bool) the result is the taken branch's; with an unknown one
// (a fake bool tensor, or a comparison of sizes that the ranges do not
// decide, such as s0 > 4, which is kept symbolic and not guarded on) the
// branches must return as many values with the same dtypes and ranks,
// and the result is their common output, except that a size that
// differs between the branches (x[:2] vs x[:3]; s0 vs s0 - 1), or that
// holds an unbacked symbol a branch made, becomes a fresh unbacked size
// whose range spans both, as PyTorch's cond merges branch outputs since
// 2.7 (MergeBranches; 2.6 refuses such a cond). A
// while_loop's cond_fn and body run once on the carried fakes, which the
// body must give back with the same dtypes and shapes (loop-carried shapes
// are invariant); a map_impl's body runs on one slice of the mapped
// tensors (their leading sizes must be equal) and each output gains that
// leading dim. Errors name the operator, the branch or body, and what
// differs.
//
// # Infer
//
// Infer computes one operator call on fakes in three steps:
//
//  1. It runs the operator's meta function at the hints: every symbolic
//     size replaced by its example value (sym.Env.Hint; an unbacked symbol
//     by the smallest value of its range that is at least 2), every fake
//     by a meta tensor. This checks the arguments exactly as the kernel
//     does, with the kernel's error messages, and gives the result dtypes.
//  2. If the operator has a Rule (RegisterRule), the rule computes the
//     symbolic result shapes, deciding comparisons between sizes with
//     sym.Env.Decide: broadcasting a dim a with b takes b when a is 1, a
//     when b is 1, and otherwise requires a == b, which the ranges may
//     settle (a symbol in [2, int_oo] is never 1) or which becomes a guard
//     such as Eq(s0, s1). Infer checks the rule's shapes at the hints
//     against the meta function's, which catches rule bugs.
//  3. Without a rule, every symbolic size among the arguments is
//     specialized to its hint: a guard Eq(s0, 4) recorded "specialized by
//     OP at WHERE", and the meta function's static results are the answer.
//
// A symbolic int given where the schema wants a Tensor (x + n with n =
// x.size(0), or an unbacked .item()) is a wrapped number, as PyTorch
// records aten.add.Tensor(x, sym_size_int_1): the meta function gets its
// hint (1 for an unbacked symbol without one), which never changes the
// result's shape, and no size is specialized for it.
//
// Rules cover every pointwise operator (broadcasting), every in-place
// operator (self's shape), views and reshapes (view with -1 computes the
// missing dim symbolically as numel // known, checking divisibility with
// Decide), matrix products, convolutions and pooling
// (floor((in + 2p - d(k-1) - 1) / s) + 1, ceil_mode included),
// reductions, normalizations, softmax, indexing, creation operators,
// sym_size, and nonzero, whose length is a fresh unbacked symbol in
// [0, numel]. Rules lists them.
//
// Contiguity follows gofx's kernels: every operator that makes a new
// tensor returns it contiguous; transpose, permute, t, expand and
// narrowing slices of a contiguous tensor are not, so that export can
// decompose reshape into view or clone + view.
package shapeprop
