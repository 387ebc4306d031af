package ops

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// DynamicSizer hands out the data-dependent sizes a meta function asks
// for with Call.NewDynamicSize (an exporter, which makes each one an
// unbacked symbol). NewDynamicSize returns the size the meta tensor is to
// be built with; min and max bound the size (max is math.MaxInt64 for no
// bound).
type DynamicSizer interface {
	NewDynamicSize(min, max int64) (int64, error)
}

// ErrDataDependent is the error of NewDynamicSize in a meta function run
// without a DynamicSizer: the result's size depends on the data, which a
// meta call does not have.
var ErrDataDependent = errors.New("the result's size depends on the tensor data (a meta function can only give it a size when exported: see Call.NewDynamicSize)")

// NewDynamicSize is, for a meta function, torch.library's
// ctx.new_dynamic_size(min=min, max=max): a size that depends on the data
// (the number of elements a filter keeps, as nonzero's length), within
// [min, max] (max math.MaxInt64 for no bound). The meta function builds
// its meta result with the returned size. When export.Export probes a
// custom operator's meta function (CallMeta), each such size becomes a
// new unbacked symbol (u0, u1, ...) of the result's shape, size-like and
// asserted at run time; anywhere else the call fails with
// ErrDataDependent, which the meta function returns.
func (c *Call) NewDynamicSize(min, max int64) (int64, error) {
	if min < 0 {
		min = 0
	}
	if min > max {
		return 0, fmt.Errorf("NewDynamicSize: min %d is greater than max %d", min, max)
	}
	if c.sizer == nil {
		return 0, ErrDataDependent
	}
	return c.sizer.NewDynamicSize(min, max)
}

// CallMeta runs op's meta function on args (meta tensors for the tensor
// arguments) with sizer answering the meta function's NewDynamicSize
// calls. Errors name the operator and argument as Call's do.
func (o *Operator) CallMeta(sizer DynamicSizer, args []any, kwargs map[string]any) (out []any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CallError{Op: o.schema.QualifiedName(), Err: fmt.Errorf("internal error: %v\n%s", r, debug.Stack())}
		}
	}()
	c, err := o.Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	if !c.hasMeta() {
		return nil, &CallError{Op: o.schema.QualifiedName(), Err: errors.New("CallMeta needs a meta tensor argument")}
	}
	c.sizer = sizer
	return c.run()
}
