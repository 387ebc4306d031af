package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Dropout, ATen's Dropout.cpp: dropout and native_dropout.

// registerDropout registers the kernels of dropout.go.
func registerDropout() {
	registerBoth("aten::dropout", dropout)
	registerBoth("aten::native_dropout", nativeDropout)
}

// dropout is aten::dropout. p must lie in [0, 1]. With train=False, p=0
// or no elements it returns the input itself, as PyTorch does; with p=1 it
// returns input*0 (so NaN and inf become NaN). Dropping a random subset
// needs a random generator, which reference kernels do not have: that case
// is an error.
func dropout(c *ops.Call) ([]any, error) {
	x, p, train := c.Tensor("input"), c.Float("p"), c.Bool("train")
	if !(p >= 0 && p <= 1) {
		return nil, c.Errorf("p", "dropout probability has to be between 0 and 1, but got %v", p)
	}
	if p == 0 || !train || x.Numel() == 0 {
		return one(x), nil
	}
	if p == 1 {
		return one(mapUnary(x, x.DType(),
			func(v float64) float64 { return v * 0 },
			func(int64) int64 { return 0 })), nil
	}
	if meta(x) {
		return oneOrErr(empty(true, x.DType(), x.Shape()))
	}
	return nil, c.Errorf("train", "dropout with train=True and 0 < p < 1 (p=%v) draws random numbers, which needs a random generator; the reference kernels have none (export the model in eval mode)", p)
}

// nativeDropout is aten::native_dropout: (output, mask). With
// train=False it returns a copy of the input and an all-true bool mask;
// train=True or None draws a Bernoulli(1-p) mask and scales by 1/(1-p),
// which is deterministic only for p=0 (identity) and p=1 (input*0*0, NaN
// for inf and NaN). Other p need a random generator, which the reference
// kernels do not have. An empty input returns itself and an empty mask of
// its dtype, as ATen does.
func nativeDropout(c *ops.Call) ([]any, error) {
	x, p := c.Tensor("input"), c.Float("p")
	train := c.IsNone("train") || c.Bool("train")
	dt := x.DType()
	if x.Numel() == 0 {
		return []any{x, tensor.Must(empty(x.IsMeta(), dt, x.Shape()))}, nil
	}
	if !train {
		if x.IsMeta() {
			return []any{x.Meta(), tensor.Must(tensor.NewMeta(tensor.Bool, x.Shape()...))}, nil
		}
		return []any{x.Clone(), filledInts(tensor.Bool, 1, x.Shape())}, nil
	}
	keep := 1 - p
	if !(keep >= 0 && keep <= 1) {
		return nil, c.Errorf("p", "bernoulli_ expects p to be in [0, 1], but got p=%v", keep)
	}
	if !dt.IsFloat() {
		return nil, c.Errorf("input", "result type Float can't be cast to the desired output type %s", scalarTypeName(dt))
	}
	if x.IsMeta() {
		return []any{x.Meta(), tensor.Must(tensor.NewMeta(tensor.Bool, x.Shape()...))}, nil
	}
	switch keep {
	case 1:
		return []any{x.Clone(), filledInts(tensor.Bool, 1, x.Shape())}, nil
	case 0:
		out := mapUnary(x, dt, func(v float64) float64 { return v * 0 * 0 }, func(int64) int64 { return 0 })
		return []any{out, filledInts(tensor.Bool, 0, x.Shape())}, nil
	}
	return nil, c.Errorf("train", "native_dropout with train=True and 0 < p < 1 (p=%v) draws random numbers, which needs a random generator; the reference kernels have none (export the model in eval mode)", p)
}
