package kernels

import (
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

func registerOutVariants() {
	// out= variants in the core opset, computed by their functional
	// overload and written into out.
	registerOut("aten::atan2.out", "aten::atan2")
}

// registerOut installs, for the out= overload outName, a kernel that calls
// the functional overload funcName with the same arguments minus out, and
// copies the result into out, which must have the result's shape (ATen
// would resize it; gofx tensors do not resize in place). The dtype of out
// may differ when the result casts to it without changing category.
func registerOut(outName, funcName string) {
	fn := op(funcName)
	k := func(c *ops.Call) ([]any, error) {
		args := []any{}
		for _, a := range c.Op.Schema().Args {
			if a.Name == "out" {
				continue
			}
			args = append(args, c.Arg(a.Name))
		}
		res, err := fn.Call(args, nil)
		if err != nil {
			return nil, err
		}
		r := res[0].(*tensor.Tensor)
		out := c.Tensor("out")
		if !slices.Equal(out.Shape(), r.Shape()) {
			return nil, c.Errorf("out", "has shape %v, the result has shape %v (gofx does not resize out= tensors)", out.Shape(), r.Shape())
		}
		if r.DType().IsFloat() && !out.DType().IsFloat() {
			return nil, c.Errorf("out", "result type %s can't be cast to the desired output type %s", scalarTypeName(r.DType()), scalarTypeName(out.DType()))
		}
		if out.IsMeta() || r.IsMeta() {
			return one(out), nil
		}
		if err := out.CopyFrom(r); err != nil {
			return nil, c.Errorf("out", "%v", err)
		}
		return one(out), nil
	}
	register(outName, k, k)
	origins[op(outName)] = origin{file: "out.go", derivedFrom: fn}
}
