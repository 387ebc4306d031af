package kernels

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Derived variants, registered after every family (register.go): the
// in-place overloads (add_, relu_, clamp_, ...) and out= overloads that
// have no kernel of their own, and the *_copy forms of the view
// operators.
//
// An out= overload (atan2.out, kthvalue.values, sort.values, ...) gets a
// kernel that calls the functional overload with its arguments minus the
// out= tensors and writes each result into its out= tensor (registerOuts).
//
// An in-place overload gets a generic kernel: it calls the functional
// overload (aten.add.Tensor for aten.add_.Tensor) with the same arguments
// and writes the result into self, with the checks ATen's TensorIterator
// makes for an in-place call (the result must keep self's shape, and its
// dtype must cast to self's by c10::canCast), then returns self itself.
// The generic kernels are installed only for in-place overloads whose
// functional overload has a kernel, which is why they are derived after
// all registration.

// registerDerived installs the derived out= and in-place kernels; init
// runs it after every family has registered its functional kernels.
func registerDerived() {
	// The *_copy operators first: their out= overloads derive from them.
	registerCopies(ops.Global())
	registerOuts(ops.Global())
	registerGeneric(ops.Global())
}

// registerCopies installs the kernels of the *_copy operators
// (view_copy, permute_copy, select_copy.int, split_copy.Tensor, ...), the
// out-of-place forms of the view operators that functionalized programs
// call: each calls its view operator (the same name without _copy, the
// same overload and arguments) and returns contiguous copies of its
// results.
func registerCopies(reg *ops.Registry) {
	for _, o := range reg.All() {
		s := o.Schema()
		if o.HasKernel() || !strings.HasSuffix(s.Name, "_copy") || o.Has(ops.Mutable) {
			continue
		}
		base, ok := reg.Lookup(s.Namespace + "::" + strings.TrimSuffix(s.Name, "_copy") + "." + overload(s))
		if !ok || !base.HasKernel() || !sameArgs(s.Args, base.Schema().Args) || len(s.Returns) != len(base.Schema().Returns) {
			continue
		}
		k := copyOf(base)
		o.SetKernel(k)
		if base.HasMeta() {
			o.SetMeta(k)
		}
		origins[o] = origin{file: registering, derivedFrom: base}
	}
}

// copyOf returns the kernel of the _copy form of view operator base.
func copyOf(base *ops.Operator) ops.Kernel {
	cp := func(t *tensor.Tensor) *tensor.Tensor {
		if t.IsMeta() {
			return t.Meta()
		}
		return t.Contiguous().Clone()
	}
	return func(c *ops.Call) ([]any, error) {
		args := make([]any, 0, len(c.Op.Schema().Args))
		kw := map[string]any{}
		for _, a := range c.Op.Schema().Args {
			if a.KwargOnly {
				kw[a.Name] = c.Arg(a.Name)
			} else {
				args = append(args, c.Arg(a.Name))
			}
		}
		out, err := base.Call(args, kw)
		if err != nil {
			return nil, rebind(c, base, err, nil)
		}
		for i, v := range out {
			switch v := v.(type) {
			case *tensor.Tensor:
				out[i] = cp(v)
			case []*tensor.Tensor:
				ts := make([]*tensor.Tensor, len(v))
				for j, t := range v {
					ts[j] = cp(t)
				}
				out[i] = ts
			}
		}
		return out, nil
	}
}

// noGeneric lists in-place operators that change self's metadata or
// storage rather than its values, which no functional result can give.
var noGeneric = map[string]bool{
	"resize_": true, "resize_as_": true, "resize_as_sparse_": true, "_resize_output_": true,
	"set_": true, "rename_": true, "sparse_resize_": true, "sparse_resize_and_clear_": true,
	"_coalesced_": true, "detach_": true, "_amp_update_scale_": true,
}

// inplaceOps returns the in-place overloads of reg.
func inplaceOps(reg *ops.Registry) []*ops.Operator {
	var out []*ops.Operator
	for _, o := range reg.All() {
		if o.Has(ops.Inplace) {
			out = append(out, o)
		}
	}
	return out
}

// registerGeneric installs the generic kernel (and meta function) of
// every in-place overload of reg that has no kernel and whose functional
// overload has one.
func registerGeneric(reg *ops.Registry) {
	for _, o := range inplaceOps(reg) {
		s := o.Schema()
		if o.HasKernel() || noGeneric[s.Name] {
			continue
		}
		fn := functional(reg, o)
		if s.Name == "polygamma_" {
			fn = op("aten::polygamma")
		}
		if fn == nil || !fn.HasKernel() {
			continue
		}
		rule := ruleOf(o)
		k := generic(fn, rule)
		o.SetKernel(guardWrites(o, k))
		if fn.HasMeta() {
			o.SetMeta(k)
		}
		origins[o] = origin{file: registering, derivedFrom: fn}
	}
}

