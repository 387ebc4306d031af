package pt2

import (
	"fmt"
	"sort"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio/pickle"
)

// exampleInputs returns the example inputs as the (args, kwargs) tuple
// torch.export.save pickles: tuples and lists as the program's in spec
// says, dicts with their keys in its order.
func exampleInputs(ep *export.ExportedProgram, args []any, kwargs map[string]any) (pickle.Value, error) {
	var argSpec, kwSpec *export.TreeSpec
	if in := ep.InSpec(); in != nil && len(in.Children) == 2 {
		argSpec, kwSpec = in.Children[0], in.Children[1]
	}
	a := make(pickle.Tuple, len(args))
	for i, v := range args {
		var sp *export.TreeSpec
		if argSpec != nil && i < len(argSpec.Children) {
			sp = argSpec.Children[i]
		}
		pv, err := pickleValue(v, sp, 0)
		if err != nil {
			return nil, fmt.Errorf("pt2: save: example input %d: %w", i, err)
		}
		a[i] = pv
	}
	kw, err := pickleDict(kwargs, kwSpec, 0)
	if err != nil {
		return nil, fmt.Errorf("pt2: save: example keyword inputs: %w", err)
	}
	return pickle.Tuple{a, kw}, nil
}

const maxPickleDepth = 64

// pickleValue converts a Go input value (as ExportedProgram.Call takes
// it) to the value torchio.WriteValue pickles.
func pickleValue(v any, sp *export.TreeSpec, depth int) (pickle.Value, error) {
	if depth > maxPickleDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxPickleDepth)
	}
	switch x := v.(type) {
	case nil:
		return pickle.None{}, nil
	case *tensor.Tensor:
		return x, nil
	case nn.Value:
		return pickleValue(x.Raw(), sp, depth)
	case bool, int64, float64, string:
		return x, nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case float32:
		return float64(x), nil
	case []any:
		items := make([]pickle.Value, len(x))
		for i, e := range x {
			var c *export.TreeSpec
			if sp != nil && i < len(sp.Children) {
				c = sp.Children[i]
			}
			pv, err := pickleValue(e, c, depth+1)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			items[i] = pv
		}
		if sp != nil && sp.Type == export.ListType {
			return &pickle.List{Items: items}, nil
		}
		return pickle.Tuple(items), nil
	case map[string]any:
		return pickleDict(x, sp, depth)
	}
	return nil, fmt.Errorf("a %T has no torch.save form", v)
}

// pickleDict converts a dict, its keys in the spec's order (sorted when
// the spec does not say).
func pickleDict(m map[string]any, sp *export.TreeSpec, depth int) (pickle.Value, error) {
	d := pickle.NewDict()
	var keys []string
	if sp != nil {
		keys = sp.Keys()
	}
	if len(keys) != len(m) {
		keys = keys[:0]
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	for i, k := range keys {
		v, ok := m[k]
		if !ok {
			return nil, fmt.Errorf("no value for key %q", k)
		}
		var c *export.TreeSpec
		if sp != nil && i < len(sp.Children) && len(sp.Keys()) == len(m) {
			c = sp.Children[i]
		}
		pv, err := pickleValue(v, c, depth+1)
		if err != nil {
			return nil, fmt.Errorf("[%q]: %w", k, err)
		}
		if err := d.Set(k, pv); err != nil {
			return nil, err
		}
	}
	return d, nil
}
