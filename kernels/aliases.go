package kernels

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gofx/gofx/ops"
)

// Operator aliases: the names PyTorch registers as operators of their own
// that compute exactly what another operator computes (absolute is abs,
// arccos is acos, greater is gt, divide is div, concat is cat, ...). ATen
// implements each as a one-line function calling its target; here one
// table maps every alias overload to its target, and one kernel forwards
// the call. The forwarding kernel is also the alias's meta function: the
// target's own dispatch runs its meta function on meta tensors.
//
// An alias is registered only when its target has a kernel, and not when
// a family already registered the alias itself, so the table may name
// targets other families add later. Their in-place and out= forms
// (absolute_, arccos_, greater_.Scalar, ...) are derived like every other
// (derived.go), from the functional alias.

// aliases maps each alias overload to the overload it forwards to. The
// two schemas must have the same arguments in the same order, of the same
// types (names may differ: det's self is linalg_det's A).
var aliases = map[string]string{
	"aten::__and__.Tensor":             "aten::bitwise_and.Tensor",
	"aten::__and__.Scalar":             "aten::bitwise_and.Scalar",
	"aten::__or__.Tensor":              "aten::bitwise_or.Tensor",
	"aten::__or__.Scalar":              "aten::bitwise_or.Scalar",
	"aten::__xor__.Tensor":             "aten::bitwise_xor.Tensor",
	"aten::__xor__.Scalar":             "aten::bitwise_xor.Scalar",
	"aten::__lshift__.Tensor":          "aten::bitwise_left_shift.Tensor",
	"aten::__lshift__.Scalar":          "aten::bitwise_left_shift.Tensor_Scalar",
	"aten::__rshift__.Tensor":          "aten::bitwise_right_shift.Tensor",
	"aten::__rshift__.Scalar":          "aten::bitwise_right_shift.Tensor_Scalar",
	"aten::index.Tensor_hacked_twin":   "aten::index.Tensor",
	"aten::index_put.hacked_twin":      "aten::index_put",
	"aten::split":                      "aten::split_with_sizes",
	"aten::absolute":                   "aten::abs",
	"aten::arccos":                     "aten::acos",
	"aten::arccosh":                    "aten::acosh",
	"aten::arcsin":                     "aten::asin",
	"aten::arcsinh":                    "aten::asinh",
	"aten::arctan":                     "aten::atan",
	"aten::arctanh":                    "aten::atanh",
	"aten::arctan2":                    "aten::atan2",
	"aten::negative":                   "aten::neg",
	"aten::fix":                        "aten::trunc",
	"aten::greater.Tensor":             "aten::gt.Tensor",
	"aten::greater.Scalar":             "aten::gt.Scalar",
	"aten::greater_equal.Tensor":       "aten::ge.Tensor",
	"aten::greater_equal.Scalar":       "aten::ge.Scalar",
	"aten::less.Tensor":                "aten::lt.Tensor",
	"aten::less.Scalar":                "aten::lt.Scalar",
	"aten::less_equal.Tensor":          "aten::le.Tensor",
	"aten::less_equal.Scalar":          "aten::le.Scalar",
	"aten::not_equal.Tensor":           "aten::ne.Tensor",
	"aten::not_equal.Scalar":           "aten::ne.Scalar",
	"aten::multiply.Tensor":            "aten::mul.Tensor",
	"aten::multiply.Scalar":            "aten::mul.Scalar",
	"aten::subtract.Tensor":            "aten::sub.Tensor",
	"aten::subtract.Scalar":            "aten::sub.Scalar",
	"aten::divide.Tensor":              "aten::div.Tensor",
	"aten::divide.Scalar":              "aten::div.Scalar",
	"aten::divide.Tensor_mode":         "aten::div.Tensor_mode",
	"aten::divide.Scalar_mode":         "aten::div.Scalar_mode",
	"aten::true_divide.Tensor":         "aten::div.Tensor",
	"aten::true_divide.Scalar":         "aten::div.Scalar",
	"aten::concat":                     "aten::cat",
	"aten::concatenate":                "aten::cat",
	"aten::row_stack":                  "aten::vstack",
	"aten::swapdims":                   "aten::transpose.int",
	"aten::swapaxes":                   "aten::transpose.int",
	"aten::moveaxis.int":               "aten::movedim.int",
	"aten::moveaxis.intlist":           "aten::movedim.intlist",
	"aten::clip":                       "aten::clamp",
	"aten::clip.Tensor":                "aten::clamp.Tensor",
	"aten::ger":                        "aten::outer",
	"aten::linalg_matmul":              "aten::matmul",
	"aten::det":                        "aten::linalg_det",
	"aten::inverse":                    "aten::linalg_inv",
	"aten::matrix_power":               "aten::linalg_matrix_power",
	"aten::orgqr":                      "aten::linalg_householder_product",
	"aten::special_expit":              "aten::sigmoid",
	"aten::special_exp2":               "aten::exp2",
	"aten::special_expm1":              "aten::expm1",
	"aten::special_log1p":              "aten::log1p",
	"aten::special_erf":                "aten::erf",
	"aten::special_erfc":               "aten::erfc",
	"aten::special_erfinv":             "aten::erfinv",
	"aten::special_logit":              "aten::logit",
	"aten::special_round":              "aten::round.decimals",
	"aten::special_sinc":               "aten::sinc",
	"aten::special_i0":                 "aten::i0",
	"aten::special_psi":                "aten::digamma",
	"aten::special_digamma":            "aten::digamma",
	"aten::special_gammaln":            "aten::lgamma",
	"aten::special_multigammaln":       "aten::mvlgamma",
	"aten::special_polygamma":          "aten::polygamma",
	"aten::special_softmax":            "aten::softmax.int",
	"aten::special_log_softmax":        "aten::log_softmax.int",
	"aten::special_logsumexp":          "aten::logsumexp",
	"aten::special_xlogy":              "aten::xlogy.Tensor",
	"aten::special_xlogy.other_scalar": "aten::xlogy.Scalar_Other",
	"aten::special_xlogy.self_scalar":  "aten::xlogy.Scalar_Self",
	"aten::special_modified_bessel_i0": "aten::i0",
}