// functional returns the functional overload an in-place overload
// computes: the one of the same overload name when its arguments match
// (add.Tensor for add_.Tensor), else the only one whose arguments do
// (pow.Tensor_Scalar for pow_.Scalar, floor_divide.default for
// floor_divide_.Tensor). Views (squeeze for squeeze_) do not count: their
// in-place forms change self's shape.
func functional(reg *ops.Registry, o *ops.Operator) *ops.Operator {
	s := o.Schema()
	if len(s.Returns) != 1 || len(s.Args) == 0 || !isTensor(s.Args[0].Type) {
		return nil
	}
	base := strings.TrimSuffix(s.Name, "_")
	ok := func(f *ops.Operator) bool {
		fs := f.Schema()
		return !f.Has(ops.Mutable) && !f.Has(ops.View) && len(fs.Returns) == 1 &&
			isTensor(fs.Returns[0].Type) && sameArgs(s.Args, fs.Args)
	}
	if f, found := reg.Lookup(s.Namespace + "::" + base + "." + overload(s)); found && ok(f) {
		return f
	}
	var match *ops.Operator
	for _, f := range reg.Overloads(s.Namespace, base) {
		if ok(f) {
			if match != nil {
				return nil
			}
			match = f
		}
	}
	return match
}

// overload returns a schema's overload name, "default" when it has none.
func overload(s *ops.Schema) string {
	if s.Overload == "" {
		return "default"
	}
	return s.Overload
}

// isTensor reports whether t is Tensor (with any alias annotation).
func isTensor(t *ops.Type) bool { return t.Kind == ops.Named && t.Name == "Tensor" }

// sameArgs reports whether an in-place overload's arguments a bind like
// the functional ones f: the same count, types (alias annotations aside)
// and keyword-only markers, and the same names for keyword-only ones
// (positional ones may differ: dropout_'s self is dropout's input).
func sameArgs(a, f []ops.Argument) bool {
	if len(a) != len(f) {
		return false
	}
	for i := range a {
		if a[i].KwargOnly != f[i].KwargOnly || !sameType(a[i].Type, f[i].Type) ||
			(a[i].KwargOnly && a[i].Name != f[i].Name) {
			return false
		}
	}
	return true
}

// sameType compares two types, ignoring alias annotations and treating
// SymInt as int.
func sameType(a, b *ops.Type) bool {
	if a == nil || b == nil {
		return a == b
	}
	name := func(n string) string {
		if n == "SymInt" {
			return "int"
		}
		return n
	}
	if a.Kind != b.Kind || name(a.Name) != name(b.Name) || a.Size != b.Size || len(a.Params) != len(b.Params) {
		return false
	}
	for i := range a.Params {
		if !sameType(a.Params[i], b.Params[i]) {
			return false
		}
	}
	return sameType(a.Elem, b.Elem)
}

// inplaceCheck says how an in-place overload checks the functional result
// against self: ATen writes most in place through TensorIterator, and a
// few through their own checks.
type inplaceCheck uint8

const (
	// iterator is TensorIterator's rule: the result shape must be
	// self's ("output with shape [3] doesn't match the broadcast shape
	// [2, 3]") and the result dtype must cast to self's by canCast.
	iterator inplaceCheck = iota
	// iteratorCpp is iterator with self's dtype named as a C++ type
	// ("long int"), as clamp_'s Scalar overloads report it.
	iteratorCpp
	// sameDType requires the result dtype to be self's ("Found dtype
	// Long but expected Float"): pow_ with a Scalar exponent, square_.
	sameDType
	// floatPower is float_power_'s own dtype message.
	floatPower
	// structured is the check of structured kernels that do not use
	// TensorIterator (addmm_, cumsum_): "Bad in-place call: ..." for a
	// different shape or dtype.
	structured
)

// inplaceRule is how the generic kernel of one in-place overload behaves.
type inplaceRule struct {
	check inplaceCheck
	// internal refuses a self whose elements share memory (an expanded
	// tensor), as TensorIterator and the structured kernels do.
	internal bool
	// partial refuses tensor arguments that partly overlap self in
	// memory, as TensorIterator does for its inputs.
	partial bool
	// swapped calls the functional overload with the first two
	// arguments exchanged: polygamma_(self, n) is polygamma(n, self).
	swapped bool
	// keepDType ignores the result dtype: cumsum_ without a dtype
	// accumulates in self's dtype, which the functional overload
	// (promoting integers to int64) does not show.
	keepDType bool
}

// ruleOf returns the rule of in-place overload o.
func ruleOf(o *ops.Operator) inplaceRule {
	s := o.Schema()
	r := inplaceRule{check: iterator, internal: true, partial: o.Has(ops.Pointwise)}
	switch s.Name {
	case "clamp_", "clamp_min_", "clamp_max_", "clip_":
		if s.Overload == "" {
			r.check = iteratorCpp
		}
	case "pow_":
		if s.Overload == "Scalar" {
			r.check = sameDType
		}
	case "square_":
		r.check = sameDType
	case "float_power_":
		r.check = floatPower
	case "addmm_", "addmv_", "addbmm_", "baddbmm_", "cumsum_", "cumprod_":
		r.check = structured
		r.keepDType = s.Name == "cumsum_" || s.Name == "cumprod_"
	case "polygamma_":
		r.swapped = true
	case "fill_", "zero_", "index_put_", "_index_put_impl_", "dropout_", "alpha_dropout_",
		"feature_dropout_", "feature_alpha_dropout_":
		r.internal = false
	}
	return r
}

