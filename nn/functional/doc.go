// Package functional is torch.nn.functional for gofx model code, with the
// torch.* functions that model code calls (torch.flatten, torch.cat,
// torch.sum, ...). It is conventionally imported as F:
//
//	import F "github.com/gofx/gofx/nn/functional"
//
//	x = F.ReLU(F.Conv2d(x, w, b, F.ConvOptions{Stride: []int{2}, Padding: []int{1}}))
//
// Every function is one aten operator called through the dispatch point
// (nn.CallOp), so it runs eagerly on tensors and is recorded as one node
// by tracers; a refused argument panics with an *nn.Error naming the
// operator and the Go line of the model code, which nn.Run and the other
// entry points return as an error.
//
// Argument conventions, since Go has no keyword arguments:
//
//   - Tensors (and tensor-or-number operands) are nn.Values; an optional
//     tensor (a bias) is nn.None when absent.
//   - Arguments PyTorch's function requires, and the few that model code
//     always spells out (dim, training, eps), are explicit parameters in
//     PyTorch's order.
//   - Convolutions and pooling take an options struct (ConvOptions,
//     ConvTransposeOptions, MaxPoolOptions, AvgPoolOptions) whose zero
//     value is PyTorch's defaults: a nil size is the default (stride 1, or
//     the kernel size for pooling; padding 0; dilation 1), a zero Groups
//     is 1. Sizes are []int: one element for every spatial dimension, or
//     one per dimension.
//   - Dimensions are ints, negative counting from the end.
//
// # Data-dependent values
//
// Check (torch._check), CheckIsSize (torch._check_is_size),
// ConstrainAsSize (torch._constrain_as_size) and ConstrainAsValue
// (torch.sym_constrain_range) state facts about numbers read from tensor
// data with nn.Value.Item; Nonzero is torch.nonzero. Eagerly they check,
// with PyTorch's messages. Exported (package export), the number is an
// unbacked symbol (u0, u1, ...): the checks narrow its range, the
// program asserts that range at run time right after the node that
// reads it, and the number can size later tensors (x[:n] with
// nn.Slice(nil, n), full([n, 3], 0)):
//
//	n := k.Item()
//	F.CheckIsSize(n)
//	F.Check(n.Le(x.Size(0)))
//	head := x.Index(nn.Slice(nil, n)).Sum(0)
//
// # Control flow
//
// Cond (torch.cond), WhileLoop (torch's while_loop) and Map (torch's map)
// take Go functions as branches and bodies. Eagerly they run them: Cond
// the taken branch, WhileLoop until its condition is false, Map once per
// row of xs (a tensor or a tuple of tensors, as torch's map takes a
// pytree), results stacked. Traced (fx.SymbolicTrace, export.Export)
// they are recorded as one higher-order node each, every branch and body
// traced into a subgraph, so a decision on tensor data or on a dynamic
// size stays in the program:
//
//	out := F.Cond(x.Sum().Gt(0),
//		func(o ...nn.Value) nn.Value { return o[0].Method("sin") },
//		func(o ...nn.Value) nn.Value { return o[0].Method("cos") },
//		x)
//
// A Go bool predicate is a constant: only its branch runs, even when
// traced (the decision is specialized). Branches must return the same
// number of tensors with the same dtypes and shapes, must not mutate their
// operands in place, and may read parameters and buffers (lifted into the
// operands) but no other traced tensor that is not an operand: each
// violation is an error naming the branch and the Go line.
package functional
