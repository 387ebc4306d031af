// Package ir is TorchScript's intermediate representation: a Graph of
// Nodes in Blocks, whose Values are typed with package types, as
// torch/csrc/jit/ir/ir.h; and its text form, printed as print(m.graph)
// prints it and parsed back (irparser.cpp).
//
// A Graph has a top Block: its params are the graph's inputs, its outputs
// what the graph returns. A Node has a Kind spelled as PyTorch prints it
// ("aten::add", "prim::If", "prim::Loop", "prim::Constant"), inputs,
// outputs, nested blocks (the two branches of prim::If, the body of
// prim::Loop), attributes (value=, name=, with PyTorch's attribute kinds),
// the source range printed as "# file:line:col", and, when the node
// resolved to an operator overload, Op (the printed kind stays Kind).
//
// Nodes are made in one place, the builder: Create, then Insert at the
// graph's insert point (SetInsertPoint, SetInsertBefore), or InsertNode and
// Constant in one step. Values keep their uses, so ReplaceAllUsesWith and
// Destroy keep the graph consistent; Lint checks the structure (every use
// after its definition across blocks, the block arities of If and Loop,
// uses and owners consistent, types present). Values are named as PyTorch
// names them: SetDebugName renames a clashing older value to "x.1", "x.2",
// ...; unnamed values print as their number (%5). Copy copies a graph;
// InsertGraph copies one graph into another at the insert point (inlining a
// call, as PyTorch's insertGraph).
//
// Graph.String prints as print(m.graph) does (Graph::print: typed inputs,
// one line per node, "block0(...):" and "-> (...)" for nested blocks, "= "
// for a node without outputs, the "# file:line:col" source comments,
// attributes as Node::printAttrValue: 1., 0.10000000000000001, quoted
// strings with c10's escapes, {2} for a one-element tensor). Parse reads
// that text back, keeping names, numbers, types (the refined tensor types
// of traced graphs included), attributes (their text too, so that tensors
// PyTorch printed in full print back), scopes and source comments: every
// graph PyTorch 2.6 and 2.14 printed for ../shared/torchscript prints back
// byte for byte. Errors name the line and column.
//
// ResolveOp, which Parse applies to every node, sets Node.Op the way
// TorchScript's schema matching would for a call already typed: the first
// overload in PyTorch's registry order (Overloads, RegistryRank) whose
// arguments and returns fit the node's inputs and outputs; it agrees with
// node.schema() of PyTorch 2.6 on every node of the test graphs. The full
// matcher of source calls (keywords, defaults, implicit conversions) is
// torchscript/frontend's.
package ir