// generic returns the generic in-place kernel (and meta function) that
// computes through functional overload fn under rule.
func generic(fn *ops.Operator, rule inplaceRule) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		s := c.Op.Schema()
		selfName := s.Args[0].Name
		self := c.Tensor(selfName)
		if err := overlapChecks(c, self, rule); err != nil {
			return nil, err
		}
		if rule.keepDType {
			if dt, set := c.DType("dtype"); set && dt != self.DType() {
				return nil, c.Errorf("dtype", "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
					demangledTypeName(self.DType()), demangledTypeName(dt))
			}
			// ATen's cumsum_out_cpu and cumprod_out_cpu, which write
			// self, have no bool or float16 case (the functional
			// overloads compute those in int64 and float16).
			if self.DType() == tensor.Bool || self.DType() == tensor.Float16 {
				return nil, notImplemented(c, selfName, strings.TrimSuffix(s.Name, "_")+"_out_cpu", self.DType())
			}
		}
		args, kwargs := callArgs(c)
		var rename map[string]string
		if rule.swapped {
			args[0], args[1] = args[1], args[0]
			rename = map[string]string{} // blame the argument of the same name
		}
		res, err := fn.Call(args, kwargs)
		if err != nil {
			if kernelError(err) {
				if perr := iteratorPrecheck(c, self, rule); perr != nil {
					return nil, perr
				}
			}
			return nil, rebind(c, fn, err, rename)
		}
		r, ok := res[0].(*tensor.Tensor)
		if !ok || r == nil {
			return nil, fmt.Errorf("internal error: %s returned %T, not a tensor", fn, res[0])
		}
		if err := checkResult(c, selfName, self, r, rule); err != nil {
			return nil, err
		}
		if err := write(self, r); err != nil {
			return nil, c.Errorf(selfName, "%v", err)
		}
		return one(self), nil
	}
}

// kernelError reports whether err is one that ATen raises while
// computing (a dtype the kernel has no case for, an integer division by
// zero), after TensorIterator has checked the output: then those checks
// decide which error an in-place call reports.
func kernelError(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "not implemented for") || strings.Contains(msg, "ZeroDivisionError")
}

// iteratorPrecheck makes TensorIterator's output checks for an in-place
// call whose functional overload failed while computing: the broadcast
// shape of the tensor arguments must be self's, and their result type (with
// a Scalar other) must cast to self's dtype.
func iteratorPrecheck(c *ops.Call, self *tensor.Tensor, rule inplaceRule) error {
	if rule.check != iterator && rule.check != iteratorCpp {
		return nil
	}
	var shapes [][]int
	var operands []any
	for _, a := range c.Op.Schema().Args {
		switch v := c.Arg(a.Name).(type) {
		case *tensor.Tensor:
			shapes = append(shapes, v.Shape())
			operands = append(operands, v)
		case ops.Scalar:
			if a.Name == "other" {
				operands = append(operands, v)
			}
		}
	}
	selfName := c.Op.Schema().Args[0].Name
	shape, err := ops.BroadcastShapes(shapes...)
	if err != nil {
		return nil
	}
	dt, err := ops.ResultType(operands...)
	if err != nil {
		return nil
	}
	return checkResult(c, selfName, self, tensor.Must(tensor.NewMeta(dt, shape...)), rule)
}

// callArgs returns the bound arguments of c as a call would pass them:
// positional ones in order, keyword-only ones by name.
func callArgs(c *ops.Call) ([]any, map[string]any) {
	var args []any
	kwargs := map[string]any{}
	for _, a := range c.Op.Schema().Args {
		if a.KwargOnly {
			kwargs[a.Name] = c.Arg(a.Name)
		} else {
			args = append(args, c.Arg(a.Name))
		}
	}
	return args, kwargs
}

// rebind returns the error err of a call to callee made on behalf of c,
// blaming the argument of c that the callee's argument stands for. With a
// nil rename that is the argument at the same position (an in-place
// overload calling its functional one); otherwise it is rename[name] when
// present (an empty name blames none), else the argument of c of the same
// name, if any.
func rebind(c *ops.Call, callee *ops.Operator, err error, rename map[string]string) error {
	var ce *ops.CallError
	if !errors.As(err, &ce) || ce.Op != callee.Schema().QualifiedName() {
		return err
	}
	args := c.Op.Schema().Args
	arg := ""
	if rename == nil {
		for i, a := range callee.Schema().Args {
			if a.Name == ce.Arg && i < len(args) {
				arg = args[i].Name
			}
		}
	} else if to, found := rename[ce.Arg]; found {
		arg = to
	} else {
		for _, a := range args {
			if a.Name == ce.Arg {
				arg = a.Name
			}
		}
	}
	if arg == "" {
		return ce.Err
	}
	return c.Errorf(arg, "%v", ce.Err)
}

