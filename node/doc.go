// Package node defines one operation of a gofx program: the Node, its opcode,
// target, arguments and metadata, and the use-def edges between nodes.
//
// A Node is created and owned by a Chain (the ordered container that package
// graph wraps). The Chain keeps the nodes in program order with O(1) order
// comparisons, maintains the index behind graph.FindNodes, and together with
// the Node methods keeps the use-def bookkeeping right after every mutation:
// changing a node's arguments updates the users of both the old and the new
// inputs. Every such change bumps the Chain's Version.
//
// Arguments are a closed set of Go types that implement [Arg]: *Node, Int,
// Float, Bool, Str, None, DType, Device, Layout, MemoryFormat, Ellipsis,
// List, Tuple, Dict and Slice (the index x[0:2] records). Targets implement
// [Target]: call_function nodes call a [Function] (a registry operator of
// package ops, or a [Func]; [NewOp] gives one value per name, so targets
// compare with ==), and all other opcodes name a [Path] (an argument name,
// an attribute or module path, or a method name).
//
// [LookupFunction] resolves a target by the name graph text gives it
// ("aten.add.Tensor", "operator.getitem"); [LookupTarget] by the name a
// PyTorch 2.x .pt2 file writes ("torch.ops.aten.add.Tensor",
// "torch.ops.higher_order.cond", "_operator.mul", "torch.sym_max"), and
// [TorchName] gives that name back. Both read the one registry of
// functions (Register; package nn registers Python's operators and the
// higher-order operators) and package ops's global registry.
//
// Package node does not import package graph.
package node
