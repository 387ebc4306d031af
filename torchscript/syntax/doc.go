// Package syntax reads and writes the Python subset that PyTorch's
// TorchScript serializer (torch/csrc/jit/serialization/python_print.cpp)
// prints into the code/ files of a torch.jit.save archive and into a
// method's `.code`: a lexer with Python's indentation rules, a parser to an
// AST whose nodes carry positions (line and column), and a printer that
// writes an AST back in the serializer's form.
//
// # Language
//
// The accepted language is TorchScript's (torch/csrc/jit/frontend/lexer.h,
// parser.cpp): classes (`class X(Module):`, Interface, ModuleInterface,
// Enum, NamedTuple bodies), attribute annotations (`training : bool`,
// `k : Final[int] = 3`, `__annotations__["0"] = T`), `def` with typed
// parameters, defaults and `*`, return annotations; the statements
// assignment (tuple unpacking, chained), annotated and augmented
// assignment, if/elif/else, while, for, with, return, raise, assert, del,
// pass, break, continue, global, expression statements, and `import` lines
// (older archives begin with `op_version_set = N` and imports); expressions
// with TorchScript's operator precedence (which differs from Python's:
// `and` and `or` bind equally, left to right; `~` binds like `not`;
// comparisons do not chain), conditional expressions, calls with keyword
// arguments, attributes, subscripts and slices, tuples, lists, dicts, list
// and dict comprehensions, numbers (`1.`, `1e-05`, `0x10`, imaginary `2.j`),
// and strings with one or three quotes of either kind, adjacent strings
// concatenated.
//
// Beyond PyTorch's parser it accepts a few spellings Python has (`\r`,
// `\x`, `\u` and `\U` escapes, one- and two-digit octal escapes, `//=` and
// `@=`, several class bases), so that a program printed by PyTorch's own
// Quote rules (\r included) always reads back. Names PyTorch's environment
// gives meaning to (torch, ops, CONSTANTS, annotate, uninitialized,
// unchecked_cast, isinstance, getattr, fork, inf, nan) are plain Names here;
// torchscript/frontend resolves them.
//
// # Trees and printing
//
// The AST keeps what the printer needs to give a file PyTorch wrote back
// byte for byte: literals keep their source spelling (Raw, Raws),
// parentheses are ParenExpr nodes, trailing commas are flags (`(lin).forward(x, )`,
// `q, k, v, = _8`), FuncDef.ParamsOnLines and Assign.Spaced record the two
// layouts of python_print's signatures and annotations, and
// BinaryExpr.Compact its complex constants (`1.5-2.j`). Type annotations
// are expressions (`Optional[Tensor]` is a Subscript). Comments (and `#
// type:` comments) are skipped and not kept. A tree built by code prints
// with parentheses where precedence needs them, strings as PyTorch quotes
// them (Quote) and floats as it prints them (FloatString).
//
// Every error is an *Error naming file:line:col and what was expected;
// nesting deeper than 500 brackets, blocks or operators is an error, so
// hostile input cannot exhaust the stack. FuzzLex and FuzzParse check that
// nothing panics and that printing is stable.
//
// The package imports nothing of gofx; torchscript/frontend compiles its
// trees to the IR.
package syntax