// checkResult checks the functional result r against self under rule.
func checkResult(c *ops.Call, selfName string, self, r *tensor.Tensor, rule inplaceRule) error {
	sd, rd := self.DType(), r.DType()
	if rule.check == structured {
		if !rule.keepDType && rd != sd {
			return c.Errorf(selfName, "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
				demangledTypeName(sd), demangledTypeName(rd))
		}
		if !slices.Equal(self.Shape(), r.Shape()) {
			return c.Errorf(selfName, "Bad in-place call: input tensor size %s and output tensor size %s should match",
				shapeString(self.Shape()), shapeString(r.Shape()))
		}
		return nil
	}
	if !slices.Equal(self.Shape(), r.Shape()) {
		return c.Errorf(selfName, "output with shape %s doesn't match the broadcast shape %s",
			shapeString(self.Shape()), shapeString(r.Shape()))
	}
	switch rule.check {
	case sameDType:
		if rd != sd {
			return c.Errorf(selfName, "Found dtype %s but expected %s", scalarTypeName(sd), scalarTypeName(rd))
		}
	case floatPower:
		if rd != sd {
			return c.Errorf(selfName, "the base given to float_power_ has dtype %s but the operation's result requires dtype %s",
				scalarTypeName(sd), scalarTypeName(rd))
		}
	case iteratorCpp:
		if !canCast(rd, sd) {
			return c.Errorf(selfName, "result type %s can't be cast to the desired output type %s", scalarTypeName(rd), demangledTypeName(sd))
		}
	default:
		if !canCast(rd, sd) {
			return c.Errorf(selfName, "result type %s can't be cast to the desired output type %s", scalarTypeName(rd), scalarTypeName(sd))
		}
	}
	return nil
}

// canCast is c10::canCast: a value of dtype from may be written into a
// tensor of dtype to unless that turns floats into integers or non-bools
// into bools.
func canCast(from, to tensor.DType) bool {
	if from.IsFloat() && to.IsIntegral(false) {
		return false
	}
	return from == tensor.Bool || to != tensor.Bool
}

// write copies r into self (strided self included), converting its
// dtype; r sharing self's memory is copied out first, unless it is self.
func write(self, r *tensor.Tensor) error {
	if self.IsMeta() || r.IsMeta() || r == self {
		return nil
	}
	if r.SharesStorage(self) {
		if r.DType() == self.DType() && r.Offset() == self.Offset() && slices.Equal(r.Strides(), self.Strides()) {
			return nil
		}
		r = r.Clone()
	}
	return self.CopyFrom(r)
}

// overlapChecks refuses, as rule asks, a self with internal overlap and
// tensor arguments that partly overlap self.
func overlapChecks(c *ops.Call, self *tensor.Tensor, rule inplaceRule) error {
	s := c.Op.Schema()
	if rule.internal && internalOverlap(self) {
		return c.Errorf(s.Args[0].Name, "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.")
	}
	if !rule.partial {
		return nil
	}
	for _, a := range s.Args[1:] {
		var ts []*tensor.Tensor
		switch v := c.Arg(a.Name).(type) {
		case *tensor.Tensor:
			ts = []*tensor.Tensor{v}
		case []*tensor.Tensor:
			ts = v
		}
		for _, t := range ts {
			if t != nil && t != self && partialOverlap(self, t) {
				return c.Errorf(a.Name, "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.")
			}
		}
	}
	return nil
}

// internalOverlap is ATen's has_internal_overlap answering YES: a
// dimension of size > 1 with stride 0 (an expanded tensor). ATen's
// TOO_HARD cases pass, as they do there.
func internalOverlap(t *tensor.Tensor) bool {
	strides := t.Strides()
	for i, n := range t.Shape() {
		if n > 1 && strides[i] == 0 {
			return true
		}
	}
	return false
}

// isDense is ATen's is_non_overlapping_and_dense: some order of the
// dimensions makes t contiguous.
func isDense(t *tensor.Tensor) bool {
	shape, strides := t.Shape(), t.Strides()
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(i, j int) bool {
		a, b := perm[i], perm[j]
		if shape[a] < 2 {
			return false
		}
		if shape[b] < 2 {
			return true
		}
		return strides[a] < strides[b]
	})
	want := 1
	for _, d := range perm {
		if shape[d] < 2 {
			return true
		}
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}

// partialOverlap is ATen's get_overlap_status answering PARTIAL for two
// tensors: both dense, in one storage, their memory ranges intersecting
// without being the same elements in the same layout.
func partialOverlap(a, b *tensor.Tensor) bool {
	if !a.SharesStorage(b) || a.Numel() == 0 || b.Numel() == 0 || !isDense(a) || !isDense(b) {
		return false
	}
	aBegin, bBegin := a.Offset(), b.Offset()
	aEnd, bEnd := aBegin+a.Numel(), bBegin+b.Numel()
	if aBegin == bBegin && aEnd == bEnd {
		return !slices.Equal(a.Strides(), b.Strides())
	}
	return aBegin < bEnd && bBegin < aEnd
}

