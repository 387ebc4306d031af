// Package torchio reads and writes PyTorch's torch.save files: state dicts
// of tensors.
//
// A file written by torch.save(model.state_dict(), f) (PyTorch 1.6 and
// later, the zip format) is a zip archive holding <prefix>/data.pkl, a
// pickle of an OrderedDict whose values are tensors rebuilt by
// torch._utils._rebuild_tensor_v2 over "persistent id" storages, and one
// raw little-endian entry <prefix>/data/<key> per storage. Load and Read
// decode such a file into a StateDict, an ordered list of named tensors;
// Save and Write produce one that torch.load reads back into an OrderedDict
// with the same names, dtypes, shapes, strides and values.
//
// ReadValue and WriteValue do the same for any value built from those
// globals: tuples, lists, dicts, ints, floats, strings, tensors and
// nn.Parameters (as *Parameter), such as the (args, kwargs) example inputs
// of torch.export's .pt2 files. DecodeStorage, WriteStorage and
// StorageNumel convert the raw storage records of the PT2 archive.
//
// Tensors that share a storage in the file (views, tied weights) share one
// storage here too: each storage becomes one tensor.Tensor and every tensor
// over it is an AsStrided view of it, with the saved offset and strides.
// Writing does the reverse, so sharing survives a round trip; like
// torch.save, a view is saved with its whole storage.
//
// Write stores every entry uncompressed with its data 64-byte aligned, as
// torch.save does (PyTorch 1.13's reader needs neither: it also reads the
// deflated and unaligned fixtures made with Python's zipfile), and writes a
// "byteorder" record of "little", which newer PyTorch writes and older
// versions ignore. Read honours a "byteorder" of "big".
//
// Reading is safe on hostile input. The pickle is decoded by the
// restricted unpickler of the torchio/pickle package, which executes
// nothing and resolves only an allowlist of globals, the same ones
// torch.load(weights_only=True) needs for tensors: collections.OrderedDict,
// torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter,
// torch._tensor._rebuild_from_type_v2, torch.Size, torch.Tensor,
// torch.nn.parameter.Parameter and the typed storages torch.FloatStorage,
// DoubleStorage, HalfStorage, BFloat16Storage, LongStorage, IntStorage,
// ShortStorage, CharStorage, ByteStorage and BoolStorage. Anything else
// (os.system, a quantized or sparse tensor) is an error naming it. Sizes are
// checked before memory is allocated (see Limits): a storage must fit in
// its zip entry, every view must lie within its storage, compressed entries
// may not expand beyond what deflate can produce, and the pickle's memo and
// stack are bounded. Every failure is an error, never a panic.
//
// Besides an OrderedDict or dict of tensors, Read accepts dicts nested in
// dicts (flattened with dotted names, as a checkpoint {"model": sd} gives
// "model.fc.weight"), a list or tuple of tensors (named "0", "1", ...) and
// a single tensor (named ""). The OrderedDict's _metadata attribute (module
// versions) is accepted and dropped. Storage locations ("cpu", "cuda:0")
// are ignored: all tensors are CPU tensors. The legacy (pre-1.6, non-zip)
// format is not read, nor are TorchScript archives as state dicts.
//
// OpenArchive opens the zip container record by record: Archive.Unpickle
// decodes one pickle with the tensor globals above plus those a caller's
// Find allows, over the storage records of a given folder. The
// torchscript/archive package reads torch.jit.save archives with it.
package torchio
