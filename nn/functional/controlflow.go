package functional

import "github.com/gofx/gofx/nn"

// Cond is torch.cond: trueFn(operands...) if pred holds, falseFn(operands...)
// otherwise. pred is a Go bool or a one-element bool tensor; the branches
// take the operands and return a tensor or a tuple of tensors (nn.Tuple)
// of the same count, dtypes and shapes.
//
// Eagerly, Cond runs the taken branch. Traced (fx.SymbolicTrace,
// export.Export), both branches are traced into subgraphs and the call is
// one node, as torch.export records it:
//
//	true_graph_0 = self.true_graph_0
//	false_graph_0 = self.false_graph_0
//	cond = torch.ops.higher_order.cond(gt, true_graph_0, false_graph_0, [x])
//	getitem = cond[0]
//
// A predicate on tensor data (x.Sum().Gt(0)) or on a dynamic size
// (x.Size(0).Gt(4) with a dynamic dim) stays a predicate of the graph; a
// Go bool is a constant: only its branch runs and is recorded (the
// decision is specialized). Parameters and buffers the branches read are
// lifted into the operands. A branch may not mutate its operands in place
// nor use a traced tensor that is not an operand (a closure): both are
// errors naming the branch and the Go line.
func Cond(pred nn.Value, trueFn, falseFn func(operands ...nn.Value) nn.Value, operands ...nn.Value) nn.Value {
	return nn.RunCond(pred, trueFn, falseFn, operands)
}

// WhileLoop is torch's while_loop: while condFn(carried..., additional...)
// returns true, carried = bodyFn(carried..., additional...); it returns
// the final carried values. condFn returns a Go bool or a one-element
// bool tensor; bodyFn returns as many values as are carried, with the same
// dtypes and shapes. additional are read-only inputs of both functions
// (nil for none).
//
// Traced, it is one while_loop node whose condition and body are
// subgraphs (while_loop_cond_graph_0, while_loop_body_graph_0); the trip
// count is decided by the data when the program runs.
func WhileLoop(condFn func(vals ...nn.Value) nn.Value, bodyFn func(vals ...nn.Value) []nn.Value, carried, additional []nn.Value) []nn.Value {
	return nn.RunWhileLoop(condFn, bodyFn, carried, additional)
}

// Map is torch's map (torch.ops.higher_order.map_impl): fn(xs[i], args...)
// for every i along xs's leading dimension, the results (a tensor, or a
// tuple of tensors) stacked along a new leading dimension. xs may be a
// pytree of tensors (nn.Tuple(a, b), nested tuples), as torch's map
// takes: fn then gets the same structure of rows (a[i], b[i]), and every
// tensor of xs must have the same leading size. Traced, it is one
// map_impl node whose body is a subgraph (body_graph_0) mapping over the
// leaves ([a, b]), as torch.export 2.6 records it.
func Map(fn func(x nn.Value, args ...nn.Value) nn.Value, xs nn.Value, args ...nn.Value) nn.Value {
	return nn.RunMap(fn, xs, args)
}