// Derived out= kernels.
//
// An out= overload takes the arguments of a functional overload of the same
// operator followed by keyword-only tensors it writes: out for one result
// (atan2.out, norm.out), or one per result (kthvalue.values writes values
// and indices). Its derived kernel calls the functional overload and writes
// each result into its out= tensor as ATen's out= kernels do:
//
//   - an out= tensor of the result's shape is written in place and
//     returned;
//   - one of another shape is resized first (ATen warns when it had
//     elements): gofx tensors cannot change shape, so, as aten::resize_
//     here, the returned tensor is a view of out's storage when that is
//     large enough, and a new tensor otherwise;
//   - its dtype must be the result's, except for the TensorIterator
//     operators (the pointwise ones and a few others), whose result is cast
//     to out's dtype when c10::canCast allows it. The reductions that take a
//     dtype (sum, prod, cumsum, cumprod) compute in out's dtype when none
//     is given, as ATen's do;
//   - the out= overloads of factory functions (zeros.out, arange.out,
//     hann_window.out, ...) call the factory with out's dtype.

// outRule says how a derived out= kernel checks an out= tensor's dtype.
type outRule struct {
	// cast lets the result be cast to out's dtype by canCast
	// (TensorIterator's out= rule).
	cast bool
	// useDType passes out's dtype as the functional overload's dtype
	// argument when the call gives none.
	useDType bool
	// factory passes out's dtype as the dtype of a factory function
	// (zeros.out, arange.start_out, hann_window.out), whose out= overload
	// has no dtype argument: the result has out's dtype.
	factory bool
	// msg, when set, is the op's own dtype error for out= tensor i with
	// dtype got, where the result has dtype want.
	msg func(i int, name string, want, got tensor.DType) string
}

// castOut are operators outside the Pointwise tag whose out= overloads go
// through TensorIterator and cast their result to out's dtype.
var castOut = map[string]bool{
	"mse_loss": true, "l1_loss": true, "smooth_l1_loss": true, "huber_loss": true,
	"logaddexp": true, "logaddexp2": true, "xlogy": true, "special_xlog1py": true,
	"sum": true, "nansum": true, "prod": true, "mean": true, "cumsum": true, "cumprod": true,
}

// dtypeOut are the reductions whose out= overloads compute in out's dtype
// when no dtype is given.
var dtypeOut = map[string]bool{"sum": true, "nansum": true, "prod": true, "cumsum": true, "cumprod": true}

// outMessages are the dtype errors of out= overloads that ATen checks with
// a message of their own; those require the result's dtype.
var outMessages = map[string]func(i int, name string, want, got tensor.DType) string{
	"kthvalue": func(i int, _ string, _, _ tensor.DType) string {
		if i == 0 {
			return "output values must be of same type as input"
		}
		return "output indices must be of scalar type Long"
	},
	"cummax": scalarTypeMsg, "cummin": scalarTypeMsg,
	"mode": func(i int, _ string, want, got tensor.DType) string {
		which := "values"
		if i == 1 {
			which = "indices"
		}
		return fmt.Sprintf("expected scalar type '%s' but got '%s' for %s output", scalarTypeName(want), scalarTypeName(got), which)
	},
	"searchsorted": searchsortedMsg, "bucketize": searchsortedMsg,
	"frexp": func(i int, _ string, want, got tensor.DType) string {
		if i == 0 {
			return fmt.Sprintf("torch.frexp() expects mantissa to have dtype %s but got %s", demangledTypeName(want), demangledTypeName(got))
		}
		return fmt.Sprintf("torch.frexp() expects exponent to have int dtype but got %s", demangledTypeName(got))
	},
	"index_select": func(int, string, tensor.DType, tensor.DType) string {
		return "index_select(): self and result must have the same scalar type"
	},
	"where": func(_ int, _ string, want, got tensor.DType) string {
		return fmt.Sprintf("Expected out type to be %s but got %s", scalarTypeName(want), scalarTypeName(got))
	},
	"binary_cross_entropy": foundDTypeMsg, "clamp": foundDTypeMsg, "clamp_min": foundDTypeMsg, "clamp_max": foundDTypeMsg,
	"amax": amaxMsg, "amin": amaxMsg,
	"all": func(_ int, _ string, _, got tensor.DType) string {
		return "all only supports bool tensor for result, got: " + scalarTypeName(got)
	},
	"any": func(_ int, _ string, _, got tensor.DType) string {
		return "any only supports bool tensor for result, got: " + scalarTypeName(got)
	},
	"median": medianMsg, "nanmedian": medianMsg,
}

