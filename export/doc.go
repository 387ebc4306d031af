// Package export captures a module as an ExportedProgram, as torch.export
// does: a sound, functional graph of core ATen operators with the
// module's state lifted out as inputs, a graph signature, explicit dynamic
// dimensions with their ranges, and runtime checks of the inputs.
//
// Export runs the module's Go Forward on proxies that carry fake tensors
// (dtype and a possibly symbolic shape, package shapeprop) and records one
// node per core ATen operator. It records through the recorder fx uses
// (package internal/record: the same fx.Proxy type, argument conversion,
// module stack and metadata stamping) with its own policy:
//
//   - Standard layers and user modules are inlined; composite operators
//     are decomposed on the fly by the table of package decomp (linear
//     becomes t + addmm, batch_norm the core batch-norm operator, ...).
//   - In-place operators are functionalized: x.Add_(y) records
//     aten.add.Tensor and the name x stands for the new value from then
//     on. A mutated buffer or user input becomes an extra output of the
//     graph (a buffer mutation or user input mutation in the signature),
//     written back by ExportedProgram.Run.
//   - Parameters, buffers and constant tensors become placeholders before
//     the user inputs (p_fc_weight, b_bn_running_mean, c_lifted_tensor_0).
//   - Non-tensor inputs (ints, floats, bools) are specialized: they are
//     burned into the graph and Go loops over them are unrolled; Run
//     checks that later calls pass the same values.
//   - Dimensions are static unless declared dynamic with Dim (a name, a
//     minimum and a maximum; one Dimension shared by several inputs makes
//     their sizes equal). Sizes read from a dynamic dimension are symbolic
//     (package sym): arithmetic on them is recorded (operator.mul over
//     aten.sym_size.int), and a comparison that the declared ranges do not
//     settle is decided from the example and recorded as a guard. A guard
//     the spec does not imply makes Export fail with the guard, the Go
//     line that caused it and a corrected spec to copy; a dynamic
//     dimension is never specialized silently.
//   - Control flow on tensor data fails with an *fx.TraceError naming the
//     Go line.
//
// The ExportedProgram prints like torch.export's (code annotated with
// dtypes and shapes, the graph signature, the range constraints), runs with
// its inputs checked against the signature and the ranges, decomposes
// further with RunDecompositions, and turns back into a GraphModule with
// Module. Transform runs GraphModule passes (package passes, or any Pass)
// on that GraphModule and lifts the result back into a program: the
// folded or new state becomes parameters, buffers and lifted constants
// again, state nothing reads is dropped, and the inputs keep their checks.
//
// # Programs from parts, and pytrees
//
// New assembles a program from its parts (Parts: graph, signature with
// every input and output kind of torch.export, state, constants, range
// constraints, pytree specs, module call graph, the subgraphs of
// higher-order operators): what package pt2 reads from a .pt2 file.
// A TreeSpec is PyTorch's pytree spec (tuples, lists, dicts, None,
// namedtuples) with its serialized form (ParseTreeSpec, MarshalPyTorch) and
// repr (String). A program's in spec is the spec of (args, kwargs): Run
// and Call flatten nested inputs (Go slices and maps) by it, with errors
// naming the position, and Call returns the outputs in the out spec's
// structure; RunFlat takes and returns the leaves.
package export
