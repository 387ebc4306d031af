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

// In-place operators (add_, relu_, clamp_, ...) and a few composites the
// nn and fx layers need: copy_, zero_, fill_.Tensor, contiguous,
// group_norm, instance_norm, conv_transpose1d and conv_transpose2d.
//
// Most in-place overloads get a generic kernel: it calls the functional
// overload (aten.add.Tensor for aten.add_.Tensor) with the same arguments
// and writes the result into self, with the checks ATen's TensorIterator
// makes for an in-place call (the result must keep self's shape, and its
// dtype must cast to self's by c10::canCast), then returns self itself.
//
// Why this file is named zz_inplace.go: the generic kernels are installed
// only for in-place overloads whose functional overload has a kernel, and
// those kernels are registered by the init functions of the other files
// of this package. Go runs a package's init functions in the order of its
// file names (the go command presents files to the compiler sorted), so
// the walk in this file's init sees every other registration. The ops
// package has no hook that runs after all registration, and a lazy walk
// (at first call) would leave Operator.HasKernel false for the in-place
// overloads until then.

func registerZzInplace() {
	registerBoth("aten::copy_", ipCopy("src"))
	registerBoth("aten::copy_.Tensor", ipCopy("other"))
	registerBoth("aten::zero_", ipZero)
	registerBoth("aten::fill_.Tensor", ipFillTensor)
	registerBoth("aten::contiguous", ipContiguous)
	registerBoth("aten::group_norm", ipGroupNorm)
	registerBoth("aten::instance_norm", ipInstanceNorm)
	registerBoth("aten::conv_transpose1d", func(c *ops.Call) ([]any, error) { return ipConvTranspose(c, 1) })
	registerBoth("aten::conv_transpose2d.input", func(c *ops.Call) ([]any, error) { return ipConvTranspose(c, 2) })
}