// amaxMsg is amax's and amin's dtype error.
func amaxMsg(_ int, _ string, want, got tensor.DType) string {
	return fmt.Sprintf("Expected the dtype for input and out to match, but got %s for input's dtype and %s for out's dtype.", scalarTypeName(want), scalarTypeName(got))
}

// medianMsg is median's and nanmedian's dtype error for values (checked by
// ATen's checkScalarType, which names the legacy tensor types), and the
// usual one for indices.
func medianMsg(i int, _ string, want, got tensor.DType) string {
	if i == 0 {
		return fmt.Sprintf("Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type torch.%sTensor does not equal torch.%sTensor (while checking arguments for median)",
			scalarTypeName(got), scalarTypeName(want))
	}
	return fmt.Sprintf("Expected out tensor to have dtype %s, but got %s instead", demangledTypeName(want), demangledTypeName(got))
}

// scalarTypeMsg is cummax's and cummin's dtype error.
func scalarTypeMsg(_ int, _ string, want, got tensor.DType) string {
	return fmt.Sprintf("expected scalar_type %s but found %s", scalarTypeName(want), scalarTypeName(got))
}

// foundDTypeMsg is the dtype error of out= kernels that require the
// result's dtype through TensorIterator's common-dtype check.
func foundDTypeMsg(_ int, _ string, want, got tensor.DType) string {
	return fmt.Sprintf("Found dtype %s but expected %s", scalarTypeName(got), scalarTypeName(want))
}

// searchsortedMsg is searchsorted's and bucketize's dtype error.
func searchsortedMsg(_ int, _ string, want, got tensor.DType) string {
	flag := "False"
	if want == tensor.Int32 {
		flag = "True"
	}
	return fmt.Sprintf("torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype %s and out_int32 flag is %s",
		scalarTypeName(got), flag)
}

// splitOut returns the arguments of an out= schema before its out= tensors
// and the names of those: the trailing keyword-only Tensor arguments that
// are written. ok is false when s is not of that form.
func splitOut(s *ops.Schema) (in []ops.Argument, outs []string, ok bool) {
	n := len(s.Args)
	for n > 0 {
		a := s.Args[n-1]
		if !a.KwargOnly || !isTensor(a.Type) || a.Type.Alias == nil || !a.Type.Alias.Write {
			break
		}
		n--
	}
	for _, a := range s.Args[n:] {
		outs = append(outs, a.Name)
	}
	if len(outs) == 0 || (len(s.Returns) != 0 && len(s.Returns) != len(outs)) {
		return nil, nil, false
	}
	return s.Args[:n], outs, true
}

// outFunctional returns the functional overload an out= overload computes:
// among the overloads of the same operator that write nothing, take the
// arguments in and return nOut tensors, the one named like the out= overload
// without "_out" (dequantize.self for dequantize.self_out), else the only
// one.
func outFunctional(reg *ops.Registry, o *ops.Operator, in []ops.Argument, nOut int) *ops.Operator {
	s := o.Schema()
	named := strings.TrimSuffix(s.Overload, "_out")
	if s.Overload == "out" {
		named = ""
	}
	var match *ops.Operator
	n := 0
	for _, f := range reg.Overloads(s.Namespace, s.Name) {
		fs := f.Schema()
		if f.Has(ops.Mutable) != writes(in) || f.Has(ops.View) || len(fs.Returns) != nOut || !sameArgs(in, fs.Args) || !sameWrites(in, fs.Args) ||
			slices.ContainsFunc(fs.Returns, func(r ops.Argument) bool { return !isTensor(r.Type) }) {
			continue
		}
		if fs.Overload == named {
			return f
		}
		match = f
		n++
	}
	if n != 1 {
		return nil
	}
	return match
}

// tensorOptions are the keyword-only arguments of factory functions that
// their out= overloads take from out.
var tensorOptions = map[string]bool{"dtype": true, "layout": true, "device": true, "pin_memory": true}

// factoryFunctional returns the factory function an out= overload of one
// result computes: the only overload of the same operator that writes
// nothing, returns a tensor and takes the arguments in plus the optional
// keyword-only tensor options dtype, layout, device and pin_memory
// (zeros for zeros.out, arange.start_step for arange.start_out).
func factoryFunctional(reg *ops.Registry, o *ops.Operator, in []ops.Argument) *ops.Operator {
	s := o.Schema()
	var match *ops.Operator
	for _, f := range reg.Overloads(s.Namespace, s.Name) {
		fs := f.Schema()
		if f.Has(ops.Mutable) || f.Has(ops.View) || len(fs.Returns) != 1 || !isTensor(fs.Returns[0].Type) {
			continue
		}
		var rest []ops.Argument
		options := false
		for _, a := range fs.Args {
			if a.KwargOnly && tensorOptions[a.Name] && a.Type.Kind == ops.OptionalOf {
				options = a.Name == "dtype" || options
				continue
			}
			rest = append(rest, a)
		}
		if !options || !sameArgs(in, rest) {
			continue
		}
		if match != nil {
			return nil
		}
		match = f
	}
	return match
}

