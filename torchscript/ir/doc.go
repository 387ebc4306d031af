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
// ...; unnamed values print as their number (%5).
package ir
