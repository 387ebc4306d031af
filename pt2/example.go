package pt2

import (
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/pt2/archive"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// ExampleInputs returns a model's example inputs (the file's
// serialized_example_inputs.pt, or the PT2 archive's) in the form
// ExportedProgram.Call takes: tensors as *tensor.Tensor, tuples and lists
// as []any, dicts as map[string]any, None as nil, and ints, floats, bools
// and strings as int64, float64, bool and string.
func ExampleInputs(m *archive.Model) (args []any, kwargs map[string]any, err error) {
	if m == nil {
		return nil, nil, fmt.Errorf("pt2: ExampleInputs: nil model")
	}
	pa, pkw, err := m.Args()
	if err != nil {
		return nil, nil, err
	}
	args = make([]any, len(pa))
	for i, v := range pa {
		if args[i], err = goValue(v, 0); err != nil {
			return nil, nil, fmt.Errorf("pt2: example input %d: %w", i, err)
		}
	}
	kw, err := goValue(pkw, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("pt2: example keyword inputs: %w", err)
	}
	return args, kw.(map[string]any), nil
}

// LoadExample reads the .pt2 file at path and returns the program of the
// model called name ("": the default, as Load) with its example inputs.
func LoadExample(path, name string) (ep *export.ExportedProgram, args []any, kwargs map[string]any, err error) {
	a, err := archive.Load(path)
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := pick(a, name)
	if err != nil {
		return nil, nil, nil, err
	}
	if ep, err = FromArchive(a, m.Name); err != nil {
		return nil, nil, nil, fmt.Errorf("%w (file %s)", err, path)
	}
	if args, kwargs, err = ExampleInputs(m); err != nil {
		return nil, nil, nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return ep, args, kwargs, nil
}

const maxExampleDepth = 100

func goValue(v pickle.Value, depth int) (any, error) {
	if depth > maxExampleDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxExampleDepth)
	}
	switch x := v.(type) {
	case nil, pickle.None:
		return nil, nil
	case bool, int64, float64, string:
		return x, nil
	case *tensor.Tensor:
		return x, nil
	case torchio.Parameter:
		return x.Data, nil
	case *torchio.Parameter:
		return x.Data, nil
	case pickle.Tuple:
		return goSlice(x, depth)
	case *pickle.List:
		return goSlice(x.Items, depth)
	case *pickle.Dict:
		out := make(map[string]any, x.Len())
		for i, k := range x.Keys() {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("a dict key of type %s (Go maps here have string keys)", pickle.TypeName(k))
			}
			e, err := goValue(x.Values()[i], depth+1)
			if err != nil {
				return nil, fmt.Errorf("[%q]: %w", ks, err)
			}
			out[ks] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported example value of type %s", pickle.TypeName(v))
}

func goSlice(vs []pickle.Value, depth int) ([]any, error) {
	out := make([]any, len(vs))
	for i, e := range vs {
		g, err := goValue(e, depth+1)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = g
	}
	return out, nil
}
