package export

import (
	"fmt"

	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// batchNormFunctional is PyTorch's functional form of
// _native_batch_norm_legit: the three results, then the new running mean
// and variance instead of writing them. torch.export records it for a
// batch norm in training mode (after run_decompositions), the updated
// statistics becoming buffer mutations.
const batchNormFunctional = "aten::_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out)"

func init() {
	op, ok := ops.Global().Lookup("aten::_native_batch_norm_legit_functional")
	if !ok {
		var err error
		if op, err = ops.Global().Register(batchNormFunctional, 0); err != nil {
			panic(err)
		}
	}
	if !op.HasKernel() {
		op.SetKernel(batchNormFunctionalKernel)
	}
	if !op.HasMeta() {
		op.SetMeta(batchNormFunctionalKernel)
	}
	shapeprop.RegisterRule("aten::_native_batch_norm_legit_functional", func(c *shapeprop.RuleCall) ([]any, error) {
		x := c.Fake(0)
		if len(x.Shape) < 2 {
			return nil, fmt.Errorf("batch norm expects an input with at least 2 dims, got %d", len(x.Shape))
		}
		stat := func() *shapeprop.Fake { return &shapeprop.Fake{Shape: []sym.Expr{x.Shape[1]}, Contiguous: true} }
		return []any{
			&shapeprop.Fake{Shape: x.Shape, Contiguous: true}, stat(), stat(),
			&shapeprop.Fake{Shape: c.Fake(3).Shape, Contiguous: true},
			&shapeprop.Fake{Shape: c.Fake(4).Shape, Contiguous: true},
		}, nil
	})
}

// batchNormFunctionalKernel runs _native_batch_norm_legit on copies of the
// running statistics and returns them after its results; on meta tensors
// it is the meta function.
func batchNormFunctionalKernel(c *ops.Call) ([]any, error) {
	legit, ok := ops.Global().Lookup("aten::_native_batch_norm_legit")
	if !ok {
		return nil, fmt.Errorf("aten::_native_batch_norm_legit is not registered")
	}
	rm, rv := c.Tensor("running_mean").Clone(), c.Tensor("running_var").Clone()
	out, err := legit.Call([]any{c.Tensor("input"), optTensor(c.Tensor("weight")), optTensor(c.Tensor("bias")), rm, rv,
		c.Bool("training"), c.Float("momentum"), c.Float("eps")}, nil)
	if err != nil {
		return nil, err
	}
	return append(out, rm, rv), nil
}

// optTensor passes a nil tensor as an untyped nil (None).
func optTensor(t *tensor.Tensor) any {
	if t == nil {
		return nil
	}
	return t
}

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