// registerOuts installs the derived kernel (and meta function) of every
// out= overload of reg that has no kernel and whose functional overload has
// one.
func registerOuts(reg *ops.Registry) {
	for _, o := range reg.All() {
		s := o.Schema()
		if o.HasKernel() || !o.Has(ops.Mutable) || o.Has(ops.Inplace) {
			continue
		}
		if registerListOut(reg, o) {
			continue
		}
		in, outs, ok := splitOut(s)
		if !ok {
			continue
		}
		fn := outFunctional(reg, o, in, len(outs))
		if fn == nil && s.Name == "normal" && s.Overload == "out" {
			// normal.out(self, mean, std) is the out= form of
			// normal_functional, named apart from normal's overloads.
			fn, _ = reg.Lookup("aten::normal_functional")
		}
		factory := false
		if fn == nil && len(outs) == 1 {
			fn, factory = factoryFunctional(reg, o, in), true
		}
		if fn == nil || !fn.HasKernel() {
			continue
		}
		rule := outRule{
			cast:     (o.Has(ops.Pointwise) || fn.Has(ops.Pointwise) || castOut[s.Name]) && outMessages[s.Name] == nil,
			useDType: dtypeOut[s.Name],
			factory:  factory,
			msg:      outMessages[s.Name],
		}
		k := outKernel(fn, len(in), outs, rule)
		o.SetKernel(guardWrites(o, k))
		if fn.HasMeta() {
			o.SetMeta(k)
		}
		origins[o] = origin{file: registering, derivedFrom: fn}
	}
}

// outKernel returns the derived kernel of an out= overload whose first nIn
// arguments are fn's and whose out= tensors are named outs.
func outKernel(fn *ops.Operator, nIn int, outs []string, rule outRule) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		s := c.Op.Schema()
		var args []any
		kwargs := map[string]any{}
		for _, a := range s.Args[:nIn] {
			v := c.Arg(a.Name)
			if rule.useDType && a.Name == "dtype" && v == nil {
				v = c.Tensor(outs[0]).DType()
			}
			if a.KwargOnly {
				kwargs[a.Name] = v
			} else {
				args = append(args, v)
			}
		}
		if rule.factory {
			kwargs["dtype"] = c.Tensor(outs[0]).DType()
		}
		res, err := fn.Call(args, kwargs)
		if err != nil {
			return nil, rebind(c, fn, err, nil)
		}
		written := make([]any, len(outs))
		for i, name := range outs {
			r, ok := res[i].(*tensor.Tensor)
			if !ok || r == nil {
				return nil, fmt.Errorf("internal error: %s returned %T, not a tensor", fn, res[i])
			}
			w, err := writeOut(c, name, i, c.Tensor(name), r, rule)
			if err != nil {
				return nil, err
			}
			written[i] = w
		}
		if len(s.Returns) == 0 {
			return nil, nil
		}
		return written, nil
	}
}

// writeOut checks out= tensor out (argument name, the i-th) against result
// r under rule, resizes it to r's shape when it has another, writes r into
// it and returns it.
func writeOut(c *ops.Call, name string, i int, out, r *tensor.Tensor, rule outRule) (*tensor.Tensor, error) {
	if od, rd := out.DType(), r.DType(); od != rd && !(rule.cast && canCast(rd, od)) {
		switch {
		case rule.msg != nil:
			return nil, c.Errorf(name, "%s", rule.msg(i, name, rd, od))
		case rule.cast:
			return nil, c.Errorf(name, "result type %s can't be cast to the desired output type %s", scalarTypeName(rd), scalarTypeName(od))
		default:
			return nil, c.Errorf(name, "Expected out tensor to have dtype %s, but got %s instead", demangledTypeName(rd), demangledTypeName(od))
		}
	}
	if out.IsMeta() || r.IsMeta() {
		if slices.Equal(out.Shape(), r.Shape()) {
			return out, nil
		}
		return tensor.Must(tensor.NewMeta(out.DType(), r.Shape()...)), nil
	}
	if !slices.Equal(out.Shape(), r.Shape()) {
		shape := make([]int64, r.Dim())
		for d, n := range r.Shape() {
			shape[d] = int64(n)
		}
		res, err := op("aten::resize_").Call([]any{out, shape}, nil)
		if err != nil {
			return nil, c.Errorf(name, "%v", err)
		}
		out = res[0].(*tensor.Tensor)
	} else if internalOverlap(out) {
		return nil, c.Errorf(name, "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.")
	}
	if err := write(out, r); err != nil {
		return nil, c.Errorf(name, "%v", err)
	}
	return out, nil
}

// writes reports whether any of args is written (an alias annotation with
// "!"): _native_batch_norm_legit.out writes running_mean and running_var
// as its functional overload does.
func writes(args []ops.Argument) bool {
	return slices.ContainsFunc(args, func(a ops.Argument) bool { return written(a.Type) })
}

