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
//     written back by ExportedProgram.Run. A write through a view (x[0] =
//     v as a copy_ or fill_ into x.Index(0), x.View(-1).Add_(1)) is
//     written back into the viewed tensor as torch.export does, with
//     select_scatter, slice_scatter or a view to its shape; a write
//     through another view (a permute, split's pieces) is refused with the
//     Go line, and so is reading a view taken before its base was
//     written.
//   - A model left in training mode exports as torch.export's does: a
//     batch norm records _native_batch_norm_legit_functional, whose new
//     running mean and variance are buffer mutations (and
//     num_batches_tracked plus one a third), and dropout records native_dropout. More generally an
//     operator that writes arguments other than self is recorded as its
//     functional variant NAME_functional (results, then the written
//     arguments' new values); one without such a variant is refused.
//   - Parameters, buffers and constant tensors become placeholders before
//     the user inputs (p_fc_weight, b_bn_running_mean, c_lifted_tensor_0).
//   - Inputs are pytrees, as torch.export's: a positional or keyword
//     (Kwargs) input may nest tuples (nn.Tuple, []nn.Value), lists (other
//     Go slices: []any, []*tensor.Tensor), dicts (nn.Dict, which keeps its
//     key order, or a Go map with string keys, whose keys are sorted: a Go
//     map has no order) and structs registered with Register (PyTorch's
//     register_dataclass). Each leaf is a user input placeholder named as
//     torch.export names it: the argument's name and the path's keys,
//     lowercased, non-alphanumerics made "_", joined by "_" (batch['ids']
//     is batch_ids, xs[0] xs_0, p.a p_a); Dims name a leaf's dynamic
//     dimensions by that name or by its path (Dims{"batch_ids": {1: t}}
//     or Dims{"batch['ids']": {1: t}}, Auto included).
//     The model gets each input in its structure (tuples and lists as nn
//     tuples, dicts as nn.Dict, a struct as an nn.Value holding a copy with
//     its nn.Value fields traced). The program's in spec (InSpec) is the
//     spec of (args, kwargs), the keyword inputs in the order of the
//     module's arguments; Call and Run check a call's structure against it
//     (an error names the path) and package pt2 saves it, so PyTorch calls
//     the loaded program with the same nested inputs.
//   - Non-tensor leaves (ints, floats, bools, strings, None) are
//     specialized: they are burned into the graph and Go loops over them
//     are unrolled. Each keeps a placeholder the graph does not use, a
//     USER_INPUT with its value in the signature (InputSpec.Value:
//     PyTorch's ConstantArgument input, as torch.export 2.6 records an int
//     argument); Run and Call check that later calls pass the same values.
//   - Dimensions are static unless declared dynamic with Dim (a name, a
//     minimum and a maximum; one Dimension shared by several inputs makes
//     their sizes equal). Sizes read from a dynamic dimension are symbolic
//     (package sym): arithmetic on them is recorded (operator.mul over
//     aten.sym_size.int, one node per distinct expression), and a comparison that the declared ranges do not
//     settle is decided from the example and recorded as a guard. A guard
//     the spec does not imply makes Export fail with the guard, the Go
//     line that caused it and a corrected spec to copy; a dynamic
//     dimension is never specialized silently. A dimension declared Auto
//     (torch.export's Dim.AUTO; AllAuto for every dimension) is dynamic
//     unless the model needs otherwise: it takes the fix of each guard
//     instead (static, merged with another, a narrower range), and the
//     Specializations option reports each with its Go line.
//   - Custom operators (ops.Define with a schema, a kernel and a meta
//     function) are recorded as nodes of their own, as torch.export
//     records torch.library.custom_op: the verifier allows functional
//     operators outside the aten and prims namespaces. Their meta function
//     gives the result's dtype and shape: it is probed at the example
//     sizes and at two others of each dynamic dimension, and a result
//     dimension that is constant or one input dimension at every probe is
//     symbolic; otherwise the dynamic dimensions are specialized (and
//     reported) unless shapeprop.RegisterRule gives the operator a
//     symbolic rule.
//   - Structured control flow (functional.Cond, WhileLoop, Map) is
//     recorded as torch.export 2.6 records torch.cond, while_loop and map:
//     one higher-order node (higher_order.cond, while_loop, map_impl)
//     whose branches and bodies are subgraphs of the program
//     (Subgraphs: true_graph_0, false_graph_0, while_loop_cond_graph_0,
//     while_loop_body_graph_0, body_graph_0; nested ones inside theirs),
//     results read with getitem. Both branches are traced; their outputs
//     must agree in count, dtype and rank; a size that differs between
//     them (sizes compared symbolically) is a fresh unbacked size of the
//     cond's result, whose range spans both and is asserted after its
//     getitem, as PyTorch 2.7 and later merge branch outputs
//     (shapeprop.MergeBranches; 2.6 refuses such a cond).
//     Parameters, buffers and constants a branch reads are lifted into
//     its operands in 2.6's order (the operands and what both branches
//     read, then what only the true branch reads, then what only the
//     false branch reads, each sorted by Dynamo's name). A symbolic size
//     of the enclosing graph that a branch or body reads (n := x.Size(0)
//     outside, o[0].Add(n) or Reshape(n, -1) inside) is lifted as PyTorch
//     2.14 lifts it (2.6 refuses it): first among a cond's operands,
//     appended to while_loop's additional inputs and map's extra args,
//     its placeholder a Sym of the same size. The predicate
//     stays in the program when it depends on tensor data (x.Sum().Gt(0))
//     or on a dynamic size (x.Size(0).Gt(4): a symbolic comparison node,
//     not a guard); a Go bool predicate is a constant: only its branch is
//     recorded, and Specialized reports the Go line. A branch that
//     mutates an input in place or uses a traced tensor that is not an
//     operand is an error naming the branch and the Go line.
//   - Go control flow on tensor data (an if on x.Sum().Gt(0).Bool())
//     fails with an *fx.TraceError naming the Go line and pointing to
//     functional.Cond.
//
// The ExportedProgram prints like torch.export's (code annotated with
// dtypes and shapes, the nodes of each source line after a
// "# File: path:line in func, code: ..." comment read from the nodes'
// stack_trace; a higher-order call's graph attributes, true_graph_0 =
// self.true_graph_0, under the call's line, its results read as cond[0],
// and each subgraph as a nested class with its own source lines, so that
// the control-flow programs PyTorch saved print as PyTorch printed them;
// the graph signature, the range constraints), runs with
// its inputs checked against the signature and the ranges, decomposes
// further with RunDecompositions, and turns back into a GraphModule with
// Module. Transform runs GraphModule passes (package passes, or any Pass)
// on that GraphModule and lifts the result back into a program: the
// folded or new state becomes parameters, buffers and lifted constants
// again, state nothing reads is dropped, and the inputs keep their checks.
//
// Programs calling higher-order operators (cond, while_loop, map_impl,
// as .pt2 files hold them) transform too. RunDecompositions keeps each
// such node, its operands and the getitem nodes reading its results, and
// decomposes every subgraph (nested ones included) as it decomposes the
// program, as PyTorch's run_decompositions does; an aten operator no
// table has a rule for stays (aten.max.default). In Transform the
// subgraphs are GraphModule attributes of the program's module (Module),
// the passes edit them there, and the lifted program takes them back as
// its Subgraphs. While the passes run, the parameters and buffers a
// higher-order node passes to its graphs are read inside them with
// get_attr (so constant folding and the batch-norm foldings work in a
// branch as in the program); afterwards every tensor a subgraph reads
// (the state, constant folding's results) becomes an operand of the node
// again, one placeholder per tensor in each of its graphs, named as the
// program's inputs (p_lin1_bias, c__folded_constant_0), in the order the
// program had its operands (PyTorch's: the lifted parameters and buffers
// as 2.6 orders them), a tensor a pass made after them in the order the
// graphs read it.
//
// # Constant weights
//
// Run declares the parameters, buffers and lifted constants the program
// only reads (no buffer mutation writes them back, interp.ReadOnly of
// their placeholders) constant to the kernels (kernels.MarkConstant), so
// a convolution packs such a weight once for every run. State replaced by
// new tensors is marked on the next run; writes into the state tensors
// through operators and nn.LoadState are seen by the kernels' cache; any
// other write (Tensor.CopyFrom, tensor.Data) must be followed by
// kernels.Changed (see ExportedProgram.StateDict). Which inputs are only
// read is found on the first run and kept while the graph
// (graph.Graph.Version) and the signature stay as they are; a pass that
// changes them is seen on the next run, which withdraws the mark
// (kernels.Unmark) of a state input the program now writes.
//
// # Data-dependent values
//
// A value read from tensor data (nn.Value.Item on an integer tensor,
// nonzero's length, the size a custom operator's meta function asks for
// with ops.Call.NewDynamicSize) is an unbacked symbol u0, u1, ...,
// recorded by the node that reads it (_local_scalar_dense, nonzero, the
// custom operator). It flows into later shapes (x[:n] is f32[u0, 3]).
// functional.Check, CheckIsSize, ConstrainAsSize and ConstrainAsValue
// narrow its range and record no node; branching on it (Bool, Int) is a
// data-dependent error naming the Go line. When the trace is done, the
// runtime assertions of each unbacked symbol's final range are put right
// after the node that gives it, as torch.export 2.6 records them: a
// tensor size read with sym_size.int, sym_constrain_range_for_size for a
// size-like symbol, and an _assert_scalar of "u0 >= lo" and "u0 <= hi"
// (operator.ge / operator.le nodes) for each finite end. Run checks
// them; RangeConstraints holds the ranges. The Go-written equivalent of
// ../shared/pt2's unbacked program gets PyTorch 2.6's core structure
// (unbacked_test.go). Inside a cond branch, a while_loop body or a map
// body, data-dependent values are unbacked symbols of the subgraph's
// nodes (nonzero: i64[u0, 1]; item: Sym(u0)) with their ranges in
// RangeConstraints and, as 2.6 records them, no runtime assertion inside
// the subgraph (unbackedhop_test.go compares with 2.6's exports). A checked condition that is not a range of one
// symbol (Check(n.Le(x.Size(0))) with a dynamic x: u0 <= s0) is asserted
// after the nodes of both sides when each side is one symbol with a node,
// or one symbol plus a constant (u0 + 1 <= s0, with model code's add node
// or one of its own, as 2.6 records it); such a check also narrows the
// unbacked symbol's range by the other side's (s0 <= 64: u0 <= 63). A
// check on larger expressions narrows what the exporter knows but is not
// asserted at run time.
//
// The item of a floating tensor is an unbacked float symbol zuf0, zuf1,
// ... (sym.Env.NewUnbackedFloat), as PyTorch 2.6 and 2.14 record it:
// _local_scalar_dense: "Sym(zuf0)", its range VR[-oo, oo], no runtime
// assertion. Model code passes it on to operators (x.Mul(a): mul.Tensor
// with a wrapped float; full's fill value; add's alpha), which is all the
// programs of floatitem_test.go do, and the program matches PyTorch
// 2.14's print of the same model. gofx keeps no symbolic float
// arithmetic: a Python operator or a check on such a float (PyTorch's
// item * 2.0: Sym(2.0*zuf0)) is an export error naming the Go line.
//
// # Trace checking
//
// An exported program is a trace: Go code ran once on the example
// inputs, and what it decided from Go values (a static size read with
// Size, a loop over it, a tensor it made itself) is baked into the graph.
// The CheckInputs option is torch.jit.trace's check_inputs (the seed's
// "Automatic Trace Checking"): Export traces the module again on each
// check input and compares the graphs as printed (without users' counts,
// so only the computation counts); it compares the constant tensors the
// two traces lifted; it runs the first trace's graph on the check input
// (its Module, without the input checks Run makes: the sizes the trace
// baked in are what is checked) and compares its tensor outputs with the
// Go Forward's and then with the repeated trace's, within CheckTolerance
// (torch.testing's assert_close). The first check input that fails gives
// a *TraceCheckError, whose Error prints as PyTorch's TracingCheckError:
// "ERROR: Graphs differed across invocations!" with the graph diff in
// difflib.ndiff's form (- and + lines, "? " lines marking the characters
// that differ in alike lines), the first diverging operator with the Go
// lines that made each side, "ERROR: Tensor-valued Constant nodes
// differed in value across invocations", the first output not within
// tolerance (which PyTorch only warns about), "Trace had nondeterministic
// nodes" when the trace has random operators (dropout in training mode,
// rand, bernoulli: PyTorch's Node::isNondeterministic list), and the
// error of a run on the check input. Its fields give the same parts to
// programs (Kind, GraphDiff, Diverging, Constant, Output). The seed's
// loop over x.size(0) is ExampleCheckInputs; declaring the dimension
// dynamic instead makes Export refuse the loop with its guard.
//
// # Programs from parts, and pytrees
//
// New assembles a program from its parts (Parts: graph, signature with
// every input and output kind of torch.export, state, constants, range
// constraints, pytree specs, module call graph, the subgraphs of
// higher-order operators): what package pt2 reads from a .pt2 file. Run
// runs a program's higher-order operators with their subgraphs (a
// reference to a subgraph the program lacks is an error naming the
// operator's node and the branch).
// A TreeSpec is PyTorch's pytree spec (tuples, lists, dicts, None,
// namedtuples, registered structs) with its serialized form
// (ParseTreeSpec, MarshalPyTorch) and repr (String). A program's in spec
// is the spec of (args, kwargs): Run and Call flatten nested inputs (Go
// slices and maps, nn tuples and dicts, registered structs) by it, with
// errors naming the position, and Call returns the outputs in the out
// spec's structure; RunFlat takes and returns the leaves. A model's
// outputs may nest the same way (tuples, nn.Dict, an nn.Object of a
// registered struct, None and other constants as constant leaves).
//
// A registered struct's spec node has the name given to Register as its
// type and [[child field names], [None field names]] as its context, as
// PyTorch writes a dataclass's. To load such a .pt2, PyTorch needs a
// dataclass with the same field names registered under the same name
// first: torch.export.register_dataclass(Cls, serialized_type_name=name);
// PyTorch 2.6's ep.module() also needs
// torch.fx._pytree.register_pytree_flatten_spec(Cls, lambda obj, spec:
// [getattr(obj, f) for f in spec.context[0]]).
package export
