package conformance

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Result is the outcome of one case.
type Result struct {
	Case *Case
	// Err is set when the call failed or an output has the wrong kind,
	// dtype or shape.
	Err error
	// MaxAbs and MaxRel are the largest absolute and relative errors over
	// the floating-point outputs (integer outputs must match exactly).
	MaxAbs, MaxRel float64
	// Mismatches counts elements outside the tolerance.
	Mismatches int
}

// Passed reports whether the case passed.
func (r *Result) Passed() bool { return r.Err == nil && r.Mismatches == 0 }

// Run runs c through the global registry's dispatch point and compares the
// outputs.
func Run(c *Case) *Result {
	r := &Result{Case: c}
	op, ok := ops.Global().Lookup(c.Op)
	if !ok {
		r.Err = fmt.Errorf("unknown operator %s", c.Op)
		return r
	}
	if c.Schema != "" && !hasSchema(op, c.Schema) {
		r.Err = fmt.Errorf("schema differs from the registry's: case has %q, registry %q", c.Schema, op.Schema().String())
		return r
	}
	// Inputs may be written by mutating kernels; keep the case reusable.
	got, err := op.Call(cloneArgs(c.Args), cloneKwargs(c.Kwargs))
	if err != nil {
		r.Err = err
		return r
	}
	if len(got) != len(c.Outputs) {
		r.Err = fmt.Errorf("%d outputs, want %d", len(got), len(c.Outputs))
		return r
	}
	for i := range got {
		if err := r.compare(fmt.Sprintf("output %d", i), got[i], c.Outputs[i]); err != nil {
			r.Err = err
			return r
		}
	}
	return r
}

func cloneArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = cloneVal(a)
	}
	return out
}

func cloneKwargs(kw map[string]any) map[string]any {
	out := make(map[string]any, len(kw))
	for k, v := range kw {
		out[k] = cloneVal(v)
	}
	return out
}

func cloneVal(v any) any {
	switch x := v.(type) {
	case *tensor.Tensor:
		return x.Clone()
	case []*tensor.Tensor:
		out := make([]*tensor.Tensor, len(x))
		for i, t := range x {
			if t != nil {
				out[i] = t.Clone()
			}
		}
		return out
	}
	return v
}

func (r *Result) compare(what string, got, want any) error {
	switch w := want.(type) {
	case nil:
		// An undefined tensor (a backward op's output not asked for by
		// output_mask) is recorded as {"none": true}.
		if !isNone(got) {
			return fmt.Errorf("%s: got %T, want None", what, got)
		}
		return nil
	case *tensor.Tensor:
		g, ok := got.(*tensor.Tensor)
		if !ok || g == nil {
			return fmt.Errorf("%s: got %T, want a tensor", what, got)
		}
		return r.compareTensor(what, g, w)
	case []*tensor.Tensor:
		g, ok := got.([]*tensor.Tensor)
		if !ok {
			return fmt.Errorf("%s: got %T, want a list of tensors", what, got)
		}
		if len(g) != len(w) {
			return fmt.Errorf("%s: got %d tensors, want %d", what, len(g), len(w))
		}
		for i := range w {
			if err := r.compareTensor(fmt.Sprintf("%s[%d]", what, i), g[i], w[i]); err != nil {
				return err
			}
		}
		return nil
	case int64, bool:
		if got != want {
			return fmt.Errorf("%s: got %v, want %v", what, got, want)
		}
		return nil
	case float64:
		g, ok := got.(float64)
		if !ok {
			return fmt.Errorf("%s: got %T, want a float", what, got)
		}
		r.compareFloats([]float64{g}, []float64{w})
		return nil
	}
	return fmt.Errorf("%s: cannot compare %T", what, want)
}

func (r *Result) compareTensor(what string, g, w *tensor.Tensor) error {
	if g == nil {
		return fmt.Errorf("%s: got None, want a tensor", what)
	}
	if g.DType() != w.DType() || !slices.Equal(g.Shape(), w.Shape()) {
		return fmt.Errorf("%s: got %s, want %s", what, g, w)
	}
	if g.IsMeta() {
		return fmt.Errorf("%s: got a meta tensor", what)
	}
	if !w.DType().IsFloat() {
		gv, wv := g.Int64s(), w.Int64s()
		for i := range wv {
			if gv[i] != wv[i] {
				r.Mismatches++
				r.MaxAbs = math.Max(r.MaxAbs, math.Abs(float64(gv[i]-wv[i])))
			}
		}
		return nil
	}
	r.compareFloats(g.Float64s(), w.Float64s())
	return nil
}

func (r *Result) compareFloats(gv, wv []float64) {
	rtol, atol := r.Case.RTol, r.Case.ATol
	for i := range wv {
		a, e := gv[i], wv[i]
		if a == e || (math.IsNaN(a) && math.IsNaN(e)) {
			continue
		}
		if math.IsNaN(a) || math.IsNaN(e) || math.IsInf(a, 0) || math.IsInf(e, 0) {
			r.Mismatches++
			r.MaxAbs = math.Inf(1)
			r.MaxRel = math.Inf(1)
			continue
		}
		d := math.Abs(a - e)
		r.MaxAbs = math.Max(r.MaxAbs, d)
		if e != 0 {
			r.MaxRel = math.Max(r.MaxRel, d/math.Abs(e))
		} else {
			r.MaxRel = math.Inf(1)
		}
		if d > atol+rtol*math.Abs(e) {
			r.Mismatches++
		}
	}
}

