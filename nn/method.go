package nn

import (
	"fmt"
	"sort"
	"sync"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// MethodImpl is the Go implementation of a tensor method: args[0] is the
// tensor, the rest are the method's positional arguments as Python passes
// them.
type MethodImpl func(args []Value, kwargs map[string]Value) (Value, error)

var methods struct {
	sync.RWMutex
	m map[string]MethodImpl
}

// RegisterMethod makes name a tensor method callable from model code
// (Value.Method) and from graphs (call_method nodes). Registering a name
// again replaces it.
func RegisterMethod(name string, impl MethodImpl) {
	methods.Lock()
	defer methods.Unlock()
	if methods.m == nil {
		methods.m = map[string]MethodImpl{}
	}
	methods.m[name] = impl
}

// LookupMethod returns the implementation of the tensor method name.
func LookupMethod(name string) (MethodImpl, bool) {
	methods.RLock()
	defer methods.RUnlock()
	f, ok := methods.m[name]
	return f, ok
}

// Methods returns the names of all registered tensor methods, sorted.
func Methods() []string {
	methods.RLock()
	defer methods.RUnlock()
	out := make([]string, 0, len(methods.m))
	for k := range methods.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ApplyMethod calls the tensor method name on args[0] with the rest of
// args; with symbolic arguments the tracer records a call_method node. The
// interpreter runs call_method nodes with it.
func ApplyMethod(name string, args []Value, kwargs map[string]Value) (out Value, err error) {
	defer Recover(&err)
	if len(args) == 0 {
		return None, fmt.Errorf("method %s: no self argument", name)
	}
	if tr := tracerOf(args, kwargs); tr != nil {
		return tr.TraceMethod(name, args, kwargs)
	}
	impl, ok := LookupMethod(name)
	if !ok {
		return None, fmt.Errorf("tensor has no method %q in gofx (register one with nn.RegisterMethod)", name)
	}
	if !args[0].IsTensor() {
		return None, fmt.Errorf("method %s: self must be a Tensor, got %s", name, args[0].Kind())
	}
	out, err = impl(args, kwargs)
	if err != nil {
		return None, fmt.Errorf("method Tensor.%s: %w", name, err)
	}
	return out, nil
}

// Method calls the tensor method name on v with args (Values or plain Go
// values): the escape hatch for methods without a Go shorthand.
func (v Value) Method(name string, args ...any) Value {
	all := make([]Value, 0, len(args)+1)
	all = append(all, v)
	for i, a := range args {
		x, err := valueOf(a)
		if err != nil {
			panic(errorf("Tensor.%s: argument %d: %v", name, i, err))
		}
		all = append(all, x)
	}
	out, err := ApplyMethod(name, all, nil)
	if err != nil {
		panic(wrapErr(err))
	}
	return out
}

// Operators used by the methods and Python operators.
var (
	opAddT                     = Op("aten::add.Tensor")
	opSubT                     = Op("aten::sub.Tensor")
	opMulT                     = Op("aten::mul.Tensor")
	opDivT                     = Op("aten::div.Tensor")
	opPowTT, opPowTS           = Op("aten::pow.Tensor_Tensor"), Op("aten::pow.Tensor_Scalar")
	opMatmul                   = Op("aten::matmul")
	opT                        = Op("aten::t")
	opReshape, opView          = Op("aten::reshape"), Op("aten::view")
	opTranspose                = Op("aten::transpose.int")
	opPermute                  = Op("aten::permute")
	opFlatten                  = Op("aten::flatten.using_ints")
	opUnsqueeze                = Op("aten::unsqueeze")
	opSqueeze, opSqueezeDim    = Op("aten::squeeze"), Op("aten::squeeze.dim")
	opSplit, opSplitSizes      = Op("aten::split.Tensor"), Op("aten::split_with_sizes")
	opSoftmax, opLogSoftmax    = Op("aten::softmax.int"), Op("aten::log_softmax.int")
	opSum, opSumDim            = Op("aten::sum"), Op("aten::sum.dim_IntList")
	opMean, opMeanDim          = Op("aten::mean"), Op("aten::mean.dim")
	opExpand                   = Op("aten::expand")
	opRepeat                   = Op("aten::repeat")
	opAlias                    = Op("aten::alias")
	opToCopy                   = Op("aten::_to_copy")
	opSelect                   = Op("aten::select.int")
	opSliceT                   = Op("aten::slice.Tensor")
	opEqT, opEqS, opGtT, opGtS = Op("aten::eq.Tensor"), Op("aten::eq.Scalar"), Op("aten::gt.Tensor"), Op("aten::gt.Scalar")
	opLtT, opLtS               = Op("aten::lt.Tensor"), Op("aten::lt.Scalar")
	opLeT, opLeS               = Op("aten::le.Tensor"), Op("aten::le.Scalar")
	opGeT, opGeS               = Op("aten::ge.Tensor"), Op("aten::ge.Scalar")
	opNeT, opNeS               = Op("aten::ne.Tensor"), Op("aten::ne.Scalar")
	opFloorDivT                = Op("aten::floor_divide")
	opRemT, opRemS             = Op("aten::remainder.Tensor"), Op("aten::remainder.Scalar")
)

// isNumber reports whether v is a Python number (int, float or bool).
func isNumber(v Value) bool {
	switch v.v.(type) {
	case int64, float64, bool:
		return true
	}
	return false
}

// pick chooses the operator for other: t for a tensor, s for a number.
// A nil s means that PyTorch's Python bindings hide the operator's .Scalar
// overload (add, sub, mul, div, their in-place forms and floor_divide):
// Python's x * 0.5 then calls t with the number, which ops binds as a
// wrapped number, and torch.fx's make_fx, torch.export and TorchScript all
// record aten.mul.Tensor(x, 0.5). Operators whose .Scalar overload Python
// does call (pow, remainder, the comparisons) pass it as s.
func pick(other Value, t, s *ops.Operator) *ops.Operator {
	if s != nil && isNumber(other) {
		return s
	}
	return t
}

func (v Value) binary(other any, t, s *ops.Operator, py node.Function) Value {
	o, err := valueOf(other)
	if err != nil {
		panic(errorf("%s: other: %v", t, err))
	}
	if isNumberLike(v) && isNumberLike(o) {
		return CallFunction(py, []Value{v, o}, nil)
	}
	out, err := Apply(pick(o, t, s), []Value{v, o}, nil)
	if err != nil {
		panic(wrapErr(err))
	}
	return out
}

// Add is Python's v + other: aten::add.Tensor, also for a number, which is
// passed as a wrapped number as PyTorch passes it (x + 1 is recorded as
// aten.add.Tensor(x, 1); so are Sub, Mul, Div and FloorDiv, whose .Scalar
// overloads Python never calls, while Pow, Mod and the comparisons take
// their .Scalar overloads for a number, as PyTorch does). Like the other
// arithmetic methods (Sub, Mul, Div, FloorDiv, Mod, Pow, Matmul and the
// comparisons) it stands for a Python operator, so a tracer records it as
// a call_function of the aten operator; the other methods of Value are
// tensor methods and are recorded as call_method.
// When both operands are numbers (Go numbers or symbolic sizes) it is
// Python's arithmetic on numbers: computed at once for Go numbers, recorded
// as operator.add for symbolic ones. A tensor plus a symbolic size (x +
// x.Size(0) under export with a dynamic dim, or an unbacked Item) is
// recorded as PyTorch records it: aten.add.Tensor(x, sym_size), the size a
// wrapped number.
func (v Value) Add(other any) Value { return v.binary(other, opAddT, nil, OperatorAdd) }

// Sub is v - other.
func (v Value) Sub(other any) Value { return v.binary(other, opSubT, nil, OperatorSub) }

// Mul is v * other.
func (v Value) Mul(other any) Value { return v.binary(other, opMulT, nil, OperatorMul) }

// Div is v / other (true division).
func (v Value) Div(other any) Value { return v.binary(other, opDivT, nil, OperatorTrueDiv) }

// FloorDiv is v // other.
func (v Value) FloorDiv(other any) Value {
	return v.binary(other, opFloorDivT, nil, OperatorFloorDiv)
}

// Mod is v % other (the result has the sign of other, as in Python).
func (v Value) Mod(other any) Value { return v.binary(other, opRemT, opRemS, OperatorMod) }

// Pow is v ** other.
func (v Value) Pow(other any) Value { return v.binary(other, opPowTT, opPowTS, OperatorPow) }

// Eq is v == other, elementwise.
func (v Value) Eq(other any) Value { return v.binary(other, opEqT, opEqS, OperatorEq) }

// Ne is v != other, elementwise.
func (v Value) Ne(other any) Value { return v.binary(other, opNeT, opNeS, OperatorNe) }

// Gt is v > other, elementwise.
func (v Value) Gt(other any) Value { return v.binary(other, opGtT, opGtS, OperatorGt) }

// Ge is v >= other, elementwise.
func (v Value) Ge(other any) Value { return v.binary(other, opGeT, opGeS, OperatorGe) }

// Lt is v < other, elementwise.
func (v Value) Lt(other any) Value { return v.binary(other, opLtT, opLtS, OperatorLt) }

// Le is v <= other, elementwise.
func (v Value) Le(other any) Value { return v.binary(other, opLeT, opLeS, OperatorLe) }

// Neg is v.neg(), the tensor method: recorded as call_method neg while
// traced, as torch.fx records x.neg() (for torch.neg(x) call
// functional.Neg, recorded as call_function aten.neg.default). On a number
// it is Python's -v: computed at once for a Go number, recorded as
// operator.neg for a symbolic one.
func (v Value) Neg() Value {
	if isNumberLike(v) {
		return CallFunction(OperatorNeg, []Value{v}, nil)
	}
	return v.Method("neg")
}

// Matmul is v @ other.
func (v Value) Matmul(other Value) Value { return CallOp(opMatmul, v, other) }

// Shape is v.shape: a tuple of ints, or, while tracing, the proxy of
// getattr(v, "shape") (index it with Index as Python indexes x.shape).
func (v Value) Shape() Value {
	return CallFunction(GetAttr, []Value{v, {"shape"}}, nil)
}

// The tensor methods: each records a call_method node while tracing.

// Size is v.size(dim).
func (v Value) Size(dim int) Value { return v.Method("size", dim) }

// Reshape is v.reshape(*shape); sizes may be ints or int Values
// (including symbolic ones from Shape or Size).
func (v Value) Reshape(shape ...any) Value { return v.Method("reshape", shape...) }

// View is v.view(*shape).
func (v Value) View(shape ...any) Value { return v.Method("view", shape...) }

// Transpose is v.transpose(dim0, dim1).
func (v Value) Transpose(dim0, dim1 int) Value { return v.Method("transpose", dim0, dim1) }

// Permute is v.permute(*dims).
func (v Value) Permute(dims ...int) Value { return v.Method("permute", intsAny(dims)...) }

// Flatten is v.flatten(start_dim, end_dim).
func (v Value) Flatten(startDim, endDim int) Value { return v.Method("flatten", startDim, endDim) }

// Unsqueeze is v.unsqueeze(dim).
func (v Value) Unsqueeze(dim int) Value { return v.Method("unsqueeze", dim) }

// Squeeze is v.squeeze() or v.squeeze(dim).
func (v Value) Squeeze(dim ...int) Value { return v.Method("squeeze", intsAny(dim)...) }

// Contiguous is v.contiguous().
func (v Value) Contiguous() Value { return v.Method("contiguous") }

// T is v.t().
func (v Value) T() Value { return v.Method("t") }

// Split is v.split(splitSize, dim): splitSize is an int or a []int of
// sizes. The result is a tuple (a proxy to Index while tracing).
func (v Value) Split(splitSize any, dim int) Value {
	return v.Method("split", splitSize, dim)
}

// Chunk is v.chunk(chunks, dim).
func (v Value) Chunk(chunks, dim int) Value { return v.Method("chunk", chunks, dim) }

// Softmax is v.softmax(dim).
func (v Value) Softmax(dim int) Value { return v.Method("softmax", dim) }

// LogSoftmax is v.log_softmax(dim).
func (v Value) LogSoftmax(dim int) Value { return v.Method("log_softmax", dim) }

// Sum is v.sum() over all elements, or v.sum(dims) over the given ones.
func (v Value) Sum(dims ...int) Value {
	if len(dims) == 0 {
		return v.Method("sum")
	}
	return v.Method("sum", intsAny(dims))
}

// Mean is v.mean() or v.mean(dims).
func (v Value) Mean(dims ...int) Value {
	if len(dims) == 0 {
		return v.Method("mean")
	}
	return v.Method("mean", intsAny(dims))
}

// Relu is v.relu().
func (v Value) Relu() Value { return v.Method("relu") }

// Sigmoid is v.sigmoid().
func (v Value) Sigmoid() Value { return v.Method("sigmoid") }

// Tanh is v.tanh().
func (v Value) Tanh() Value { return v.Method("tanh") }

// Exp is v.exp().
func (v Value) Exp() Value { return v.Method("exp") }

// Expand is v.expand(*sizes).
func (v Value) Expand(sizes ...any) Value { return v.Method("expand", sizes...) }

// Clone is v.clone().
func (v Value) Clone() Value { return v.Method("clone") }

// Detach is v.detach() (gofx has no autograd: the same data, a new view).
func (v Value) Detach() Value { return v.Method("detach") }

// To is v.to(dtype): v itself if it has that dtype, a converted copy
// otherwise.
func (v Value) To(dt tensor.DType) Value { return v.Method("to", dt) }

// Add_ is v.add_(other): adds in place and returns v.
func (v Value) Add_(other any) Value { return v.Method("add_", other) }

// Sub_ is v.sub_(other).
func (v Value) Sub_(other any) Value { return v.Method("sub_", other) }

// Mul_ is v.mul_(other).
func (v Value) Mul_(other any) Value { return v.Method("mul_", other) }

// Div_ is v.div_(other).
func (v Value) Div_(other any) Value { return v.Method("div_", other) }

// Relu_ is v.relu_().
func (v Value) Relu_() Value { return v.Method("relu_") }

func intsAny(xs []int) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
