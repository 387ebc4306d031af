// Package fx captures Go model code as a graph, as torch.fx does for
// Python: SymbolicTrace runs a module's Forward on proxies (Proxy) and
// records what it does. Standard layers become call_module leaves,
// parameters and buffers get_attr nodes, tensor methods call_method nodes,
// and operators and functions call_function nodes; every node records the
// Go stack of the model code that made it (stack_trace) and the modules
// whose Forward was running (nn_module_stack).
//
// The result is a GraphModule: the graph plus the module tree it refers
// to. It is itself an nn.Module, so it can be called (the interpreter runs
// the graph), nested in other modules and traced again.
//
// Go control flow on Go values (hyper-parameters, ConcreteArgs) is
// specialized away while tracing; Go control flow on tensor data stops the
// trace with a *TraceError naming the Go line. Structured control flow
// (functional.Cond, WhileLoop, Map) is recorded instead, as torch.export
// records it: one higher-order call_function node (higher_order.cond,
// while_loop, map_impl) whose branches and bodies are GraphModule
// attributes of the traced module (true_graph_0, false_graph_0, ...,
// sharing the root's submodules), parameters and buffers a branch reads
// lifted into its operands as get_attr nodes of the program, and a number
// of the enclosing graph computed from sizes (n := x.Size(0), x.shape[1],
// arithmetic on them, an item()) that a branch or body closes over lifted
// as an operand where torch.export 2.14 lifts an outer symbolic size
// (first cond operand; appended to while_loop's additional inputs and
// map_impl's extra inputs), so the traced module computes it from each
// call's inputs; a closed-over tensor stays an error. Wrap marks a
// Go function as a leaf recorded as one node; a Tracer's IsLeaf decides
// which modules are leaves.
//
// Structured control flow (functional.Cond, WhileLoop, Map) is recorded
// as torch.export records it: a higher-order call (higher_order.cond,
// while_loop, map_impl) whose branch and body graphs are GraphModule
// submodules read by get_attr nodes (true_graph_0). Subgraphs returns
// them as graph.Subgraph values; Text and ParseModule write and read a
// GraphModule with its subgraphs as one text (nested "subgraph NAME { }"
// sections); Readable prints it as torch.fx's print_readable does, a
// nested class per subgraph; Tabular adds a table per subgraph; Lint
// checks the signatures between each call and its graphs. A cond whose
// predicate is a Go bool is specialized (only its branch is traced) and
// GraphModule.Specialized reports its Go line, as export's does. Map
// takes a pytree of xs (a tuple of tensors): map_impl maps over its
// leaves.
//
// SplitModule and SplitModuleWith split a GraphModule into submodules by a
// partition callback, with torch.fx's split_module semantics (the golden
// tests compare with PyTorch's output node for node).
//
// Tracing, Recorder (which package transformer builds on), export's
// tracer and decomp's rule tracing all record through one recorder
// (package internal/record, as torch.fx's TracerBase.create_node serves
// make_fx): one Proxy type, one conversion of values to node arguments,
// one lazy tuple-element mechanism, one place that stamps a node's val,
// stack_trace and nn_module_stack, and one data-dependent error,
// *TraceError. What fx adds is its policy: leaves as call_module,
// parameters and buffers as get_attr, tensor constants as
// _tensor_constant attributes.
package fx