// String is the one-line report of a failing case: its id, the error or
// the largest errors, and the shapes of its inputs and expected outputs.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "FAIL %s: ", r.Case.ID)
	if r.Err != nil {
		b.WriteString(strings.ReplaceAll(r.Err.Error(), "\n", " "))
	} else {
		fmt.Fprintf(&b, "%d elements differ, max abs %.3g, max rel %.3g (rtol %g, atol %g)",
			r.Mismatches, r.MaxAbs, r.MaxRel, r.Case.RTol, r.Case.ATol)
	}
	fmt.Fprintf(&b, "; inputs %s; outputs %s", describe(r.Case.Args), describe(r.Case.Outputs))
	return b.String()
}

func describe(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case *tensor.Tensor:
			parts[i] = x.String()
		case []*tensor.Tensor:
			s := make([]string, len(x))
			for j, t := range x {
				if t == nil {
					s[j] = "None"
				} else {
					s[j] = t.String()
				}
			}
			parts[i] = "[" + strings.Join(s, ", ") + "]"
		case nil:
			parts[i] = "None"
		default:
			parts[i] = fmt.Sprint(x)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Summary counts results.
type Summary struct {
	Passed, Failed int
	Failures       []*Result
}

// RunAll runs every case, writes one line per failing case to w, and ends
// with "N passed, M failed".
func RunAll(cases []*Case, w io.Writer) Summary {
	var s Summary
	for _, c := range cases {
		r := Run(c)
		if r.Passed() {
			s.Passed++
			continue
		}
		s.Failed++
		s.Failures = append(s.Failures, r)
		fmt.Fprintln(w, r)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", s.Passed, s.Failed)
	return s
}

// RunMeta runs c with every tensor argument replaced by a meta tensor of
// the same dtype and shape, and checks that the results have the dtypes
// and shapes of the expected outputs.
func RunMeta(c *Case) error {
	op, ok := ops.Global().Lookup(c.Op)
	if !ok {
		return fmt.Errorf("unknown operator %s", c.Op)
	}
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		args[i] = metaVal(a)
	}
	kwargs := map[string]any{}
	for k, v := range c.Kwargs {
		kwargs[k] = metaVal(v)
	}
	// Factories (full, arange, scalar_tensor) take no tensor: ask for the
	// meta device instead.
	if !hasTensor(c.Args, c.Kwargs) {
		for _, a := range op.Schema().Args {
			if a.Name == "device" {
				kwargs["device"] = "meta"
			}
		}
	}
	got, err := op.Call(args, kwargs)
	if err != nil {
		return err
	}
	if len(got) != len(c.Outputs) {
		return fmt.Errorf("%d outputs, want %d", len(got), len(c.Outputs))
	}
	for i, w := range c.Outputs {
		if err := sameMeta(got[i], w); err != nil {
			return fmt.Errorf("output %d: %w", i, err)
		}
	}
	return nil
}

func metaVal(v any) any {
	switch x := v.(type) {
	case *tensor.Tensor:
		return x.Meta()
	case []*tensor.Tensor:
		out := make([]*tensor.Tensor, len(x))
		for i, t := range x {
			if t != nil {
				out[i] = t.Meta()
			}
		}
		return out
	}
	return v
}

func sameMeta(got, want any) error {
	switch w := want.(type) {
	case nil:
		if !isNone(got) {
			return fmt.Errorf("got %T, want None", got)
		}
	case *tensor.Tensor:
		g, ok := got.(*tensor.Tensor)
		if !ok || g == nil {
			return fmt.Errorf("got %T, want a tensor", got)
		}
		if !g.IsMeta() {
			return fmt.Errorf("got a tensor with data, want a meta tensor")
		}
		if g.DType() != w.DType() || !slices.Equal(g.Shape(), w.Shape()) {
			return fmt.Errorf("got %s, want %s", g, w.Meta())
		}
	case []*tensor.Tensor:
		g, ok := got.([]*tensor.Tensor)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("got %T of %d, want %d tensors", got, len(g), len(w))
		}
		for i := range w {
			if err := sameMeta(g[i], w[i]); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
	}
	return nil
}

func hasTensor(args []any, kwargs map[string]any) bool {
	for _, v := range args {
		if isTensorArg(v) {
			return true
		}
	}
	for _, v := range kwargs {
		if isTensorArg(v) {
			return true
		}
	}
	return false
}

func isTensorArg(v any) bool {
	switch v.(type) {
	case *tensor.Tensor, []*tensor.Tensor:
		return true
	}
	return false
}

// isNone reports whether v is None: nil or a nil tensor.
func isNone(v any) bool {
	t, ok := v.(*tensor.Tensor)
	return v == nil || (ok && t == nil)
}

// hasSchema reports whether schema is one of op's schemas: a case made by
// PyTorch 1.13 runs on an operator whose schema changed since (conv2d's
// int[2] stride=1 is SymInt[2] stride=[1, 1] in 2.x), which still accepts
// 1.13's calls.
func hasSchema(op *ops.Operator, schema string) bool {
	for _, s := range op.Schemas() {
		if s.String() == schema {
			return true
		}
	}
	return false
}
