// Package archive reads TorchScript archives, the files torch.jit.save
// writes, without executing anything: the records decoded into plain Go
// values, the code kept as text for a frontend to compile.
//
// # The file
//
// An archive (of PyTorch 1.3 and later; for older ones see below) is a zip
// with one root folder (its name varies: the file's base name, or
// "archive") holding
//
//	version (or .data/version)   the file format version, 1 to 10
//	byteorder                     "little" or "big" (PyTorch 2.x)
//	data.pkl, data/KEY            the module tree; its tensors' storages
//	constants.pkl, constants/KEY  the tuple CONSTANTS.cN indexes
//	code/**/*.py                  the classes and functions, as PyTorch prints them
//	code/**/*.py.debug_pkl        source ranges of the original Python code
//	extra/NAME                    torch.jit.save's _extra_files
//	.data/serialization_id        an id (PyTorch 1.13 and later)
//	traced_inputs.pkl, traced_inputs/KEY   inputs of a trace (not decoded: PyTorch 2.6 writes their storages empty)
//
// Open and Read return an Archive with all of them read: Version,
// SerializationID, Code (each CodeFile by its qualifier, the module path
// "__torch__.torch.nn.modules.linear.___torch_mangle_13" that class names
// start with; Source looks one up), Extra, and the two pickles decoded
// into Data and Constants.
//
// # Values
//
// data.pkl and constants.pkl go through the restricted unpickler of
// torchio/pickle (via torchio.Archive, which rebuilds the tensors as
// torchio does for torch.save files). The globals TorchScript's pickler
// writes become plain values (see Value): a class of the archive's code
// ("__torch__.Foo") makes an *Object holding the class's qualified name
// and the BUILD state (the attribute dict, in slot order, as Attrs; or the
// __getstate__ value of classes that define __setstate__, as State); the
// typed containers of torch.jit._pickle (build_intlist, build_doublelist,
// build_boollist, build_tensorlist, restore_type_tag) make a *List or
// *Dict carrying its type tag ("List[int]", "Dict[str, Tensor]");
// torch._utils._rebuild_tensor_v2 over the persistent storages of data/
// (constants/ for constants.pkl) makes *tensor.Tensor, views sharing their
// storage; builtins.complex and torch.device make complex128 and Device.
// Parameters are tensors like any other attribute: which attributes are
// parameters or buffers the class's code says (__parameters__,
// __buffers__). Anything else is refused with an error naming it:
// quantized (_rebuild_qtensor) and sparse tensors, tensor tables
// (build_tensor_from_id and the __main__ globals of the oldest format),
// storages of unsupported dtypes and every other global.
//
// Archives of format versions 1 and 2 (PyTorch 1.3 and 1.4) hold the same
// records; their lists and dicts carry no type tags (Type is ""), which
// the frontend takes from the class annotations, as PyTorch does.
//
// # The format of PyTorch 1.0 to 1.2
//
// Older archives (Legacy, read as PyTorch's import_legacy.cpp reads them)
// describe the module tree in model.json, the JSON form of
// caffe2/proto/torch.proto's ModelDef (ProtoVersion 1 to 5): each module's
// name, parameters and buffers as ids into a tensor table whose storages
// are raw records (tensors/N, each tensor a view with its dims, strides,
// offset and caffe2 data type), attributes with their type and an index
// into the tuple pickled in attributes.pkl (a list for protoVersion 2; its
// tensors are references into the tensor table:
// torch.jit._pickle.build_tensor_from_id, or PyTorch 1.1's
// __main__.TensorID), submodules, and a code record holding the module's
// methods as top-level defs; classes the code uses are in libs/. Read
// gives such an archive the form of later ones: a class per module, named
// as PyTorch names it ("__torch__." and the module path, digit-only names
// prefixed with "_", so "__torch__.model.sub" for the submodule sub of the
// archive model), declared in a synthesized code file of its qualifier
// with the module's parameters, buffers, attributes and submodules and its
// defs indented as methods; Data an Object per module; Constants the
// tensor table (the CONSTANTS.cN of legacy code index it). Modules with
// __getstate__ (getStateAttributeId), quantized tensors and the
// torchscriptDebugArena source ranges are not read.
//
// # Source ranges
//
// CodeFile.DebugInfo decodes a file's debug_pkl: for byte offsets of the
// serialized code, the range of the original Python source that produced
// it, in either of PyTorch's formats (the string table of PyTorch 1.11 and
// later, the plain tuples before). SourceRange.FileLineCol and String
// give the "file:line:col" that PyTorch prints after each node of a loaded
// module's .graph; DebugInfo.Lookup finds the range for an offset as
// PyTorch's findSourceRangeThatGenerated does.
//
// # Versioned operators
//
// Upgraders returns PyTorch's table of operators whose meaning changed
// with the format version (integer div before 4, full before 5, linspace
// and logspace before 8 and 9, gelu without approximate before 10), each
// with its old schema and the TorchScript source of the function that
// keeps an old archive's meaning (UpgraderFor finds the entry for an
// overload and a version). The frontend compiles and calls those for an
// archive whose Version is below the entry's Before.
//
// # Hostile input
//
// An archive is data from elsewhere. Sizes are checked before anything is
// allocated (see Limits: pickles, storages, tensor elements, code and
// debug text), truncated, missing or oversized records and malformed
// pickles are errors naming the record, values nest at most 1000 deep,
// and no input makes a function of this package panic (FuzzRead).
package archive
