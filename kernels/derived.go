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
// have no kernel of their own.
//
// An in-place overload gets a generic kernel: it calls the functional
// overload (aten.add.Tensor for aten.add_.Tensor) with the same arguments
// and writes the result into self, with the checks ATen's TensorIterator
// makes for an in-place call (the result must keep self's shape, and its
// dtype must cast to self's by c10::canCast), then returns self itself.
// The generic kernels are installed only for in-place overloads whose
// functional overload has a kernel, which is why they are derived after
// all registration.

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
	origins[op(outName)] = origin{file: "derived.go", derivedFrom: fn}
}

// registerDerived installs the derived in-place kernels; it runs after
// every family has registered its functional kernels.
func registerDerived() {
	// out= variants in the core opset, computed by their functional
	// overload and written into out.
	registerOut("aten::atan2.out", "aten::atan2")
	ipRegisterGeneric(ops.Global())
}

// ipNoGeneric lists in-place operators that change self's metadata or
// storage rather than its values, which no functional result can give.
var ipNoGeneric = map[string]bool{
	"resize_": true, "resize_as_": true, "resize_as_sparse_": true, "_resize_output_": true,
	"set_": true, "rename_": true, "sparse_resize_": true, "sparse_resize_and_clear_": true,
	"_coalesced_": true, "detach_": true, "_amp_update_scale_": true,
}

// ipInplaceOps returns the in-place overloads of reg.
func ipInplaceOps(reg *ops.Registry) []*ops.Operator {
	var out []*ops.Operator
	for _, o := range reg.All() {
		if o.Has(ops.Inplace) {
			out = append(out, o)
		}
	}
	return out
}

// ipRegisterGeneric installs the generic kernel (and meta function) of
// every in-place overload of reg that has no kernel and whose functional
// overload has one.
func ipRegisterGeneric(reg *ops.Registry) {
	for _, o := range ipInplaceOps(reg) {
		s := o.Schema()
		if o.HasKernel() || ipNoGeneric[s.Name] {
			continue
		}
		fn := ipFunctional(reg, o)
		if fn == nil || !fn.HasKernel() {
			continue
		}
		rule := ipRuleOf(o)
		k := ipGeneric(fn, rule)
		o.SetKernel(k)
		if fn.HasMeta() {
			o.SetMeta(k)
		}
		origins[o] = origin{file: "derived.go", derivedFrom: fn}
	}
}

