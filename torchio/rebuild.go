package torchio

import (
	"fmt"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio/pickle"
)

// storageType is the stand-in for torch.FloatStorage and its kin.
type storageType struct {
	name  string
	dtype tensor.DType
}

// tensorClass is the stand-in for torch.Tensor and torch.nn.Parameter,
// which only appear as arguments of _rebuild_from_type_v2.
type tensorClass struct{ name string }

// storageTypes maps torch's typed storage classes to dtypes.
var storageTypes = map[string]tensor.DType{
	"FloatStorage":    tensor.Float32,
	"DoubleStorage":   tensor.Float64,
	"HalfStorage":     tensor.Float16,
	"BFloat16Storage": tensor.BFloat16,
	"LongStorage":     tensor.Int64,
	"IntStorage":      tensor.Int32,
	"ShortStorage":    tensor.Int16,
	"CharStorage":     tensor.Int8,
	"ByteStorage":     tensor.Uint8,
	"BoolStorage":     tensor.Bool,
}

// storageNames maps dtypes back to torch's typed storage classes.
var storageNames = func() map[tensor.DType]string {
	m := map[tensor.DType]string{}
	for n, dt := range storageTypes {
		m[dt] = n
	}
	return m
}()

// findGlobal is the allowlist of globals: it resolves the few that tensor state
// dicts need and refuses everything else.
func findGlobal(module, name string) (pickle.Value, error) {
	switch module + "." + name {
	case "collections.OrderedDict":
		return pickle.OrderedDict, nil
	case "torch._utils._rebuild_tensor_v2":
		return pickle.Func(rebuildTensorV2), nil
	case "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state":
		return pickle.Func(rebuildParameter), nil
	case "torch._tensor._rebuild_from_type_v2":
		return pickle.Func(rebuildFromType), nil
	case "torch.Size":
		return pickle.Func(torchSize), nil
	case "torch.Tensor", "torch.nn.parameter.Parameter":
		return tensorClass{module + "." + name}, nil
	}
	if module == "torch" {
		if dt, ok := storageTypes[name]; ok {
			return storageType{name, dt}, nil
		}
	}
	return nil, fmt.Errorf("global %s.%s is %w", module, name, pickle.ErrNotAllowed)
}

// toInt converts a pickled non-negative int.
func toInt(v pickle.Value, what string) (int, error) {
	i, ok := v.(int64)
	if !ok {
		return 0, fmt.Errorf("%s is %s, not an int", what, pickle.TypeName(v))
	}
	if i < 0 || i > tensor.MaxElements*8 {
		return 0, fmt.Errorf("%s %d is out of range", what, i)
	}
	return int(i), nil
}

// maxDims bounds the rank of a tensor: more would make rebuilding a tensor
// from a memoized size tuple cost its length every time.
const maxDims = 64

