package frontend

import (
	"math"
	"strings"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/types"
)

// opAliases are the operators NormalizeOps (normalize_ops.cpp) renames to
// their canonical name; the overload name stays.
var opAliases = map[string]string{
	"absolute": "abs", "absolute_": "abs_", "clip": "clamp", "clip_": "clamp_", "det": "linalg_det",
	"matrix_power": "linalg_matrix_power", "matrix_exp": "linalg_matrix_exp", "ger": "outer",
	"arccos": "acos", "arccos_": "acos_", "arcsin": "asin", "arcsin_": "asin_", "arctan": "atan",
	"arctan_": "atan_", "arctan2": "atan2", "arctan2_": "atan2_", "arccosh": "acosh", "arccosh_": "acosh_",
	"arcsinh": "asinh", "arcsinh_": "asinh_", "arctanh": "atanh", "arctanh_": "atanh_", "fix": "trunc",
	"fix_": "trunc_", "negative": "neg", "negative_": "neg_", "subtract": "sub", "subtract_": "sub_",
	"greater_equal": "ge", "greater_equal_": "ge_", "greater": "gt", "greater_": "gt_",
	"less_equal": "le", "less_equal_": "le_", "less": "lt", "less_": "lt_", "not_equal": "ne",
	"not_equal_": "ne_", "divide": "div", "divide_": "div_", "multiply": "mul", "multiply_": "mul_",
	"linalg_matmul": "matmul", "inverse": "linalg_inv", "true_divide": "div", "true_divide_": "div_",
	"concat": "cat", "concatenate": "cat", "row_stack": "vstack", "swapdims": "transpose",
	"swapdims_": "transpose_", "swapaxes": "transpose", "swapaxes_": "transpose_", "moveaxis": "movedim",
	"special_erf": "erf", "special_erfc": "erfc", "special_erfinv": "erfinv", "special_expit": "sigmoid",
	"special_exp2": "exp2", "special_expm1": "expm1", "special_logit": "logit",
	"special_logsumexp": "logsumexp", "special_round": "round", "special_log1p": "log1p",
	"special_sinc": "sinc", "special_digamma": "digamma", "special_psi": "digamma", "special_i0": "i0",
	"special_xlogy": "xlogy", "special_log_softmax": "log_softmax", "orgqr": "linalg_householder_product",
	"adjoint": "mH", "special_multigammaln": "mvlgamma", "special_polygamma": "polygamma",
	"special_softmax": "softmax", "special_gammainc": "igamma", "special_gammaincc": "igammac",
	"special_gammaln": "lgamma",
}

// normalizeOp renames an aten node whose operator is an alias, as
// NormalizeOps.
func (cu *CompilationUnit) normalizeOp(n *ir.Node) {
	ns, name, ok := strings.Cut(n.Kind, "::")
	if !ok || ns != "aten" || n.Op == nil {
		return
	}
	to, ok := opAliases[name]
	if !ok {
		return
	}
	ov := n.Op.Schema().Overload
	q := "aten::" + to
	if ov != "" {
		q += "." + ov
	}
	if o, found := cu.reg.Lookup(q); found {
		n.Kind, n.Op = "aten::"+to, o
	}
}

// constProp folds what ConstantPropagationImmutableTypes folds that the
// structure of a loaded graph depends on: a prim::If on a constant (its
// taken block moved in its place), prim::isinstance decided by the static
// type, and scalar operators (is/is not, not, Int/Float/Bool, comparisons,
// add/sub/mul/neg of numbers) whose inputs are all constants.
func constProp(e *emitter, b *ir.Block) (changed bool) {
	for i := 0; i < len(b.Nodes); i++ {
		n := b.Nodes[i]
		switch n.Kind {
		case "prim::If":
			if c, ok := constOf(n.Inputs[0]); ok {
				if cb, isBool := c.(bool); isBool {
					taken := n.Blocks[1]
					if cb {
						taken = n.Blocks[0]
					}
					for len(taken.Nodes) > 0 {
						_ = taken.Nodes[0].MoveBefore(n)
					}
					for k, o := range n.Outputs {
						o.ReplaceAllUsesWith(taken.Outputs[k])
					}
					_ = n.Destroy()
					i = -1 // the moved nodes are processed again
					changed = true
					continue
				}
			}
		case "prim::isinstance":
			a, ok := n.Attr("types")
			ts, ok2 := a.Value.([]types.Type)
			if !ok || !ok2 {
				break
			}
			if v, ok := staticIsinstance(n.Inputs[0].Type, ts); ok {
				e.replaceWithConstant(n, v)
				changed = true
				continue
			}
		}
		for _, bl := range n.Blocks {
			if constProp(e, bl) {
				changed = true
			}
		}
		if n.Op == nil || len(n.Outputs) != 1 {
			continue
		}
		args := make([]any, len(n.Inputs))
		all := true
		for k, in := range n.Inputs {
			v, ok := constOf(in)
			if !ok {
				all = false
				break
			}
			args[k] = v
		}
		if !all {
			continue
		}
		if v, ok := evalScalar(n.Kind, args); ok {
			e.replaceWithConstant(n, v)
			changed = true
		}
	}
	return changed
}