// ipFunctional returns the functional overload an in-place overload
// computes: the one of the same overload name when its arguments match
// (add.Tensor for add_.Tensor), else the only one whose arguments do
// (pow.Tensor_Scalar for pow_.Scalar, floor_divide.default for
// floor_divide_.Tensor). Views (squeeze for squeeze_) do not count: their
// in-place forms change self's shape.
func ipFunctional(reg *ops.Registry, o *ops.Operator) *ops.Operator {
	s := o.Schema()
	if len(s.Returns) != 1 || len(s.Args) == 0 || !ipIsTensor(s.Args[0].Type) {
		return nil
	}
	base := strings.TrimSuffix(s.Name, "_")
	ok := func(f *ops.Operator) bool {
		fs := f.Schema()
		return !f.Has(ops.Mutable) && !f.Has(ops.View) && len(fs.Returns) == 1 &&
			ipIsTensor(fs.Returns[0].Type) && ipSameArgs(s.Args, fs.Args)
	}
	if f, found := reg.Lookup(s.Namespace + "::" + base + "." + ipOverload(s)); found && ok(f) {
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

// ipOverload returns a schema's overload name, "default" when it has none.
func ipOverload(s *ops.Schema) string {
	if s.Overload == "" {
		return "default"
	}
	return s.Overload
}

// ipIsTensor reports whether t is Tensor (with any alias annotation).
func ipIsTensor(t *ops.Type) bool { return t.Kind == ops.Named && t.Name == "Tensor" }

// ipSameArgs reports whether an in-place overload's arguments a bind like
// the functional ones f: the same count, types (alias annotations aside)
// and keyword-only markers, and the same names for keyword-only ones
// (positional ones may differ: dropout_'s self is dropout's input).
func ipSameArgs(a, f []ops.Argument) bool {
	if len(a) != len(f) {
		return false
	}
	for i := range a {
		if a[i].KwargOnly != f[i].KwargOnly || !ipSameType(a[i].Type, f[i].Type) ||
			(a[i].KwargOnly && a[i].Name != f[i].Name) {
			return false
		}
	}
	return true
}

// ipSameType compares two types, ignoring alias annotations and treating
// SymInt as int.
func ipSameType(a, b *ops.Type) bool {
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
		if !ipSameType(a.Params[i], b.Params[i]) {
			return false
		}
	}
	return ipSameType(a.Elem, b.Elem)
}

// ipCheck says how an in-place overload checks the functional result
// against self: ATen writes most in place through TensorIterator, and a
// few through their own checks.
type ipCheck uint8

const (
	// ipIterator is TensorIterator's rule: the result shape must be
	// self's ("output with shape [3] doesn't match the broadcast shape
	// [2, 3]") and the result dtype must cast to self's by canCast.
	ipIterator ipCheck = iota
	// ipIteratorCpp is ipIterator with self's dtype named as a C++ type
	// ("long int"), as clamp_'s Scalar overloads report it.
	ipIteratorCpp
	// ipSameDType requires the result dtype to be self's ("Found dtype
	// Long but expected Float"): pow_ with a Scalar exponent, square_.
	ipSameDType
	// ipFloatPower is float_power_'s own dtype message.
	ipFloatPower
	// ipStructured is the check of structured kernels that do not use
	// TensorIterator (addmm_, cumsum_): "Bad in-place call: ..." for a
	// different shape or dtype.
	ipStructured
)

// ipRule is how the generic kernel of one in-place overload behaves.
type ipRule struct {
	check ipCheck
	// internal refuses a self whose elements share memory (an expanded
	// tensor), as TensorIterator and the structured kernels do.
	internal bool
	// partial refuses tensor arguments that partly overlap self in
	// memory, as TensorIterator does for its inputs.
	partial bool
	// keepDType ignores the result dtype: cumsum_ without a dtype
	// accumulates in self's dtype, which the functional overload
	// (promoting integers to int64) does not show.
	keepDType bool
}

// ipRuleOf returns the rule of in-place overload o.
func ipRuleOf(o *ops.Operator) ipRule {
	s := o.Schema()
	r := ipRule{check: ipIterator, internal: true, partial: o.Has(ops.Pointwise)}
	switch s.Name {
	case "clamp_", "clamp_min_", "clamp_max_", "clip_":
		if s.Overload == "" {
			r.check = ipIteratorCpp
		}
	case "pow_":
		if s.Overload == "Scalar" {
			r.check = ipSameDType
		}
	case "square_":
		r.check = ipSameDType
	case "float_power_":
		r.check = ipFloatPower
	case "addmm_", "addmv_", "addbmm_", "baddbmm_", "cumsum_", "cumprod_":
		r.check = ipStructured
		r.keepDType = s.Name == "cumsum_" || s.Name == "cumprod_"
	case "fill_", "zero_", "index_put_", "_index_put_impl_", "dropout_", "alpha_dropout_",
		"feature_dropout_", "feature_alpha_dropout_":
		r.internal = false
	}
	return r
}

// ipGeneric returns the generic in-place kernel (and meta function) that
// computes through functional overload fn under rule.
func ipGeneric(fn *ops.Operator, rule ipRule) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		s := c.Op.Schema()
		selfName := s.Args[0].Name
		self := c.Tensor(selfName)
		if err := ipOverlapChecks(c, self, rule); err != nil {
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
		args, kwargs := ipArgs(c)
		res, err := fn.Call(args, kwargs)
		if err != nil {
			if ipKernelError(err) {
				if perr := ipIteratorPrecheck(c, self, rule); perr != nil {
					return nil, perr
				}
			}
			return nil, ipRebind(c, fn, err, nil)
		}
		r, ok := res[0].(*tensor.Tensor)
		if !ok || r == nil {
			return nil, fmt.Errorf("internal error: %s returned %T, not a tensor", fn, res[0])
		}
		if err := ipCheckResult(c, selfName, self, r, rule); err != nil {
			return nil, err
		}
		if err := ipWrite(self, r); err != nil {
			return nil, c.Errorf(selfName, "%v", err)
		}
		return one(self), nil
	}
}

// ipKernelError reports whether err is one that ATen raises while
// computing (a dtype the kernel has no case for, an integer division by
// zero), after TensorIterator has checked the output: then those checks
// decide which error an in-place call reports.
func ipKernelError(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "not implemented for") || strings.Contains(msg, "ZeroDivisionError")
}

