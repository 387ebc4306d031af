// Package syntax reads and writes the Python subset that PyTorch's
// TorchScript serializer (torch/csrc/jit/serialization/python_print.cpp)
// prints into the code/ files of a torch.jit.save archive and into a
// method's `.code`: a lexer with Python's indentation rules, a parser
// (the language of torch/csrc/jit/frontend/parser.cpp) to an AST with
// positions (line and column), and a printer that writes an AST back in the
// serializer's form.
//
// The AST keeps what the printer needs to reproduce a file byte for byte:
// literals keep their source spelling (Raw), parentheses are ParenExpr
// nodes, trailing commas are flags (`(lin).forward(x, )`). Type annotations
// are expressions (`Optional[Tensor]` is a Subscript). Comments are not kept.
//
// The package imports nothing of gofx; torchscript/frontend compiles its
// AST to the IR.
package syntax
