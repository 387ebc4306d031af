// Package interp runs a graph node by node on concrete values: the Go form
// of torch.fx's Interpreter.
//
// An [Interpreter] holds a *graph.Graph and the module tree its get_attr
// and call_module nodes name (an nn.Module root, nil for graphs without
// them). [Interpreter.Run] feeds its inputs to the placeholders in order,
// runs every node, and returns what the output node returns:
//
//	in := interp.New(g, root)
//	out, err := in.Run(nn.Tensor(x))
//
// Every value is an nn.Value, so the same interpreter also runs on symbolic
// values (proxies): nn's call points record instead of computing, which is
// how a graph is retraced.
//
// # Memory
//
// A value is dropped after its last use (torch.fx's last-use analysis),
// and its buffer is recycled: handed back to package tensor's pool
// (tensor.Recycle), where the next tensor of the same dtype and size that
// a kernel allocates takes it, so steady-state inference allocates almost
// nothing. A buffer is recycled only when no live value shares its
// storage (views and tuple elements are counted per storage), and never
// the buffers of inputs, parameters, constants, the initial environment,
// the output, or of what modules and functions from outside gofx return
// (they may keep it). [Interpreter.Reuse] turns it off ([ReuseOff]); by
// default ([ReuseAuto]) runs with overridden steps, which may keep the
// values they see, do not recycle.
//
// # Constant weights
//
// A get_attr tensor the graph only reads ([ReadOnly]: no operator writes
// it or a view of it, nothing else is handed it) is declared constant to
// the kernels when a run with the default steps fetches it
// (kernels.MarkConstant), so that a convolution packs such a weight once
// for all runs instead of per call. Writes through operators (an in-place
// add_ on the parameter, from anywhere) and nn.LoadState are seen by the
// kernels' cache; a write that bypasses both (Tensor.CopyFrom,
// tensor.Data) must be followed by kernels.Changed.
//
// # Higher-order operators
//
// A get_attr node that names a submodule gives the module as a value
// (nn.ModuleAt, read back with Value.Module): that is how the branch and
// body graphs of torch.export's higher-order operators reach their
// call_function node. The operators themselves (nn.CondOp, nn.WhileLoopOp,
// nn.MapImplOp) are functions like any other: cond runs only the branch
// its predicate picks, while_loop runs its body as many times as its
// cond_fn says, map_impl runs its body once per leading index, and the
// operator's result is a tuple read with operator.getitem. A subgraph
// that is a GraphModule comes as an nn.ModuleRunner: it runs in an
// interpreter of its own that this interpreter creates on first use and
// keeps, so a branch taken or a loop iteration costs a run, not the
// planning of the subgraph (any other module is called with nn.Call).
//
// # Overriding steps
//
// Each step of a run is a method of the [Steps] interface, which
// *Interpreter implements with the default behaviour. To change one, embed
// *Interpreter in a type, override the methods you need, and point the
// interpreter's Steps field at your value; Run then dispatches every step
// through it, as Python's method overriding does for torch.fx's
// Interpreter subclasses:
//
//	type swapRelu struct{ *interp.Interpreter }
//
//	func (s swapRelu) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kw map[string]nn.Value) (nn.Value, error) {
//		if fn == aten.Relu {
//			fn = aten.Sigmoid
//		}
//		return s.Interpreter.CallFunction(n, fn, args, kw)
//	}
//
//	s := swapRelu{interp.New(g, nil)}
//	s.Steps = s
//	out, err := s.Run(x)
//
// # Memory
//
// A value is dropped from the environment as soon as the last node that
// uses it has run (torch.fx's garbage_collect_values), so a long chain
// holds only the values still live. [Interpreter.Env] shows what is held.
//
// # Errors
//
// A node that fails stops the run with a [*NodeError] naming the node, its
// line as graph.FormatNode prints it, and, when the node records one
// (node.StackTrace), where in the Go model code it was created. Panics
// raised inside steps are recovered and reported the same way.
//
// The interpreter takes a snapshot of the graph's node order when New is
// called; after mutating the graph, create a new Interpreter. An
// Interpreter is not safe for concurrent use: it holds the state of the
// run in progress.
//
// # Operators defined by a graph
//
// Define registers a custom operator (ops.Define) whose kernel and meta
// function run a graph: the graph's placeholders are the schema's
// arguments, its output the result. A program PyTorch saved that calls an
// operator defined in Python (torch.library.custom_op) runs once its body
// is written as a graph; gofx's CLI reads such definitions from a txtar
// file with -ops.
package interp
