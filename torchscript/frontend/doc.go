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
// (ir.RegistryRank: PyTorch 2.14's order, then the names only 2.6 or
// 1.13 have; gofx's ops registry itself is sorted by name), first without
// implicit conversions and then with them (a tensor for an int, float or
// Scalar through aten::IntImplicit/FloatImplicit/ScalarImplicit, a Scalar
// or bool for an int or float through aten::Int/aten::Float, a str for a
// Device, a homogeneous tuple for a list, trailing positional arguments
// collected into a list parameter, an int for int[N]). Type variables (t,
// t[], Dict(str, t)) are bound by the arguments, trailing defaults are
// filled in as constants, TorchScript's builtin functions are tried after
// the operators (builtin_functions.cpp's number-first arithmetic and
// comparisons, torch.add(1, x) → aten::add(x, 1), inlined), keyword
// arguments match by name (input for
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
// Conditions `x is None` / `x is not None` refine an Optional variable in the branch where it is not None
// (prim::unchecked_cast; an explicit unchecked_cast of the refined value
// is not repeated). A return before the end of a function is lowered as
// PyTorch's exit transforms do (the rest of the code moves into the
// branch that did not return). Aliases are renamed as NormalizeOps does
// (divide → div, true_divide → div, ...), and what
// ConstantPropagationImmutableTypes folds that the loaded graph's shape
// depends on is folded: a prim::If on a constant, prim::isinstance decided
// by the static type, scalar operators on constants.
//
// Old archives: with Options.Version and Options.Upgraders (PyTorch's
// table of versioned operators, which torchscript/archive provides), a
// call of an operator whose meaning changed after the archive's version
// (div before 4, full before 5, linspace before 8, logspace before 9, gelu
// before 10) is matched against the old schema and compiled as the
// upgrader function's body, inlined, as PyTorch's loader does.
//
// Besides classes and modules, the code may define NamedTuples (Type gives
// a *types.Tuple with Names; __torch__.P(a, b) is prim::TupleConstruct,
// p.x prim::TupleIndex), enums (*types.Enum; members are constants,
// e.name and e.value prim::EnumName and prim::EnumValue; EnumMember finds
// the member of a pickled enum's value), and interfaces
// (Interface: method signatures; a call on an interface-typed value is a
// prim::CallMethod that runs the object's own method). An object of a
// TorchScript class is made as the serializer writes it:
// __torch__.C.__new__(__torch__.C) is prim::CreateObject, then
// (obj).__init__(...) a prim::CallMethod.
//
// Refused with an error naming file:line:col: return, break and continue
// inside loops (the serializer never writes them: PyTorch's exit transforms
// removed them before printing), classes with other bases, nested
// functions other than fork's closures, comprehensions and lambdas (they
// never reach an archive: torch.jit.script lowers list and dict
// comprehensions to loops and refuses lambdas, "Lambda aren't supported";
// checked with PyTorch 2.6 by convert/testdata/tsfork/check_unserializable.py),
// recursion. A with statement is prim::Enter and prim::Exit around its
// body, as emitWith.
//
// torch.jit.fork is serialized as a closure and a call of fork (the only
// nested def an archive holds: torch.jit.script refuses "function
// definitions" in a body, check_unserializable.py again): `def
// __forked_function(): return f(x, 2., )` then `fut = fork(__forked_function)`.
// The nested def is compiled into a block of the enclosing graph, then
// lifted into a graph of its own whose inputs are the values it reads
// from outside (first-use order; int, float and bool constants are read
// from outside, as PyTorch materializes them at the graph's top), as
// liftClosures and inlineForkedClosures leave it; fork(closure) is a
// prim::fork node with that graph as its Subgraph attribute, the captured
// values as inputs and a Future[T] output (printed prim::fork_0 with its
// "with prim::fork_0 = graph(...)"); torch.wait(fut) is aten::wait.
//
// Loop-carried values are in order of first assignment in the body (PyTorch's
// order comes from a hash map; the set is the same).
//
// Values are named as ir_emitter names them, since m.code
// (torchscript/pyprint) prints those names: a variable's first unnamed
// value takes its name (not _0, _12: meaningfulName), a prim::GetAttr
// value its field's (_0 for "0": createGetAttr); a, b = x, y names neither
// x nor y (PyTorch names the outputs of a tuple unpack that
// LowerSimpleTuples then removes), nor is an inlined upgrader's result
// named (its pass runs after compiling), while the upgrader's own values
// keep their names.
//
// Names and numbers are PyTorch's (naming.go): the emitter replays the
// values ir_emitter creates and erases (each variable read's prim::Load,
// named after the variable, which renames the variable's value x.1, x.3,
// ... as Value::setDebugName; the zero constant of each bool() cast; the
// tuple of a, b = x, y; the start and step of range(n)) as phantom values
// (ir.Graph.Phantom), numbers the outputs of if statements and loops when
// ConvertToSSA adds them (after the whole function), and makes each int
// and float literal once per function at the top of the graph
// (materializeConstant; a minus folds into the literal as the parser
// does), so that constant pooling orders the constants as PyTorch's.
// Nodes carry the source range ir_emitter gives them (literal constants
// their literal's, list, tuple and dict literals none). A graph whose
// archive inlines upgraders still differs (PyTorch compiles each upgrader
// into a graph of its own and inlines a copy).
package frontend
