package kernels

import (
	"errors"
	"fmt"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Small helpers the families share: result wrapping, meta checks, output
// allocation, calling another operator with a call's arguments, and shape
// and stride formatting for error messages.

// one wraps a single tensor result.
func one(t *tensor.Tensor) []any { return []any{t} }

// meta reports whether any of ts is a meta tensor.
func meta(ts ...*tensor.Tensor) bool {
	for _, t := range ts {
		if t != nil && t.IsMeta() {
			return true
		}
	}
	return false
}

// empty returns a new tensor of dt and shape: a meta tensor when isMeta.
func empty(isMeta bool, dt tensor.DType, shape []int) (*tensor.Tensor, error) {
	if isMeta {
		return tensor.NewMeta(dt, shape...)
	}
	return tensor.New(dt, shape...)
}

// ints converts int64 arguments to ints.
func ints(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// formatStrides returns the strides of shape in memory format f
// (contiguous_format when None), blaming argument arg for a format that
// does not apply: preserve_format has no layout of its own here, and the
// channels-last formats need rank 4 or 5.
func formatStrides(c *ops.Call, arg string, shape []int) ([]int, error) {
	f := "contiguous_format"
	if !c.IsNone(arg) {
		f = c.Str(arg)
	}
	switch f {
	case "contiguous_format":
		return tensor.ContiguousStrides(shape), nil
	case "preserve_format":
		return nil, c.Errorf(arg, "unsupported memory format Preserve")
	case "channels_last", "channels_last_3d":
		rank := 4
		if f == "channels_last_3d" {
			rank = 5
		}
		if len(shape) != rank {
			return nil, c.Errorf(arg, "required rank %d tensor to use %s format", rank, f)
		}
		// The channel dimension (1) is the innermost, then the spatial
		// dimensions in order, then the batch; as in ATen's
		// get_channels_last_strides, empty dimensions are not counted as 1.
		strides := make([]int, rank)
		strides[1] = 1
		s := shape[1]
		for d := rank - 1; d >= 2; d-- {
			strides[d] = s
			s *= shape[d]
		}
		strides[0] = s
		return strides, nil
	}
	return nil, c.Errorf(arg, "unknown memory format %q", f)
}

// storageSize is the number of storage elements a layout reaches from
// offset 0: 0 for an empty shape.
func storageSize(shape, strides []int) int {
	n := 1
	for i, d := range shape {
		if d == 0 {
			return 0
		}
		n += (d - 1) * strides[i]
	}
	return n
}

// dimErr is ATen's error for reading size(d) of a tensor of rank
// dimensions (d >= rank).
func dimErr(d, rank int) string {
	if rank == 0 {
		return fmt.Sprintf("Dimension specified as %d but tensor has no dimensions", d)
	}
	return fmt.Sprintf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -rank, rank-1, d)
}

// contig returns t contiguous (nil for nil).
func contig(t *tensor.Tensor) *tensor.Tensor {
	if t == nil {
		return nil
	}
	return t.Contiguous()
}

// repeatTensor is t.repeat(n) for a 0-d or 1-d t: n copies one after the
// other.
func repeatTensor(t *tensor.Tensor, n int) (*tensor.Tensor, error) {
	if t.IsMeta() {
		return tensor.NewMeta(t.DType(), t.Numel()*n)
	}
	u, err := t.Reshape(1, t.Numel())
	if err != nil {
		return nil, err
	}
	e, err := u.Expand(n, t.Numel())
	if err != nil {
		return nil, err
	}
	r, err := e.Reshape(n * t.Numel())
	if err != nil {
		return nil, err
	}
	// A copy, not a view of t with stride 0: batch_norm writes it.
	return r.Clone(), nil
}

// outputMask returns the three flags of the output_mask argument.
func outputMask(c *ops.Call) [3]bool {
	var m [3]bool
	copy(m[:], c.Bools("output_mask"))
	return m
}

// checkStat checks that a saved statistic (mean or rstd) has dtype dt and
// n elements.
func checkStat(c *ops.Call, arg string, t *tensor.Tensor, dt tensor.DType, n int, what string) error {
	if err := checkDType(c, arg, t, dt); err != nil {
		return err
	}
	if t.Numel() != n {
		return c.Errorf(arg, "Expected %s.numel() == %s (%d) to be true, but got %d elements (shape %s)", arg, what, n, t.Numel(), shapeString(t.Shape()))
	}
	return nil
}

// optionalResults wraps three optional results; nil tensors stay untyped nils.
func optionalResults(ts ...*tensor.Tensor) []any {
	out := make([]any, len(ts))
	for i, t := range ts {
		if t != nil {
			out[i] = t
		}
	}
	return out
}

// shapeString formats a shape as PyTorch prints sizes: [1, 2, 3].
func shapeString(s []int) string {
	b := []byte{'['}
	for i, d := range s {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%d", d)
	}
	return string(append(b, ']'))
}

// oneOrErr wraps a single tensor result that may have failed.
func oneOrErr(t *tensor.Tensor, err error) ([]any, error) {
	if err != nil {
		return nil, err
	}
	return one(t), nil
}

// delegate calls the operator name with args and kwargs on behalf of c,
// whose arguments it shares the names of: an error blaming an argument is
// reported as c's.
func delegate(c *ops.Call, name string, args []any, kwargs map[string]any) ([]any, error) {
	out, err := op(name).Call(args, kwargs)
	if ce, ok := err.(*ops.CallError); ok && ce.Arg != "" {
		return nil, c.Errorf(ce.Arg, "%v", ce.Err)
	}
	return out, err
}

// scalarTo converts the Scalar argument name to dtype dt as c10's
// checked Scalar::to<T> does (floats truncate toward zero for integral dt;
// overflow is an error) and returns it as a float64 and an int64.
func scalarTo(c *ops.Call, name string, dt tensor.DType) (float64, int64, error) {
	s := scalarArg(c, name)
	if err := checkFits(c, name, s, dt); err != nil {
		return 0, 0, err
	}
	t := s.Tensor(dt)
	return t.Float64s()[0], t.Int64s()[0], nil
}

// callOp calls the operator name with args and turns its error into one
// of c that blames the same argument (rename maps the callee's argument
// names to c's).
func callOp(c *ops.Call, name string, args []any, rename map[string]string) ([]any, error) {
	out, err := op(name).Call(args, nil)
	if err == nil {
		return out, nil
	}
	var ce *ops.CallError
	if errors.As(err, &ce) {
		arg := ce.Arg
		if r, ok := rename[arg]; ok {
			arg = r
		}
		if arg == "" {
			arg = "self"
		}
		return nil, c.Errorf(arg, "%v", ce.Err)
	}
	return nil, c.Errorf("self", "%v", err)
}

// delegateKernel binds args and kwargs to the schema of the operator called
// name and runs kernel on the bound call: how an overload that ATen
// implements through another one runs. Argument errors keep the argument
// names, which the overloads share.
func delegateKernel(name string, kernel ops.Kernel, args []any, kwargs map[string]any) ([]any, error) {
	c, err := op(name).Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	return kernel(c)
}

// dataDependentMeta is the meta function of ops whose result depends on
// the input's values.
func dataDependentMeta(c *ops.Call) ([]any, error) {
	return nil, c.Errorf("self", "%s has a data-dependent output shape or value, which a meta tensor cannot provide", c.Op.Schema().QualifiedName())
}

// filledInts returns a tensor of dt and shape filled with v.
func filledInts(dt tensor.DType, v int64, shape []int) *tensor.Tensor {
	n, _ := tensor.Numel(shape)
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = v
	}
	return tensor.Must(tensor.FromInt64s(dt, vals, shape...))
}

