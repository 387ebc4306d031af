// Package torchscript loads TorchScript archives (torch.jit.save's zip
// files, scripted or traced, PyTorch 1.x and 2.x) and runs them without
// libtorch.
//
// Every archive format PyTorch's reader accepts loads: versions 1 to 10,
// and the model.json format of PyTorch 1.0 to 1.2, whose modules package
// archive turns into classes of the later form (their methods run with the
// upgraders of version 1, integer div truncating as it did then).
//
// Load reads the archive (package archive: the zip, data.pkl and
// constants.pkl through the restricted unpickler, tensors, code), builds
// its objects as instances of the classes its code defines (package
// frontend compiles that code to IR graphs, a function when it first runs;
// an old archive's calls of operators whose meaning changed compile to
// PyTorch's upgraders) and returns the root Module, whose Forward and Method(name).Run run on
// package runtime's interpreter:
//
//	m, err := torchscript.Load("model.pt")
//	out, err := m.Forward(x) // x a *tensor.Tensor
//
// Values in and out are runtime values: *tensor.Tensor, int64, float64,
// bool, string, nil, *runtime.List, *runtime.Dict, *runtime.Tuple,
// runtime.Enum (a pickled enum attribute becomes the member of its value,
// as PyTorch's unpickler finds it), ... (Value converts Go ints, floats and
// slices). With statements run the context object's __enter__ and
// __exit__ (torch.no_grad() included: gofx has no autograd, so it changes
// nothing). Forward runs a module's
// forward pre-hooks and forward hooks around forward, as PyTorch's
// Module::operator(). Parameters, buffers, submodules and attributes are
// reachable (NamedParameters, NamedBuffers, Submodule, Attr, SetAttr), and
// Train sets the training flag of the module tree.
//
// Code prints a method's code as PyTorch's m.code does (package pyprint
// re-prints the compiled graph, so temporaries and inlining are PyTorch's,
// not the archive file's), Graph its graph as print(m.graph), byte for
// byte: PyTorch's value names and numbers (the frontend replays
// ir_emitter's numbering), its constant order, and "# file:line:col"
// comments naming the original Python source the archive's debug_pkl
// records (nodes ir_emitter creates without a range print none):
//
//	code, err := m.Code() // def forward(self,\n    x: Tensor) -> Tensor: ...
//
// ReadIO, CheckCase and CheckIO compare runs with PyTorch's recorded
// io.json files (../shared/torchscript, ../shared/models): outputs
// flattened, within 1e-4 (1e-3 for code of over 100 operations).
package torchscript
