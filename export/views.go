package export

import (
	"fmt"

	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// viewOf is how a traced view was taken.
type viewOf struct {
	parent *record.Proxy
	op     *ops.Operator
	args   []any
	kwargs map[string]any
}

var (
	opSelectScatter = nn.Op("aten::select_scatter")
	opSliceScatter  = nn.Op("aten::slice_scatter")
	opView          = nn.Op("aten::view")
)

// isView reports whether op returns views of an argument: tagged
// ops.View, or returning a list of views (Tensor(a)[], split's pieces).
func isView(op *ops.Operator) bool {
	if op.Has(ops.View) {
		return true
	}
	if op.Has(ops.Mutable) {
		return false
	}
	for _, r := range op.Schema().Returns {
		if e := r.Type.Elem; r.Type.Kind == ops.ListOf && e != nil && e.Alias != nil && !e.Alias.Write && len(e.Alias.Before) > 0 && e.Alias.Before[0] != "*" {
			return true
		}
	}
	return false
}

// tagView records that the result p (a proxy, or a list of them for a
// Tensor[] result) of the view operator op is a view of its self
// argument.
func (r *recorder) tagView(op *ops.Operator, args []any, kwargs map[string]any, p any) {
	self, ok := firstProxy(args)
	if !ok {
		return
	}
	switch x := p.(type) {
	case []any:
		for _, e := range x {
			r.tagView(op, args, kwargs, e)
		}
	case *record.Proxy:
		ti, si := info(x), info(self)
		if ti == nil {
			return
		}
		ti.base = self
		if si.base != nil {
			ti.base = si.base
		}
		info(ti.base).views++
		ti.view = &viewOf{parent: self, op: op, args: args, kwargs: kwargs}
		ti.gen = info(ti.base).gen
	}
}

// checkOutputFresh fails when the model returns a view of a tensor
// written after the view was taken.
func (r *recorder) checkOutputFresh(out nn.Value) error {
	if out.IsTuple() {
		for _, e := range out.Tuple() {
			if err := r.checkOutputFresh(e); err != nil {
				return err
			}
		}
		return nil
	}
	if p, ti, ok := r.tensorProxy(out); ok && ti.base != nil {
		return r.checkFresh(nil, p)
	}
	return nil
}

// checkFresh fails when p is a view of a tensor written after the view
// was taken (model code reading or writing it would see the old values).
func (r *recorder) checkFresh(op *ops.Operator, p *record.Proxy) error {
	ti := info(p)
	if ti.base == nil || ti.gen == info(ti.base).gen {
		return nil
	}
	taken := ""
	if st, ok := node.StackTrace.Get(&p.Node().Meta); ok {
		if s, ok := parseStackTrace(st); ok {
			taken = fmt.Sprintf(" at %s:%d", s.file, s.line)
		}
	}
	user := "the output"
	if op != nil {
		user = fmt.Sprintf("%s at %s", op, where())
	}
	return fmt.Errorf("export: %s reads %s, a view taken%s of a tensor written since: PyTorch would see the written values through it, which export does not functionalize; take the view again after the write", user, p.Node().Name(), taken)
}

// writeBack functionalizes a write through a view, as torch.export does:
// the view's new value res is scattered back into each tensor it was
// taken from (select_scatter for select, slice_scatter for slice, view
// for view-like reshapes), up to the base, whose proxy (and every view of
// the chain) is rebound to its new value. A buffer or user input written
// through a view so becomes a mutation output. Other views of the base
// taken before are stale from then on.
func (r *recorder) writeBack(op *ops.Operator, self, res *record.Proxy) error {
	si := info(self)
	base := info(si.base)
	var chain []*record.Proxy // the views written, innermost first
	cur, val := self, res
	for cur != si.base {
		v := info(cur).view
		if v == nil {
			return fmt.Errorf("export: %s at %s: %s is a view of %s with no record of how it was taken", op, where(), cur.Node().Name(), si.base.Node().Name())
		}
		up, err := r.scatter(op, v, v.parent, val)
		if err != nil {
			return err
		}
		if v.parent != si.base {
			chain = append(chain, v.parent)
		}
		pi, ui := info(v.parent), info(up)
		pi.fake, pi.meta = ui.fake, ui.meta
		record.Rebind(v.parent, up.Node(), pi)
		cur, val = v.parent, up
	}
	base.gen++ // the views taken before are stale, but those just written
	si.gen = base.gen
	for _, p := range chain {
		info(p).gen = base.gen
	}
	return nil
}

// scatter returns the new value of parent once its view v holds val.
func (r *recorder) scatter(op *ops.Operator, v *viewOf, parent, val *record.Proxy) (*record.Proxy, error) {
	vals, err := v.op.Place(v.args, v.kwargs)
	if err != nil {
		return nil, err
	}
	var out []any
	switch v.op.Schema().Name {
	case "select":
		out, err = r.record(opSelectScatter, []any{parent, val, vals[1], vals[2]}, nil)
	case "slice":
		out, err = r.record(opSliceScatter, []any{parent, val, vals[1], vals[2], vals[3], vals[4]}, nil)
	case "view", "_unsafe_view", "alias", "unsqueeze", "squeeze", "reshape", "flatten":
		shape, serr := r.shape(parent)
		if serr != nil {
			return nil, serr
		}
		sizes := make([]any, 0, len(shape.Tuple()))
		for _, d := range shape.Tuple() {
			sizes = append(sizes, d.Raw())
		}
		out, err = r.record(opView, []any{val, sizes}, nil)
	default:
		return nil, fmt.Errorf("export: %s at %s writes through a view of %s taken with %s: writes through %s views are not functionalized (select, slice and view-like reshapes are); compute the new tensor without writing into the view (e.g. clone the view, write the clone, and build the result from it)", op, where(), parent.Node().Name(), v.op, v.op.Schema().Name)
	}
	if err != nil {
		return nil, err
	}
	p, _, ok := r.tensorProxy(out[0])
	if !ok {
		return nil, fmt.Errorf("export: writing %s back through %s: not a tensor", op, v.op)
	}
	return p, nil
}