// staticIsinstance decides isinstance for a value of static type t.
func staticIsinstance(t types.Type, ts []types.Type) (bool, bool) {
	for _, c := range ts {
		if types.IsSubtype(t, c) {
			return true, true
		}
	}
	for _, c := range ts {
		if types.IsSubtype(c, t) {
			return false, false // it may be
		}
	}
	return false, true
}

func (e *emitter) replaceWithConstant(n *ir.Node, v any) {
	e.g.SetInsertBefore(n)
	t, err := constType(v)
	if err != nil {
		return
	}
	c := e.constant(v, t)
	n.Outputs[0].ReplaceAllUsesWith(c)
	_ = n.Destroy()
}

// constOf returns the value of a prim::Constant output.
func constOf(v *ir.Value) (any, bool) {
	n := v.Node()
	if n == nil || n.Kind != "prim::Constant" {
		return nil, false
	}
	if v.Type == types.Function {
		return nil, false
	}
	c, ok := n.ConstantValue()
	if !ok {
		return nil, false
	}
	switch c.(type) {
	case nil, int64, float64, bool, string:
		return c, true
	}
	return nil, false
}

// evalScalar evaluates a scalar operator on constants.
func evalScalar(kind string, a []any) (any, bool) {
	num := func(x any) (float64, bool) {
		switch v := x.(type) {
		case int64:
			return float64(v), true
		case float64:
			return v, true
		case bool:
			if v {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	switch kind {
	case "aten::__is__", "aten::__isnot__":
		if len(a) != 2 {
			return nil, false
		}
		var same bool
		switch {
		case a[0] == nil || a[1] == nil:
			same = a[0] == nil && a[1] == nil
		default:
			return nil, false
		}
		if kind == "aten::__isnot__" {
			same = !same
		}
		return same, true
	case "aten::__not__":
		if b, ok := a[0].(bool); ok && len(a) == 1 {
			return !b, true
		}
	case "aten::Float":
		if len(a) == 1 {
			if f, ok := num(a[0]); ok {
				return f, true
			}
		}
	case "aten::Int":
		if len(a) == 1 {
			if f, ok := num(a[0]); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
				if i, isInt := a[0].(int64); isInt {
					return i, true
				}
				return int64(f), true
			}
		}
	case "aten::Bool":
		if len(a) == 1 {
			if f, ok := num(a[0]); ok {
				return f != 0, true
			}
		}
	case "aten::neg":
		if len(a) == 1 {
			switch v := a[0].(type) {
			case int64:
				return -v, true
			case float64:
				return -v, true
			}
		}
	case "aten::eq", "aten::ne", "aten::lt", "aten::le", "aten::gt", "aten::ge":
		if len(a) != 2 {
			return nil, false
		}
		if s0, ok := a[0].(string); ok {
			s1, ok := a[1].(string)
			if !ok {
				return nil, false
			}
			c := strings.Compare(s0, s1)
			return cmpResult(kind, c), true
		}
		x, ok1 := num(a[0])
		y, ok2 := num(a[1])
		if !ok1 || !ok2 {
			return nil, false
		}
		c := 0
		if x < y {
			c = -1
		} else if x > y {
			c = 1
		} else if x != y {
			return kind == "aten::ne", true // NaN
		}
		return cmpResult(kind, c), true
	case "aten::add", "aten::sub", "aten::mul":
		if len(a) != 2 {
			return nil, false
		}
		x, ok1 := a[0].(int64)
		y, ok2 := a[1].(int64)
		if ok1 && ok2 {
			switch kind {
			case "aten::add":
				return x + y, true
			case "aten::sub":
				return x - y, true
			}
			return x * y, true
		}
		_, b0 := a[0].(bool)
		_, b1 := a[1].(bool)
		f, ok1 := num(a[0])
		g, ok2 := num(a[1])
		if !ok1 || !ok2 || b0 || b1 {
			return nil, false
		}
		switch kind {
		case "aten::add":
			return f + g, true
		case "aten::sub":
			return f - g, true
		}
		return f * g, true
	}
	return nil, false
}

func cmpResult(kind string, c int) bool {
	switch kind {
	case "aten::eq":
		return c == 0
	case "aten::ne":
		return c != 0
	case "aten::lt":
		return c < 0
	case "aten::le":
		return c <= 0
	case "aten::gt":
		return c > 0
	}
	return c >= 0
}
