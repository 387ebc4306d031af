package export

import (
	"fmt"

	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/ops"
)

// mutable functionalizes an operator that writes some of its arguments
// (not only self): PyTorch's functional variant NAME_functional is
// recorded, which returns the operator's results followed by the new
// value of each written argument, and each written argument's proxy is
// rebound to its new value (a parameter, buffer or user input written this
// way becomes a mutation output, as for in-place operators).
func (r *recorder) mutable(op *ops.Operator, args []any, kwargs map[string]any) ([]any, error) {
	s := op.Schema()
	q := s.Namespace + "::" + s.Name + "_functional"
	if s.Overload != "" {
		q += "." + s.Overload
	}
	fn, ok := ops.Global().Lookup(q)
	if !ok {
		hint := ""
		if s.QualifiedName() == "aten::_native_batch_norm_legit" || s.Name == "native_batch_norm" {
			hint = "; a model in training mode: call nn.Eval(model) before exporting"
		}
		return nil, fmt.Errorf("export: %s at %s writes one of its arguments (an out= or mutable form) and has no functional variant %s to record%s", op, where(), q, hint)
	}
	vals, err := op.Place(args, kwargs)
	if err != nil {
		return nil, err
	}
	var written []*record.Proxy
	for i, a := range s.Args {
		if a.Type == nil || a.Type.Alias == nil || !a.Type.Alias.Write {
			continue
		}
		p, pi, ok := r.tensorProxy(vals[i])
		if !ok {
			return nil, fmt.Errorf("export: %s at %s: the argument %s it writes is not a traced tensor", op, where(), a.Name)
		}
		if pi.base != nil {
			return nil, fmt.Errorf("export: %s at %s writes %s, a view of %s: writes through views are functionalized for in-place operators only; clone the view and write the clone", op, where(), a.Name, pi.base.Node().Name())
		}
		written = append(written, p)
	}
	out, err := r.record(fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	n := len(s.Returns)
	if len(out) != n+len(written) {
		return nil, fmt.Errorf("export: %s returned %d values, want %d results of %s and %d written arguments", fn, len(out), n, op, len(written))
	}
	for i, p := range written {
		res, ri, ok := r.tensorProxy(out[n+i])
		if !ok {
			return nil, fmt.Errorf("export: %s: result %d is not a tensor", fn, n+i)
		}
		pi := info(p)
		pi.fake, pi.meta = ri.fake, ri.meta
		if pi.views > 0 {
			pi.gen++ // its views taken so far are stale
		}
		record.Rebind(p, res.Node(), pi)
	}
	return out[:n], nil
}