// written reports whether type t, or the element type of a list t, is
// annotated as written.
func written(t *ops.Type) bool {
	if t.Alias != nil && t.Alias.Write {
		return true
	}
	return t.Kind == ops.ListOf && t.Elem != nil && t.Elem.Alias != nil && t.Elem.Alias.Write
}

// sameWrites reports whether the arguments a and f are written at the same
// positions.
func sameWrites(a, f []ops.Argument) bool {
	if len(a) != len(f) {
		return false
	}
	for i := range a {
		if written(a[i].Type) != written(f[i].Type) {
			return false
		}
	}
	return true
}

// Out= overloads with a list of outs (split_copy.Tensor_out(self,
// split_size, dim, *, Tensor(a!)[] out) -> (), unbind_copy.int_out, ...)
// are ATen's generated out= wrappers of an operator returning Tensor[]:
// they call the functional overload, require as many out= tensors as it
// returns results ("split_copy_Tensor_out() expected an out= argument of
// size 3, got size 1") and copy each result into its out= tensor with
// copy_, which broadcasts the result to out's shape and casts it to out's
// dtype; out is never resized. ATen's own kernels of split_with_sizes_copy.out,
// unsafe_split.Tensor_out and unsafe_split_with_sizes.out instead resize
// each out= tensor to its result's shape and require the result's dtype,
// as single out= tensors are (writeOut): a resized out= tensor that does not
// keep its shape replaces the list's element, the one place a gofx list
// can show ATen's in-place resize to the caller.

// resizeListOut are the operators whose list out= overload resizes.
var resizeListOut = map[string]bool{"split_with_sizes_copy": true, "unsafe_split": true, "unsafe_split_with_sizes": true}

// noListOut are list out= overloads left underived: PyTorch 2.6 fails
// them with an internal assert (quantize_per_tensor.tensors_out: "cannot
// call qscheme on UnknownQuantizer").
var noListOut = map[string]bool{"quantize_per_tensor": true}

// registerListOut installs the derived kernel (and meta function) of o when
// o is an out= overload with a list of outs whose functional overload has a
// kernel, and reports whether o is such an overload at all.
func registerListOut(reg *ops.Registry, o *ops.Operator) bool {
	s := o.Schema()
	n := len(s.Args)
	if n == 0 || len(s.Returns) != 0 {
		return false
	}
	last := s.Args[n-1]
	if !last.KwargOnly || last.Type.Kind != ops.ListOf || !isTensor(last.Type.Elem) || !written(last.Type) {
		return false
	}
	in := s.Args[:n-1]
	var fn *ops.Operator
	for _, f := range reg.Overloads(s.Namespace, s.Name) {
		fs := f.Schema()
		if f.Has(ops.Mutable) || f.Has(ops.View) || len(fs.Returns) != 1 || fs.Returns[0].Type.Kind != ops.ListOf ||
			!isTensor(fs.Returns[0].Type.Elem) || !sameArgs(in, fs.Args) {
			continue
		}
		if fn != nil {
			return true // two candidates: derive none
		}
		fn = f
	}
	if fn == nil || !fn.HasKernel() || noListOut[s.Name] {
		return true
	}
	k := listOutKernel(fn, len(in), last.Name, resizeListOut[s.Name])
	o.SetKernel(guardWrites(o, k))
	if fn.HasMeta() {
		o.SetMeta(k)
	}
	origins[o] = origin{file: registering, derivedFrom: fn}
	return true
}

// listOutKernel returns the derived kernel of an out= overload whose first
// nIn arguments are fn's and whose list of out= tensors is named name;
// resize says whether it resizes its out= tensors (else it copies).
func listOutKernel(fn *ops.Operator, nIn int, name string, resize bool) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		s := c.Op.Schema()
		args, kwargs := callArgs(c)
		delete(kwargs, name)
		if len(args) > nIn {
			args = args[:nIn]
		}
		res, err := fn.Call(args, kwargs)
		if err != nil {
			return nil, rebind(c, fn, err, nil)
		}
		rs, ok := res[0].([]*tensor.Tensor)
		if !ok {
			return nil, fmt.Errorf("internal error: %s returned %T, not a list of tensors", fn, res[0])
		}
		outs := c.Tensors(name)
		if len(outs) != len(rs) {
			return nil, c.Errorf(name, "%s_%s() expected an out= argument of size %d, got size %d",
				s.Name, overload(s), len(rs), len(outs))
		}
		for i, out := range outs {
			if out == nil {
				return nil, c.Errorf(name, "out= tensor %d is None", i)
			}
			if resize {
				w, err := writeOut(c, name, i, out, rs[i], outRule{})
				if err != nil {
					return nil, err
				}
				outs[i] = w
				continue
			}
			if _, err := op("aten::copy_").Call([]any{out, rs[i]}, nil); err != nil {
				var ce *ops.CallError
				if errors.As(err, &ce) {
					err = ce.Err
				}
				return nil, c.Errorf(name, "%v", err)
			}
		}
		return nil, nil
	}
}