// ipIteratorPrecheck makes TensorIterator's output checks for an in-place
// call whose functional overload failed while computing: the broadcast
// shape of the tensor arguments must be self's, and their result type (with
// a Scalar other) must cast to self's dtype.
func ipIteratorPrecheck(c *ops.Call, self *tensor.Tensor, rule ipRule) error {
	if rule.check != ipIterator && rule.check != ipIteratorCpp {
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
	return ipCheckResult(c, selfName, self, tensor.Must(tensor.NewMeta(dt, shape...)), rule)
}

// ipArgs returns the bound arguments of c as a call would pass them:
// positional ones in order, keyword-only ones by name.
func ipArgs(c *ops.Call) ([]any, map[string]any) {
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

// ipRebind returns the error err of a call to callee made on behalf of c,
// blaming the argument of c that the callee's argument stands for. With a
// nil rename that is the argument at the same position (an in-place
// overload calling its functional one); otherwise it is rename[name] when
// present (an empty name blames none), else the argument of c of the same
// name, if any.
func ipRebind(c *ops.Call, callee *ops.Operator, err error, rename map[string]string) error {
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

// ipCheckResult checks the functional result r against self under rule.
func ipCheckResult(c *ops.Call, selfName string, self, r *tensor.Tensor, rule ipRule) error {
	sd, rd := self.DType(), r.DType()
	if rule.check == ipStructured {
		if !rule.keepDType && rd != sd {
			return c.Errorf(selfName, "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
				demangledTypeName(sd), demangledTypeName(rd))
		}
		if !slices.Equal(self.Shape(), r.Shape()) {
			return c.Errorf(selfName, "Bad in-place call: input tensor size %s and output tensor size %s should match",
				cvShapeString(self.Shape()), cvShapeString(r.Shape()))
		}
		return nil
	}
	if !slices.Equal(self.Shape(), r.Shape()) {
		return c.Errorf(selfName, "output with shape %s doesn't match the broadcast shape %s",
			cvShapeString(self.Shape()), cvShapeString(r.Shape()))
	}
	switch rule.check {
	case ipSameDType:
		if rd != sd {
			return c.Errorf(selfName, "Found dtype %s but expected %s", scalarTypeName(sd), scalarTypeName(rd))
		}
	case ipFloatPower:
		if rd != sd {
			return c.Errorf(selfName, "the base given to float_power_ has dtype %s but the operation's result requires dtype %s",
				scalarTypeName(sd), scalarTypeName(rd))
		}
	case ipIteratorCpp:
		if !ipCanCast(rd, sd) {
			return c.Errorf(selfName, "result type %s can't be cast to the desired output type %s", scalarTypeName(rd), demangledTypeName(sd))
		}
	default:
		if !ipCanCast(rd, sd) {
			return c.Errorf(selfName, "result type %s can't be cast to the desired output type %s", scalarTypeName(rd), scalarTypeName(sd))
		}
	}
	return nil
}

// ipCanCast is c10::canCast: a value of dtype from may be written into a
// tensor of dtype to unless that turns floats into integers or non-bools
// into bools.
func ipCanCast(from, to tensor.DType) bool {
	if from.IsFloat() && to.IsIntegral(false) {
		return false
	}
	return from == tensor.Bool || to != tensor.Bool
}

// ipWrite copies r into self (strided self included), converting its
// dtype; r sharing self's memory is copied out first, unless it is self.
func ipWrite(self, r *tensor.Tensor) error {
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

// ipOverlapChecks refuses, as rule asks, a self with internal overlap and
// tensor arguments that partly overlap self.
func ipOverlapChecks(c *ops.Call, self *tensor.Tensor, rule ipRule) error {
	s := c.Op.Schema()
	if rule.internal && ipInternalOverlap(self) {
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
			if t != nil && t != self && ipPartialOverlap(self, t) {
				return c.Errorf(a.Name, "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.")
			}
		}
	}
	return nil
}

// ipInternalOverlap is ATen's has_internal_overlap answering YES: a
// dimension of size > 1 with stride 0 (an expanded tensor). ATen's
// TOO_HARD cases pass, as they do there.
func ipInternalOverlap(t *tensor.Tensor) bool {
	strides := t.Strides()
	for i, n := range t.Shape() {
		if n > 1 && strides[i] == 0 {
			return true
		}
	}
	return false
}

// ipDense is ATen's is_non_overlapping_and_dense: some order of the
// dimensions makes t contiguous.
func ipDense(t *tensor.Tensor) bool {
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

// ipPartialOverlap is ATen's get_overlap_status answering PARTIAL for two
// tensors: both dense, in one storage, their memory ranges intersecting
// without being the same elements in the same layout.
func ipPartialOverlap(a, b *tensor.Tensor) bool {
	if !a.SharesStorage(b) || a.Numel() == 0 || b.Numel() == 0 || !ipDense(a) || !ipDense(b) {
		return false
	}
	aBegin, bBegin := a.Offset(), b.Offset()
	aEnd, bEnd := aBegin+a.Numel(), bBegin+b.Numel()
	if aBegin == bBegin && aEnd == bEnd {
		return !slices.Equal(a.Strides(), b.Strides())
	}
	return aBegin < bEnd && bBegin < aEnd
}