func toInts(v pickle.Value, what string) ([]int, error) {
	t, ok := v.(pickle.Tuple)
	if !ok {
		return nil, fmt.Errorf("%s is %s, not a tuple", what, pickle.TypeName(v))
	}
	if len(t) > maxDims {
		return nil, fmt.Errorf("%s has %d dimensions, more than %d", what, len(t), maxDims)
	}
	out := make([]int, len(t))
	for i, x := range t {
		n, err := toInt(x, what)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// rebuildTensorV2 is torch._utils._rebuild_tensor_v2(storage,
// storage_offset, size, stride, requires_grad, backward_hooks[, metadata]).
func rebuildTensorV2(args pickle.Tuple) (pickle.Value, error) {
	if len(args) != 6 && len(args) != 7 {
		return nil, fmt.Errorf("_rebuild_tensor_v2: expected 6 or 7 arguments, got %d", len(args))
	}
	st, ok := args[0].(*storage)
	if !ok {
		return nil, fmt.Errorf("_rebuild_tensor_v2: storage is %s, not a persistent storage", pickle.TypeName(args[0]))
	}
	offset, err := toInt(args[1], "storage offset")
	if err != nil {
		return nil, fmt.Errorf("_rebuild_tensor_v2: %w", err)
	}
	size, err := toInts(args[2], "size")
	if err != nil {
		return nil, fmt.Errorf("_rebuild_tensor_v2: %w", err)
	}
	stride, err := toInts(args[3], "stride")
	if err != nil {
		return nil, fmt.Errorf("_rebuild_tensor_v2: %w", err)
	}
	if len(size) != len(stride) {
		return nil, fmt.Errorf("_rebuild_tensor_v2: size %v and stride %v differ in length", size, stride)
	}
	if _, ok := args[4].(bool); !ok {
		return nil, fmt.Errorf("_rebuild_tensor_v2: requires_grad is %s, not a bool", pickle.TypeName(args[4]))
	}
	n, err := tensor.Numel(size)
	if err != nil {
		return nil, fmt.Errorf("_rebuild_tensor_v2: %w", err)
	}
	if n == 0 && offset > st.numel {
		offset = st.numel // nothing is read; keep the offset inside the storage
	}
	t, err := st.t.AsStrided(size, stride, offset)
	if err != nil {
		return nil, fmt.Errorf("_rebuild_tensor_v2: storage %q of %d elements: %w", st.key, st.numel, err)
	}
	return t, nil
}

// rebuildParameter is torch._utils._rebuild_parameter(data, requires_grad,
// backward_hooks) and _rebuild_parameter_with_state(..., state): a
// *Parameter, which state dicts unwrap to its data.
func rebuildParameter(args pickle.Tuple) (pickle.Value, error) {
	if len(args) != 3 && len(args) != 4 {
		return nil, fmt.Errorf("_rebuild_parameter: expected 3 or 4 arguments, got %d", len(args))
	}
	t, ok := args[0].(*tensor.Tensor)
	if !ok {
		return nil, fmt.Errorf("_rebuild_parameter: data is %s, not a tensor", pickle.TypeName(args[0]))
	}
	rg, ok := args[1].(bool)
	if !ok {
		return nil, fmt.Errorf("_rebuild_parameter: requires_grad is %s, not a bool", pickle.TypeName(args[1]))
	}
	return &Parameter{Data: t, RequiresGrad: rg}, nil
}

// rebuildFromType is torch._tensor._rebuild_from_type_v2(func, new_type,
// args, state), which torch uses for tensors with Python attributes or of a
// subclass: the attributes are dropped, subclasses other than Parameter
// refused.
func rebuildFromType(args pickle.Tuple) (pickle.Value, error) {
	if len(args) != 4 {
		return nil, fmt.Errorf("_rebuild_from_type_v2: expected 4 arguments, got %d", len(args))
	}
	f, ok := args[0].(pickle.Callable)
	if !ok {
		return nil, fmt.Errorf("_rebuild_from_type_v2: %s is not callable", pickle.TypeName(args[0]))
	}
	if _, ok := args[1].(tensorClass); !ok {
		return nil, fmt.Errorf("_rebuild_from_type_v2: type %s is not a tensor class", pickle.TypeName(args[1]))
	}
	a, ok := args[2].(pickle.Tuple)
	if !ok {
		return nil, fmt.Errorf("_rebuild_from_type_v2: arguments are %s, not a tuple", pickle.TypeName(args[2]))
	}
	v, err := f.Call(a)
	if err != nil {
		return nil, err
	}
	switch v.(type) {
	case *tensor.Tensor, *Parameter:
	default:
		return nil, fmt.Errorf("_rebuild_from_type_v2: result is %s, not a tensor", pickle.TypeName(v))
	}
	return v, nil
}

// torchSize is torch.Size(tuple).
func torchSize(args pickle.Tuple) (pickle.Value, error) {
	if len(args) == 0 {
		return pickle.Tuple{}, nil
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("torch.Size: expected 1 argument, got %d", len(args))
	}
	var items []pickle.Value
	switch a := args[0].(type) {
	case pickle.Tuple:
		items = a
	case *pickle.List:
		items = a.Items
	default:
		return nil, fmt.Errorf("torch.Size: argument is %s, not a tuple", pickle.TypeName(a))
	}
	if len(items) > maxDims {
		return nil, fmt.Errorf("torch.Size: %d dimensions, more than %d", len(items), maxDims)
	}
	for _, it := range items {
		if _, ok := it.(int64); !ok {
			return nil, fmt.Errorf("torch.Size: element is %s, not an int", pickle.TypeName(it))
		}
	}
	return pickle.Tuple(items), nil
}
