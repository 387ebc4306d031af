// Package tensor provides dense, strided CPU tensors: a dtype, a shape, strides
// and an offset into a shared storage.
//
// A Tensor is a view: View, Reshape (when the strides allow it), Permute,
// Transpose, Expand, Slice, Select, Squeeze, Unsqueeze and AsStrided return new
// tensors over the same storage without copying, exactly as PyTorch's views do,
// so a write through one is seen through the others. Contiguous returns the
// tensor itself when its elements are already in row-major order and a compact
// copy otherwise.
//
// Ten dtypes are supported: Float32, Float64, Int64, Int32, Int16, Int8, Uint8,
// Bool, Float16 and BFloat16. The last two are stored in 16 bits (the Half and
// BHalf element types) and converted to float32 to compute, as PyTorch does on
// CPU. Conversions between dtypes follow PyTorch's casting rules (truncation
// toward zero from floating to integral types, nonzero is true for Bool).
//
// A tensor whose storage is nil is a meta tensor: it has a dtype and a shape
// but no data. Meta functions compute output metadata from meta tensors
// without touching data; see NewMeta.
//
// A 0-d tensor can be marked as a wrapped number (WrappedNumber), as c10
// marks a Python number given for a Tensor parameter: type promotion
// (package ops) then treats it as a number.
//
// Elements are read and written through the generic functions Data (the
// storage slice) and Values (the elements in row-major order), or converted
// through Float64s and Int64s.
//
// # Buffer reuse
//
// New (and Empty, Zeros) takes its buffer from a process-wide pool of
// recycled buffers of the same dtype and element count when one is there
// (zeroed first), so kernels that allocate their outputs with New reuse
// memory without knowing it. Only a caller that knows a storage is dead
// hands it back, with Recycle: the interpreter (package interp) does so
// for the values of a run that nothing live shares a storage with.
// StorageKey identifies a storage (views share it) and its Born number
// tells storages New made during a run (after AllocEpoch) from the
// caller's. The pool is safe for concurrent use and bounded
// (SetPoolLimit, 1 GiB by default, the oldest buffers dropped first);
// buffers under 4 KiB are not pooled, nor are storages FromSlice wraps.
package tensor
