package torchscript

import (
	"fmt"
	"math"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/runtime"
	"github.com/gofx/gofx/torchscript/types"
)

// ReadIO reads an io.json file of ../shared/torchscript or ../shared/models
// (the ARG encoding plus {"str": s}), through pt2.ReadIO.
func ReadIO(path string) (*pt2.IO, error) { return pt2.ReadIO(path) }

// CaseResult is the outcome of one io.json case.
type CaseResult struct {
	// Note names the case ("example", or its note or seed).
	Note string
	// MaxAbs is the largest absolute difference over the tensor outputs.
	MaxAbs float64
	// Err is why the case failed (the run's error or the first output that
	// differs); nil when it passed.
	Err error
}

// Passed reports whether the case passed.
func (r CaseResult) Passed() bool { return r.Err == nil }

// Tolerance is the tolerance of the io.json checks for m: 1e-4, or 1e-3
// when the code it ran holds over 100 operations.
func Tolerance(m *Module) float64 {
	if NumOps(m) > 100 {
		return 1e-3
	}
	return 1e-4
}

// NumOps counts the nodes (blocks included) of every function m's
// interpreter has compiled so far.
func NumOps(m *Module) int {
	return m.in.NumNodes()
}

// CheckCase runs forward on a fresh copy of m (Clone: PyTorch ran each
// case on the freshly loaded module) with the case's inputs and compares the flattened outputs with
// PyTorch's: tensors element by element (|got - want| <= tol + tol*|want|,
// same shape and dtype), numbers, strings and None exactly (floats within
// tol).
func CheckCase(m *Module, c *pt2.IOCase, tol float64) CaseResult {
	return checkWith(func(args []any) (any, error) { return m.Clone().Forward(args...) }, c, tol)
}

// checkWith runs a case through run and compares its outputs.
func checkWith(run func(args []any) (any, error), c *pt2.IOCase, tol float64) CaseResult {
	res := CaseResult{Note: c.Note}
	if res.Note == "" {
		res.Note = fmt.Sprintf("seed %d", c.Seed)
	}
	args := make([]any, len(c.Inputs))
	for i, v := range c.Inputs {
		a, err := fromNN(v)
		if err != nil {
			res.Err = fmt.Errorf("input %d: %w", i, err)
			return res
		}
		args[i] = a
	}
	out, err := run(args)
	if err != nil {
		res.Err = err
		return res
	}
	got := Flatten(out)
	if len(got) != len(c.Outputs) {
		res.Err = fmt.Errorf("forward returned %d values (flattened), PyTorch %d", len(got), len(c.Outputs))
		return res
	}
	for i, w := range c.Outputs {
		want, err := fromNN(w)
		if err != nil {
			res.Err = fmt.Errorf("output %d: %w", i, err)
			return res
		}
		d, err := compare(got[i], want, tol)
		if d > res.MaxAbs {
			res.MaxAbs = d
		}
		if err != nil && res.Err == nil {
			res.Err = fmt.Errorf("output %d: %w", i, err)
		}
	}
	return res
}

// CheckIO runs every case of io (the example first) on m.
func CheckIO(m *Module, io *pt2.IO) []CaseResult {
	out := make([]CaseResult, len(io.Cases))
	for i := range io.Cases {
		// The tolerance depends on the code compiled, known after the
		// first run.
		out[i] = CheckCase(m, &io.Cases[i], Tolerance(m))
	}
	return out
}

// fromNN converts an io.json value (nn.Value as pt2 decodes it) to a
// runtime value; tensors are cloned.
func fromNN(v nn.Value) (any, error) {
	if t := v.Tensor(); t != nil {
		return t.Clone(), nil
	}
	switch x := v.Any().(type) {
	case []nn.Value:
		l := runtime.NewList(nil)
		for _, e := range x {
			c, err := fromNN(e)
			if err != nil {
				return nil, err
			}
			l.Append(c)
		}
		return l, nil
	case []*tensor.Tensor:
		items := make([]any, len(x))
		for i, t := range x {
			if t != nil {
				items[i] = t.Clone()
			}
		}
		return runtime.NewList(types.Tensor, items...), nil
	default:
		return Value(x)
	}
}

// compare compares a value gofx computed with PyTorch's; d is the largest
// absolute difference of a tensor.
func compare(got, want any, tol float64) (d float64, err error) {
	switch w := want.(type) {
	case *tensor.Tensor:
		g, ok := got.(*tensor.Tensor)
		if !ok || g == nil {
			return 0, fmt.Errorf("got %s, PyTorch a Tensor", runtime.TypeName(got))
		}
		if g.DType() != w.DType() {
			return 0, fmt.Errorf("dtype %s, PyTorch %s", g.DType(), w.DType())
		}
		if !sameShape(g.Shape(), w.Shape()) {
			return 0, fmt.Errorf("shape %v, PyTorch %v", g.Shape(), w.Shape())
		}
		gv, wv := g.Float64s(), w.Float64s()
		for i := range wv {
			diff := math.Abs(gv[i] - wv[i])
			if math.IsNaN(gv[i]) && math.IsNaN(wv[i]) || gv[i] == wv[i] {
				continue
			}
			if diff > d || math.IsNaN(diff) {
				d = diff
			}
			if !(diff <= tol+tol*math.Abs(wv[i])) && err == nil {
				err = fmt.Errorf("element %d: %v, PyTorch %v (tolerance %g)", i, gv[i], wv[i], tol)
			}
		}
		return d, err
	case float64:
		g, ok := got.(float64)
		if !ok {
			return 0, fmt.Errorf("got %s, PyTorch a float", runtime.TypeName(got))
		}
		if !(math.Abs(g-w) <= tol+tol*math.Abs(w)) && !(math.IsNaN(g) && math.IsNaN(w)) {
			return math.Abs(g - w), fmt.Errorf("%v, PyTorch %v", g, w)
		}
		return 0, nil
	case *runtime.List:
		g, ok := got.(*runtime.List)
		if !ok || len(g.Items) != len(w.Items) {
			return 0, fmt.Errorf("got %s, PyTorch %s", runtime.Repr(got), runtime.Repr(want))
		}
		for i := range w.Items {
			e, err := compare(g.Items[i], w.Items[i], tol)
			d = math.Max(d, e)
			if err != nil {
				return d, fmt.Errorf("element %d: %w", i, err)
			}
		}
		return d, nil
	}
	if runtime.TypeName(got) != runtime.TypeName(want) {
		return 0, fmt.Errorf("got %s %s, PyTorch %s %s", runtime.TypeName(got), runtime.Repr(got), runtime.TypeName(want), runtime.Repr(want))
	}
	eq, err := runtime.Equal(got, want)
	if err != nil {
		return 0, err
	}
	if !eq {
		return 0, fmt.Errorf("%s, PyTorch %s", runtime.Repr(got), runtime.Repr(want))
	}
	return 0, nil
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
