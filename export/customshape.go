package export

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// probeShapes gives a custom operator (outside aten and prims, with a meta
// function and no shapeprop rule) symbolic result shapes from its meta
// function alone, as torch.export gets them by running a custom op's fake
// kernel on symbolic sizes: the meta function runs at the example sizes
// and at two other sizes of every symbol of its tensor arguments (within
// their ranges), and each result dimension must be the same constant at
// every probe or equal to one input dimension at every probe. When the
// probes cannot explain a result dimension, ok is false and shapeprop
// specializes the symbols as for any operator without a rule.
func (r *recorder) probeShapes(op *ops.Operator, args []any, kwargs map[string]any) (out []any, ok bool) {
	s := op.Schema()
	if s.Namespace == "aten" || s.Namespace == "prims" || !op.HasMeta() || shapeprop.HasRule(s.QualifiedName()) {
		return nil, false
	}
	fargs := make([]any, len(args))
	for i, a := range args {
		fargs[i] = r.fake(a)
	}
	fkw := make(map[string]any, len(kwargs))
	for k, a := range kwargs {
		fkw[k] = r.fake(a)
	}
	// The symbols of the tensor arguments, and the input dimensions to
	// match results against.
	var syms []*sym.Symbol
	seen := map[*sym.Symbol]bool{}
	var dims []sym.Expr
	visit := func(v any) bool {
		switch x := v.(type) {
		case *shapeprop.Fake:
			for _, d := range x.Shape {
				d = r.env.Simplify(d)
				dims = append(dims, d)
				for _, s := range d.Symbols() {
					if !seen[s] {
						seen[s] = true
						syms = append(syms, s)
					}
				}
			}
		case sym.Expr:
			if _, c := x.Const(); !c {
				return false // a symbolic int argument
			}
		case []any:
			for _, e := range x {
				if f, isFake := e.(*shapeprop.Fake); isFake {
					dims = append(dims, f.Shape...)
					for _, d := range f.Shape {
						for _, s := range r.env.Simplify(d).Symbols() {
							if !seen[s] {
								seen[s] = true
								syms = append(syms, s)
							}
						}
					}
				} else if _, isExpr := e.(sym.Expr); isExpr {
					return false
				}
			}
		}
		return true
	}
	for _, a := range fargs {
		if !visit(a) {
			return nil, false
		}
	}
	for _, a := range fkw {
		if !visit(a) {
			return nil, false
		}
	}
	// Three assignments: the hints, and two others, each symbol moved by
	// a different amount so that dimensions of different symbols differ.
	probes := make([]map[*sym.Symbol]int64, 3)
	for p := range probes {
		probes[p] = map[*sym.Symbol]int64{}
		for k, s := range syms {
			h, backed := s.Hint()
			if !backed {
				return nil, false
			}
			v := h
			if p > 0 {
				delta := int64(p*(len(syms)+1) + k + 1)
				rg := r.env.RangeOf(s)
				switch {
				case rg.Contains(h + delta):
					v = h + delta
				case h-delta >= 2 && rg.Contains(h-delta):
					v = h - delta
				default:
					return nil, false
				}
			}
			probes[p][s] = v
		}
	}
	results := make([][]*tensor.Tensor, len(probes))
	sizers := make([]*probeSizer, len(probes))
	for p, vals := range probes {
		sizers[p] = &probeSizer{probe: p}
		margs := make([]any, len(fargs))
		for i, a := range fargs {
			m, ok := probeMeta(a, vals)
			if !ok {
				return nil, false
			}
			margs[i] = m
		}
		mkw := make(map[string]any, len(fkw))
		for k, a := range fkw {
			m, ok := probeMeta(a, vals)
			if !ok {
				return nil, false
			}
			mkw[k] = m
		}
		res, err := op.CallMeta(sizers[p], margs, mkw)
		if err != nil {
			return nil, false
		}
		if p > 0 && len(sizers[p].ranges) != len(sizers[0].ranges) {
			return nil, false
		}
		for _, x := range res {
			t, isT := x.(*tensor.Tensor)
			if !isT || t == nil || !t.IsMeta() {
				return nil, false
			}
			results[p] = append(results[p], t)
		}
		if p > 0 && len(results[p]) != len(results[0]) {
			return nil, false
		}
	}
	if len(syms) == 0 && len(sizers[0].ranges) == 0 {
		return nil, false // static, and no data-dependent size
	}
	// The data-dependent sizes the meta function asked for: an unbacked
	// symbol each, allocated when a result dimension is found to be one.
	unbacked := make([]*sym.Symbol, len(sizers[0].ranges))
	for i, t := range results[0] {
		shape := make([]sym.Expr, t.Dim())
	dims:
		for d := range shape {
			var got [3]int64
			for p := range probes {
				if results[p][i].Dim() != t.Dim() {
					return nil, false
				}
				got[p] = int64(results[p][i].Shape()[d])
			}
			for k, rg := range sizers[0].ranges {
				match := true
				for p := range probes {
					match = match && sizers[p].vals[k] == got[p]
				}
				if match {
					if unbacked[k] == nil {
						unbacked[k] = r.env.NewUnbacked(rg)
					}
					shape[d] = unbacked[k].Expr()
					continue dims
				}
			}
			if got[0] == got[1] && got[1] == got[2] {
				shape[d] = sym.Const(got[0])
				continue
			}
			found := false
			for _, e := range dims {
				match := true
				for p, vals := range probes {
					v, err := e.Eval(vals)
					if err != nil || v != got[p] {
						match = false
						break
					}
				}
				if match {
					shape[d], found = e, true
					break
				}
			}
			if !found {
				return nil, false
			}
		}
		out = append(out, &shapeprop.Fake{DType: t.DType(), Shape: shape, Contiguous: t.IsContiguous()})
	}
	return out, true
}

// probeMeta is a fake argument as a meta tensor at the symbol values, or
// the argument itself when it is not a tensor.
func probeMeta(a any, vals map[*sym.Symbol]int64) (any, bool) {
	switch x := a.(type) {
	case *shapeprop.Fake:
		shape := make([]int, len(x.Shape))
		for i, d := range x.Shape {
			v, err := d.Eval(vals)
			if err != nil || v < 0 {
				return nil, false
			}
			shape[i] = int(v)
		}
		m, err := tensor.NewMeta(x.DType, shape...)
		return m, err == nil
	case sym.Expr:
		c, ok := x.Const()
		return c, ok
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			m, ok := probeMeta(e, vals)
			if !ok {
				return nil, false
			}
			out[i] = m
		}
		return out, true
	}
	return a, true
}

// probeSizer answers a meta function's Call.NewDynamicSize during one
// probe: the k-th size of probe p is a value of [min, max] that differs
// from probe to probe (when the range has three values), so that a result
// dimension equal to it at every probe is that data-dependent size.
type probeSizer struct {
	probe  int
	ranges []sym.Range
	vals   []int64
}

// NewDynamicSize implements ops.DynamicSizer.
func (s *probeSizer) NewDynamicSize(lo, hi int64) (int64, error) {
	k := int64(len(s.ranges))
	span := int64(1 << 20)
	if hi != sym.Inf && hi-lo+1 < span {
		span = hi - lo + 1
	}
	v := lo + (int64(s.probe)+3*k+2)%span
	s.ranges = append(s.ranges, sym.Range{Lo: lo, Hi: hi})
	s.vals = append(s.vals, v)
	return v, nil
}
