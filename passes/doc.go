// Package passes is gofx's library of graph transformations and the
// PassManager that runs them.
//
// A Pass is a value: a name, a one-line doc, the passes it requires to have
// run before it, and a function that edits a *fx.GraphModule in place and
// reports whether it changed it. Passes never leave a graph that fails
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
//     train=False, p=0) by its input.
//
// Every pass keeps what the graph computes exactly (bit for bit), never
// merges or folds random operators, operators that write their arguments
// or state the graph writes, and never edits the user's modules: new state
// goes to the GraphModule.
package passes
