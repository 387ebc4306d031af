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
// specialized away while tracing; control flow on tensor data stops the
// trace with a *TraceError naming the Go line. Wrap marks a Go function as
// a leaf recorded as one node; a Tracer's IsLeaf decides which modules are
// leaves.
//
// SplitModule and SplitModuleWith split a GraphModule into submodules by a
// partition callback, with torch.fx's split_module semantics (the golden
// tests compare with PyTorch's output node for node).
package fx