// registerDerived installs the derived in-place kernels; it runs after
// every family has registered its functional kernels.
func registerDerived() {
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
		origins[o] = origin{file: "zz_inplace.go", derivedFrom: fn}
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

// ipCopy returns the kernel of aten::copy_ (source argument src) or of
// TorchScript's copy_.Tensor (other): src broadcast to self's shape and
// converted to self's dtype (floats to integers truncate, as a cast does)
// is written into self, which is returned.
func ipCopy(srcName string) ops.Kernel {
	return func(c *ops.Call) ([]any, error) {
		self, src := c.Tensor("self"), c.Tensor(srcName)
		if self == src {
			return one(self), nil
		}
		// TensorIterator checks memory overlap before shapes.
		if err := ipOverlapChecks(c, self, ipRule{internal: true, partial: true}); err != nil {
			return nil, err
		}
		shape, err := ops.BroadcastShapes(self.Shape(), src.Shape())
		if err != nil {
			return nil, c.Errorf(srcName, "%v", err)
		}
		if !slices.Equal(shape, self.Shape()) {
			return nil, c.Errorf("self", "output with shape %s doesn't match the broadcast shape %s",
				cvShapeString(self.Shape()), cvShapeString(shape))
		}
		if err := ipWrite(self, src); err != nil {
			return nil, c.Errorf("self", "%v", err)
		}
		return one(self), nil
	}
}

// ipZero is aten::zero_: self filled with zeros, returned.
func ipZero(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.IsMeta() {
		return one(self), nil
	}
	if err := self.CopyFrom(tensor.Must(tensor.New(self.DType()))); err != nil {
		return nil, c.Errorf("self", "%v", err)
	}
	return one(self), nil
}

// ipFillTensor is aten::fill_.Tensor: fill_.Scalar with the value of a
// 0-d tensor.
func ipFillTensor(c *ops.Call) ([]any, error) {
	self, value := c.Tensor("self"), c.Tensor("value")
	if value.Dim() != 0 {
		return nil, c.Errorf("value", "fill_ only supports 0-dimension value tensor but got tensor with %d dimensions.", value.Dim())
	}
	if self.IsMeta() || value.IsMeta() {
		return one(self), nil
	}
	var v ops.Scalar
	switch dt := value.DType(); {
	case dt.IsFloat():
		v = ops.FloatScalar(value.Float64s()[0])
	case dt == tensor.Bool:
		v = ops.BoolScalar(value.Bools()[0])
	default:
		v = ops.IntScalar(value.Int64s()[0])
	}
	fill := op("aten::fill_.Scalar")
	out, err := fill.Call([]any{self, v}, nil)
	if err != nil {
		return nil, ipRebind(c, fill, err, nil)
	}
	return out, nil
}

// ipContiguous is aten::contiguous: self itself when it is contiguous in
// memory_format, else a copy that is (contiguous_format, or channels_last
// for 4-d and channels_last_3d for 5-d tensors).
func ipContiguous(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	f := c.Str("memory_format")
	switch f {
	case "", "0", "contiguous_format":
		if self.IsContiguous() {
			return one(self), nil
		}
		if self.IsMeta() {
			return one(tensor.Must(tensor.NewMeta(self.DType(), self.Shape()...))), nil
		}
		return one(self.Clone()), nil
	case "preserve_format":
		if self.IsContiguous() {
			return one(self), nil
		}
		return nil, c.Errorf("memory_format", "preserve memory format is unsupported by the contiguous operator")
	case "channels_last", "channels_last_3d":
		rank := 4
		if f == "channels_last_3d" {
			rank = 5
		}
		if self.Dim() != rank {
			return nil, c.Errorf("memory_format", "required rank %d tensor to use %s format", rank, f)
		}
		// Channels last: dims ordered (N, spatial..., C) in memory.
		order := []int{0}
		for d := 2; d < rank; d++ {
			order = append(order, d)
		}
		order = append(order, 1)
		if ipContiguousIn(self, order) || self.IsMeta() {
			return one(self), nil
		}
		back := make([]int, rank)
		for i, d := range order {
			back[d] = i
		}
		p := tensor.Must(self.Permute(order...)).Clone()
		return one(tensor.Must(p.Permute(back...))), nil
	}
	return nil, c.Errorf("memory_format", "unknown memory format %q", f)
}

// ipContiguousIn reports whether t is contiguous with its dimensions laid
// out in memory in order (outermost first), size-1 dimensions aside, as
// ATen's compute_channels_last_contiguous_2d/3d do.
func ipContiguousIn(t *tensor.Tensor, order []int) bool {
	shape, strides := t.Shape(), t.Strides()
	want := 1
	for i := len(order) - 1; i >= 0; i-- {
		d := order[i]
		if shape[d] == 1 {
			continue
		}
		if strides[d] != want {
			return false
		}
		want *= shape[d]
	}
	return true
}

// ipDimErr is ATen's error for reading size(d) of a tensor of rank
// dimensions (d >= rank).
func ipDimErr(d, rank int) string {
	if rank == 0 {
		return fmt.Sprintf("Dimension specified as %d but tensor has no dimensions", d)
	}
	return fmt.Sprintf("Dimension out of range (expected to be in range of [%d, %d], but got %d)", -rank, rank-1, d)
}

// ipGroupNorm is aten::group_norm: the checks of ATen's group_norm, then
// native_group_norm's output on input viewed as [N, C, HxW].
func ipGroupNorm(c *ops.Call) ([]any, error) {
	input, weight, bias := c.Tensor("input"), c.Tensor("weight"), c.Tensor("bias")
	groups := c.Int("num_groups")
	if input.Dim() < 2 {
		d := 1
		if input.Dim() == 0 {
			d = 0
		}
		return nil, c.Errorf("input", "%s", ipDimErr(d, input.Dim()))
	}
	shape := input.Shape()
	n, ch := shape[0], int64(shape[1])
	if groups <= 0 {
		return nil, c.Errorf("num_groups", "Expected num groups to be greater than 0, got %d", groups)
	}
	if ch%groups != 0 {
		return nil, c.Errorf("num_groups", "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%d",
			cvShapeString(shape), groups)
	}
	weightShape := []int{0}
	if weight != nil {
		weightShape = weight.Shape()
	}
	if weight != nil && (weight.Dim() != 1 || int64(weight.Numel()) != ch) {
		return nil, c.Errorf("weight", "Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape %s and input of shape %s",
			cvShapeString(weightShape), cvShapeString(shape))
	}
	if bias != nil && (bias.Dim() != 1 || int64(bias.Numel()) != ch) {
		// ATen prints the weight's shape here.
		return nil, c.Errorf("bias", "Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape %s and input of shape %s",
			cvShapeString(weightShape), cvShapeString(shape))
	}
	hw := 1
	for _, s := range shape[2:] {
		hw *= s
	}
	ngn := op("aten::native_group_norm")
	out, err := ngn.Call([]any{ipContig(input), ipContig(weight), ipContig(bias), int64(n), ch, int64(hw), groups, c.Float("eps")}, nil)
	if err != nil {
		return nil, ipRebind(c, ngn, err, map[string]string{"N": "input", "C": "input", "HxW": "input", "group": "num_groups"})
	}
	return out[:1], nil
}

// ipContig returns t contiguous (nil for nil).
func ipContig(t *tensor.Tensor) *tensor.Tensor {
	if t == nil {
		return nil
	}
	return t.Contiguous()
}

// ipInstanceNorm is aten::instance_norm as ATen composes it: batch_norm on
// input viewed as [1, N*C, ...] with the parameters and running statistics
// repeated N times; the running statistics, when given, are then updated
// in place to the mean over the batch of the updated copies.
func ipInstanceNorm(c *ops.Call) ([]any, error) {
	input := c.Tensor("input")
	rm, rv := c.Tensor("running_mean"), c.Tensor("running_var")
	useStats := c.Bool("use_input_stats")
	if !useStats && (rm == nil || rv == nil) {
		return nil, c.Errorf("use_input_stats", "Expected running_mean and running_var to be defined when use_input_stats is false")
	}
	if input.Dim() < 2 {
		d := 0
		if input.Dim() == 1 {
			d = 1
		}
		return nil, c.Errorf("input", "%s", ipDimErr(d, input.Dim()))
	}
	shape := input.Shape()
	b, ch := shape[0], shape[1]
	flat := slices.Clone(shape)
	flat[0], flat[1] = 1, b*ch
	rep := map[string]*tensor.Tensor{}
	for _, name := range []string{"weight", "bias", "running_mean", "running_var"} {
		t := c.Tensor(name)
		if t == nil {
			continue
		}
		if t.Dim() > 1 {
			return nil, c.Errorf(name, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
		}
		r, err := ipRepeat(t, b)
		if err != nil {
			return nil, c.Errorf(name, "%v", err)
		}
		rep[name] = r
	}
	x := input
	if !x.IsMeta() {
		x = x.Contiguous()
	}
	x, err := x.Reshape(flat...)
	if err != nil {
		return nil, c.Errorf("input", "%v", err)
	}
	bn := op("aten::batch_norm")
	out, err := bn.Call([]any{x, rep["weight"], rep["bias"], rep["running_mean"], rep["running_var"],
		useStats, c.Float("momentum"), c.Float("eps"), c.Bool("cudnn_enabled")}, nil)
	if err != nil {
		return nil, ipRebind(c, bn, err, map[string]string{"training": "use_input_stats"})
	}
	y := out[0].(*tensor.Tensor)
	for _, name := range []string{"running_mean", "running_var"} {
		if t := c.Tensor(name); t != nil && !meta(t, rep[name]) {
			if err := t.CopyFrom(ipBatchMean(rep[name], b, ch)); err != nil {
				return nil, c.Errorf(name, "%v", err)
			}
		}
	}
	if y.IsMeta() {
		return one(tensor.Must(tensor.NewMeta(y.DType(), shape...))), nil
	}
	return one(tensor.Must(y.Reshape(shape...))), nil
}

// ipRepeat is t.repeat(n) for a 0-d or 1-d t: n copies one after the
// other.
func ipRepeat(t *tensor.Tensor, n int) (*tensor.Tensor, error) {
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

// ipBatchMean is t.view(b, c).mean(0): the mean over b rows, summed in
// order in the dtype's accumulation type (float32 for float32 and the
// half types, float64 for float64).
func ipBatchMean(t *tensor.Tensor, b, c int) *tensor.Tensor {
	v := t.Float64s()
	out := make([]float64, c)
	for j := range out {
		if t.DType() == tensor.Float64 {
			s := 0.0
			for i := 0; i < b; i++ {
				s += v[i*c+j]
			}
			out[j] = s / float64(b)
			continue
		}
		var s float32
		for i := 0; i < b; i++ {
			s += float32(v[i*c+j])
		}
		out[j] = float64(s / float32(b))
	}
	return tensor.Must(tensor.FromFloat64s(t.DType(), out, c))
}

// ipConvTranspose is aten::conv_transpose1d and conv_transpose2d.input (nd
// spatial dimensions): aten::convolution with transposed=True, on input
// given a batch dimension when it has none.
func ipConvTranspose(c *ops.Call, nd int) ([]any, error) {
	x := c.Tensor("input")
	batched := x.Dim() == nd+2
	if !batched && x.Dim() != nd+1 {
		return nil, c.Errorf("input", "Expected %dD (unbatched) or %dD (batched) input to conv_transpose%dd, but got input of size: %s",
			nd+1, nd+2, nd, cvShapeString(x.Shape()))
	}
	if !batched {
		x = tensor.Must(x.Unsqueeze(0))
	}
	conv := op("aten::convolution")
	out, err := conv.Call([]any{x, c.Tensor("weight"), c.Tensor("bias"), c.Ints("stride"), c.Ints("padding"),
		c.Ints("dilation"), true, c.Ints("output_padding"), c.Int("groups")}, nil)
	if err != nil {
		return nil, ipRebind(c, conv, err, map[string]string{"transposed": ""})
	}
	y := out[0].(*tensor.Tensor)
	if !batched {
		y = tensor.Must(y.SqueezeDim(0))
	}
	return one(y), nil
}
