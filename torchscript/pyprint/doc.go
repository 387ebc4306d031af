// Package pyprint prints TorchScript IR graphs (package ir) back as
// TorchScript source, exactly as PyTorch's python_print
// (torch/csrc/jit/serialization/python_print.cpp) does for a method's
// `.code`:
//
//	def forward(self,
//	    x: Tensor) -> Tensor:
//	  _0 = torch.add(x, 1)
//	  return (self.lin).forward(_0, )
//
// The rules are PyTorch's. A value is printed inline, at its one use,
// when it is a constant, or when it is a single output with one use, has
// no debug name (or is returned), is not a control-flow node, not a
// loop-carried input, and its node comes just where a left-to-right
// re-parse of the expression would put it; other values are assigned to
// a name: the debug name without its ".N" suffix, made unique by
// appending 0, 1, ... (genName), or _0, _1, ... for unnamed values. An
// inlined expression that makes a line of 40 characters or more (with its
// indentation) is assigned to a temporary, with the inlined expressions
// before it, so evaluation order stays as written.
//
// Constants print as IValue::repr writes them (1., 0.10000000000000001,
// True, None, "s" with c10's escapes, [1, 2], (1,), annotate(List[int], [])
// for an empty list), tensors and non-ASCII strings as CONSTANTS.c0,
// CONSTANTS.c1, ... (Code.Constants holds them). aten::x calls print as
// torch.x(...), other namespaces as ops.prim.x(...), with the trailing
// arguments equal to their schema defaults left out (CalculateNecessaryArgs,
// by the node's resolved ir.Node.Op) and keyword-only ones named;
// aten::Int/Float/Bool/str, __getitem__, prim::GetAttr/SetAttr,
// prim::CallMethod ((m).forward(x, )), prim::CallFunction, tuples, lists,
// dicts, unchecked_cast, isinstance, uninitialized, annotate for the
// implicit conversions, enum names and values have their own spellings.
// prim::If prints as if/else with its outputs assigned at the end of each
// branch, prim::Loop as `for i in range(n):` or as a while loop over a
// condition variable, its carried values assigned before the loop and at
// the end of the body (`_0, acc0, i = _3, acc1, _4`); a loop that combines
// both (a trip count and a condition) is refused, as PyTorch refuses it.
// prim::fork prints as a nested `def __forked_function():` holding its
// subgraph (whose inputs read as the fork's inputs, which are never
// inlined) followed by `fut = fork(__forked_function)`. prim::PythonOp
// (a call of Python: a @torch.jit.ignore'd function, an autograd Function
// in a traced module) is refused: no archive holds one, since
// torch.jit.save refuses it ("Could not export Python function call";
// checked with PyTorch 2.6 by
// ../convert/testdata/tsfork/check_unserializable.py).
//
// Method prints a method as m.code does (self untyped); Print takes a
// Signature (parameter names, defaults). Errors name the function and
// what is malformed; nothing panics out of them.
package pyprint
