// Package frontend compiles the code of a TorchScript archive (the
// serialized dialect that torch.jit.save writes under code/, parsed by
// package torchscript/syntax) into TorchScript IR graphs (package
// torchscript/ir), as PyTorch's import_source.cpp, ir_emitter.cpp,
// schema_matching.cpp and sugared_value.cpp do when an archive is loaded.
//
// A CompilationUnit reads the archive's code files through a Source
// callback (module "__torch__.foo.bar" → code/__torch__/foo/bar.py) and is
// given the archive's constant table (CONSTANTS.cN). Classes are declared
// when first asked for (Class): their attributes in declaration order from
// the annotations, the __parameters__ and __buffers__ marks, the Final
// constants, and the methods' signatures; a function's body is compiled
// when its Graph is first asked for.
//
// # What the compiler does
//
// Names resolve as in the loaded archive: torch.<op> and ops.<ns>.<op> are
// operators, CONSTANTS.cN a prim::Constant of the table's value,
// __torch__.<path> a class or function of the archive; annotate,
// unchecked_cast, uninitialized, isinstance, getattr, hasattr, range, len,
// int/float/bool/str (aten::Int, aten::Float, aten::Bool, aten::str when
// the value is not already of the type), min/max/abs (prim::min, ...),
// print and the other builtins of ir_emitter's environment are known.
// self.x is prim::GetAttr (a Final constant becomes a prim::Constant),
// self.x = v prim::SetAttr, (m).forward(x, ) prim::CallMethod and a free
// function call prim::CallFunction of a Function constant (calls are not
// inlined, as PyTorch's m.graph shows them).
//
// An operator call is resolved as schema_matching.cpp's matchSchemas: the
// overloads of the name in the order of PyTorch's JIT registry
// (registry_order.txt: PyTorch 2.14's order, then the names only 2.6 or
// 1.13 have; gofx's ops registry itself is sorted by name), first without
// implicit conversions and then with them (a tensor for an int, float or
// Scalar through aten::IntImplicit/FloatImplicit/ScalarImplicit, a Scalar
// or bool for an int or float through aten::Int/aten::Float, a str for a
// Device, a homogeneous tuple for a list, trailing positional arguments
// collected into a list parameter, an int for int[N]). Type variables (t,
// t[], Dict(str, t)) are bound by the arguments, trailing defaults are
// filled in as constants, keyword arguments match by name (input for
// self on aten operators), varargs (aten::format) take the rest. Schema
// types are seen as TorchScript sees them: SymInt, ScalarType, Layout and
// MemoryFormat are int, Dimname is str, Scalar is number.
//
// if becomes prim::If whose outputs are the variables both branches define
// (or one defines and existed before), in name order; while and
// for ... in range(...) (and for over a list, a str or a tensor) become
// prim::Loop with the variables the body assigns that existed before as
// loop-carried values, in order of first assignment; the while condition is
// evaluated before the loop and at the end of the body. a, b = x, y assigns
// element-wise; other unpacking is prim::TupleUnpack or prim::ListUnpack.
// Literals become prim::Constant, prim::ListConstruct,
// prim::TupleConstruct and prim::DictConstruct (an empty list is a
// Tensor[] unless annotated). and/or/ternaries become prim::If, assert a
// prim::If raising prim::RaiseException. After compiling, dead code is
// removed (with unused prim::If outputs and loop-carried values) and the
// constants are pooled at the top of the graph, as runCleanupPasses.
//
// Refused with an error naming file:line:col: a return before the end of a
// function, break and continue (the serializer never writes them: PyTorch's
// exit transforms removed them before printing), classes with bases other
// than Module, NamedTuple and enum types, interfaces, object construction,
// fork, comprehensions and lambdas, recursion.
//
// The versioned operators of old archives (div before version 4, full
// before 5, ...) are not yet applied: calls resolve against the current
// schemas.
package frontend
