// Package transformer turns a GraphModule into a new one by running it on
// proxies: the Go form of torch.fx's Transformer.
//
// A [Transformer] is an [interp.Interpreter] whose values are fx proxies
// of a new graph being recorded. [Transformer.Transform] runs the source
// graph node by node; the default steps re-record every node with the
// same opcode, target and name, its arguments mapped to the new graph,
// and its metadata (val, stack_trace, nn_module_stack, anything else)
// copied, so that a Transformer without overrides returns a graph equal
// to the source. The result is a new *fx.GraphModule over the same module
// tree: parameters, buffers, constants (_tensor_constant0, ...) and
// submodules are shared, get_attr nodes read the same names and
// call_module nodes call the same paths.
//
// # Overriding steps
//
// Steps are overridden as interp's are: embed *Transformer in a type,
// define the steps to change (Placeholder, GetAttr, CallFunction,
// CallMethod, CallModule, Output, or RunNode and FetchArgs), and set the
// Steps field to your value. An override receives the source node, its
// target, and its arguments as values: proxies of the new graph for the
// nodes among them. It can call the default step with other arguments or
// another target:
//
//	type addToMul struct{ *transformer.Transformer }
//
//	func (s addToMul) CallFunction(n *node.Node, fn node.Function, args []nn.Value, kw map[string]nn.Value) (nn.Value, error) {
//		if fn == aten.AddTensor {
//			fn = aten.MulTensor
//		}
//		return s.Transformer.CallFunction(n, fn, args, kw)
//	}
//
//	s := addToMul{transformer.New(gm)}
//	s.Steps = s
//	gm2, err := s.Transform()
//
// or run ordinary Go model code on the proxies, which records what it
// does, exactly as tracing would: the relu decomposition of torch.fx's
// documentation is the Go function
//
//	func reluDecomposition(x nn.Value) nn.Value { return x.Gt(0).Mul(x) }
//
// returned from an override of the relu nodes. Nodes recorded this way
// get the source node's stack_trace and nn_module_stack (the source node
// being transformed is [Transformer.Current]); an override that wants
// other metadata sets it on the new node (fx.Proxy.Node) after recording.
// Tensors the code uses become get_attr nodes: of their names when they
// are parameters or buffers of the module tree, of new constants
// otherwise. Module calls on proxies are recorded as call_module nodes.
//
// Names: placeholders keep their names; every other node re-recorded with
// its own opcode and target keeps its name unless an override took it
// first, in which case it gets a suffix (add_1). Nodes with another target
// are named after it, as torch.fx names them.
//
// Operators with several results return tuples of lazy proxies, as in a
// trace: getitem nodes of the source are re-recorded on the new node, and
// an override can index the tuple in Go (the getitem node appears when the
// element is used).
//
// # Errors
//
// A failing step, default or overridden, including a panic of model code
// (an *nn.Error from a bad operator call on proxies), stops Transform with
// an *interp.NodeError naming the source node, its line and where the
// model code created it. No panic escapes Transform.
//
// # Cost
//
// One pass over the source graph, O(1) work per node besides what the
// overrides do: see BenchmarkTransform.
package transformer
