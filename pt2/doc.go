// Package pt2 reads torch.export's .pt2 files into gofx's
// export.ExportedProgram, as torch.export.load does, and checks programs
// against the inputs and outputs PyTorch recorded.
//
// Load and Read take either container (PyTorch ≤ 2.7's zip, ≥ 2.8's PT2
// archive, read by package pt2/archive) and return the file's program: the
// one model of the file, or the model named "model" of an archive holding
// several (LoadModel, ReadModel and Models pick among them). FromSchema
// builds a program from a decoded schema (package pt2/schema) and its
// state.
//
// The program is what torch.export.load gives:
//
//   - the graph, with the file's node names (a name Python reserves, such
//     as input, becomes input_1, as torch.fx's code renames it) and
//     targets: ATen and custom operators by their full names
//     (torch.ops.aten.conv2d.default, torch.ops.mylib.op.default: an
//     operator gofx does not know is an error naming it, and ops.Define
//     makes a custom one known), Python's operators on symbolic ints
//     (_operator.mul, ...) and higher-order operators (cond, while_loop,
//     map_impl), whose graphs are the program's subgraphs (held as
//     attributes, printed as torch prints them);
//   - arguments placed by the operator's schema (positional while none is
//     left out, then by keyword), symbolic ints as references to the
//     nodes computing them, multi-output operators with their getitem
//     nodes;
//   - every node's val (dtype and shape, symbolic dims as sym expressions,
//     read from sympy's expr_str with sym.ParseSympy), stack_trace and
//     nn_module_stack, the other metadata as strings (source_fn_stack,
//     torch_fn and custom under node.SourceFnStack, TorchFn, Custom: the
//     nodes that replace a node in RunDecompositions or a rewrite inherit
//     them, as in PyTorch);
//   - the signature with every input and output kind, the parameters,
//     buffers (persistent or not) and constants (tensors sharing a storage
//     in the file share it), the range constraints (symbols and derived
//     dims such as 2*s1), the module call graph and the pytree in/out specs
//     (export.TreeSpec), so that the program is called with nested inputs
//     (ExportedProgram.Call, Run) and returns nested outputs.
//
// Running a program checks its inputs against the signature and the range
// constraints and writes buffer and input mutations back (package export).
// A program calling a higher-order operator (cond, while_loop, map_impl)
// runs its branch and body graphs, PyTorch 2.6's while_loop programs
// included, which 2.6 itself cannot run from its own file. Such a
// program also decomposes (RunDecompositions decomposes every branch and
// body graph: the op counts, subgraphs included, are PyTorch 2.6's
// run_decompositions'), transforms (passes reach into the subgraphs; a
// cond with a constant predicate is inlined, unused results and operands
// pruned) and saves back in both layouts with its subgraphs: gofx reads
// back the same program, and PyTorch 2.6 and 2.14 load it with the same
// op counts and run it (2.6 cannot run a while_loop program, its own files
// included).
//
// ReadIO reads the io.json files of ../shared/pt2 (the flat user inputs
// and outputs of each case, the buffers after the call, the inputs it
// mutated); CheckCase runs one case on a fresh copy of the program's state
// and compares with PyTorch's values within Tolerance (1e-4 absolute and
// relative; 1e-3 for programs of over 100 nodes).
//
// # Saving
//
// Save and Write write any program, loaded or exported from Go model code
// (export.Export, after RunDecompositions or Transform too), as a .pt2
// file (torch.export.save): Format Legacy is PyTorch ≤ 2.7's zip (schema
// 8.2), which PyTorch 2.6's torch.export.load reads; Format Archive is the
// PT2 archive (schema 8.20), which PyTorch 2.14 reads. Format is
// archive.Layout under another name (Legacy is archive.LayoutZip, Archive
// archive.LayoutPT2), so a loaded archive's Layout saves back as it came.
// SerializeProgram
// gives the program as package schema's types (as torch's
// ExportedProgramSerializer makes it), MarshalProgram its JSON, ToArchive
// the whole archive (package pt2/archive writes it). The file holds:
//
//   - the graph: operators under their full names with their arguments
//     named after the schema the node binds to (the newest that fits), in
//     schema order, those left to their defaults left out; Python's
//     operators on symbolic values (_operator.mul, torch.sym_max, ...)
//     with inspect's parameter names; higher-order operators with their
//     subgraphs; several outputs named after their getitem nodes (or
//     NAME_unused_i), as torch writes them;
//   - every value's metadata: dtype, sizes and contiguous strides as
//     symbolic ints (sym.Expr.Srepr, sympy's srepr form, with hints);
//     symbolic ints and bools; stack_trace, nn_module_stack,
//     source_fn_stack, torch_fn and custom;
//   - the signature (placeholders under the model's argument names), range
//     constraints, the module call graph with the pytree specs and
//     forward_arg_names (module() in PyTorch needs them), and the verifier
//     dialect (ATEN, or TRAINING when an operator mutates);
//   - parameters (as nn.Parameters) and persistent buffers as weights,
//     tensor constants and non-persistent buffers as constants; tensors
//     sharing a storage stay shared.
//
// The output is deterministic. gofx → gofx round trips are exact (same
// program text, signature, specs, state bit for bit), except that schema
// 8.2 names no node, so an operator without outputs (_assert_scalar) is
// renamed after its target when a Legacy file is loaded, by gofx and by
// PyTorch alike. A program exported from Go whose specialized int or float
// inputs have no placeholder cannot be saved yet (an error says so).
package pt2