// registerAliases registers the aliases whose target has a kernel. It
// runs after every other family (its row is the last of families).
func registerAliases() {
	for _, name := range slices.Sorted(maps.Keys(aliases)) {
		target := aliases[name]
		a, ok := ops.Global().Lookup(name)
		if !ok {
			panic(fmt.Sprintf("kernels: no alias %s in the registry", name))
		}
		t := op(target)
		if a.HasKernel() || !t.HasKernel() {
			continue
		}
		if err := sameArgTypes(a.Schema(), t.Schema()); err != nil {
			panic(fmt.Sprintf("kernels: alias %s of %s: %v", name, target, err))
		}
		registerBoth(name, forward(t))
	}
}

// sameArgTypes reports whether alias and target take arguments of the same
// types in the same order (special_log_softmax's dtype is keyword-only,
// log_softmax's is not: forward passes every argument by name). int and
// SymInt match, and so do Tensor[] and Tensor?[] (the TorchScript
// "hacked twins" of index and index_put).
func sameArgTypes(alias, target *ops.Schema) error {
	if len(alias.Args) != len(target.Args) {
		return fmt.Errorf("%d arguments, target has %d", len(alias.Args), len(target.Args))
	}
	for i, a := range alias.Args {
		b := target.Args[i]
		if argType(a.Type) != argType(b.Type) {
			return fmt.Errorf("argument %d is %s %s, target's is %s %s", i, a.Type, a.Name, b.Type, b.Name)
		}
	}
	return nil
}

// forward returns the kernel of an alias of target: it passes the bound
// arguments on by name (the target's name of the same position) and
// reports the target's errors against the alias's argument of the same
// position.
func forward(target *ops.Operator) ops.Kernel {
	ts := target.Schema()
	return func(c *ops.Call) ([]any, error) {
		as := c.Schema()
		kw := map[string]any{}
		rename := map[string]string{}
		for i, a := range as.Args {
			rename[ts.Args[i].Name] = a.Name
			kw[ts.Args[i].Name] = c.Arg(a.Name)
		}
		out, err := target.Call(nil, kw)
		if ce, ok := err.(*ops.CallError); ok {
			arg := ce.Arg
			if r, ok := rename[arg]; ok {
				arg = r
			}
			if arg == "" {
				return nil, ce.Err
			}
			return nil, c.Errorf(arg, "%v", ce.Err)
		}
		return out, err
	}
}

// argType is an argument type as sameArgTypes compares it.
func argType(t *ops.Type) string {
	return strings.NewReplacer("SymInt", "int", "Tensor?[]", "Tensor[]").Replace(t.String())
}