// chain runs operator calls on behalf of c, for kernels that compose
// registered operators as ATen's composite functions do: the first error
// stops the chain and is reported as c's, blaming arg.
type chain struct {
	c   *ops.Call
	arg string // the argument errors blame, "input" when empty
	err error
}

// call runs operator name on args and returns its tensor result (nil after
// an error).
func (p *chain) call(name string, args ...any) *tensor.Tensor {
	if p.err != nil {
		return nil
	}
	out, err := op(name).Call(args, nil)
	if err != nil {
		arg := p.arg
		if arg == "" {
			arg = "input"
		}
		p.err = p.c.Errorf(arg, "%v", err)
		return nil
	}
	return out[0].(*tensor.Tensor)
}

// callKw is call with keyword arguments.
func (p *chain) callKw(name string, kwargs map[string]any, args ...any) *tensor.Tensor {
	out := p.callsKw(name, kwargs, args...)
	if out == nil {
		return nil
	}
	return out[0].(*tensor.Tensor)
}

// calls runs operator name on args and returns all its results (nil
// after an error).
func (p *chain) calls(name string, args ...any) []any { return p.callsKw(name, nil, args...) }

// callsKw is calls with keyword arguments.
func (p *chain) callsKw(name string, kwargs map[string]any, args ...any) []any {
	if p.err != nil {
		return nil
	}
	out, err := op(name).Call(args, kwargs)
	if err != nil {
		arg := p.arg
		if arg == "" {
			arg = "input"
		}
		p.err = p.c.Errorf(arg, "%v", err)
		return nil
	}
	return out
}

// result returns t as a kernel's single result, or the chain's error.
func (p *chain) result(t *tensor.Tensor) ([]any, error) {
	if p.err != nil {
		return nil, p.err
	}
	return one(t), nil
}
