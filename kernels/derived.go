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
	// out= variants in the core opset, computed by their functional
	// overload and written into out.
	registerOut("aten::atan2.out", "aten::atan2")
	registerGeneric(ops.Global())
	registerCopies(ops.Global())
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
	origins[op(outName)] = origin{file: registering, derivedFrom: fn}
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
		if fn == nil || !fn.HasKernel() {
			continue
		}
		rule := ruleOf(o)
		k := generic(fn, rule)
		o.SetKernel(k)
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
		res, err := fn.Call(args, kwargs)
		if err != nil {
			if kernelError(err) {
				if perr := iteratorPrecheck(c, self, rule); perr != nil {
					return nil, perr
				}
			}
			return nil, rebind(c, fn, err, nil)
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
