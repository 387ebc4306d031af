package kernels_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// derivedOuts are a sample of the derived out= overloads of this session's
// operators, each with the testdata/extra file of its functional overload,
// whose PyTorch outputs the out= overload must reproduce.
var derivedOuts = []struct{ out, cases string }{
	{"aten::kthvalue.values", "aten.kthvalue.default"},
	{"aten::cummax.out", "aten.cummax.default"},
	{"aten::cummin.out", "aten.cummin.default"},
	{"aten::sort.values", "aten.sort.default"},
	{"aten::sort.values_stable", "aten.sort.stable"},
	{"aten::topk.values", "aten.topk.default"},
	{"aten::msort.out", "aten.msort.default"},
	{"aten::mode.values", "aten.mode.default"},
	{"aten::median.dim_values", "aten.median.dim"},
	{"aten::nanmedian.dim_values", "aten.nanmedian.dim"},
	{"aten::aminmax.out", "aten.aminmax.default"},
	{"aten::frexp.Tensor_out", "aten.frexp.Tensor"},
	{"aten::std_mean.correction_out", "aten.std_mean.correction"},
	{"aten::searchsorted.Tensor_out", "aten.searchsorted.Tensor"},
	{"aten::bucketize.Tensor_out", "aten.bucketize.Tensor"},
	{"aten::isin.Tensor_Tensor_out", "aten.isin.Tensor_Tensor"},
	{"aten::norm.out", "aten.norm.ScalarOpt_dim"},
	{"aten::norm.dtype_out", "aten.norm.ScalarOpt_dim_dtype"},
	{"aten::norm.Scalar_out", "aten.norm.Scalar"},
	{"aten::linalg_vector_norm.out", "aten.linalg_vector_norm.default"},
	{"aten::renorm.out", "aten.renorm.default"},
	{"aten::logaddexp.out", "aten.logaddexp.default"},
	{"aten::logcumsumexp.out", "aten.logcumsumexp.default"},
	{"aten::diag_embed.out", "aten.diag_embed.default"},
	{"aten::block_diag.out", "aten.block_diag.default"},
	{"aten::addmv.out", "aten.addmv.default"},
	{"aten::addr.out", "aten.addr.default"},
	{"aten::kron.out", "aten.kron.default"},
	{"aten::tensordot.out", "aten.tensordot.default"},
	{"aten::linalg_cross.out", "aten.linalg_cross.default"},
	{"aten::binary_cross_entropy.out", "aten.binary_cross_entropy.default"},
	{"aten::polygamma.out", "aten.polygamma.default"},
	{"aten::special_xlogy.out", "aten.special_xlogy.default"},
	{"aten::special_entr.out", "aten.special_entr.default"},
	{"aten::max_pool2d_with_indices.out", "aten.max_pool2d_with_indices.default"},
	{"aten::_unique2.out", "aten._unique2.default"},
}

// outNames returns the names of the out= tensors of out= overload o.
func outNames(o *ops.Operator) []string {
	var names []string
	for _, a := range o.Schema().Args {
		if a.KwargOnly && a.Type.Alias != nil && a.Type.Alias.Write {
			names = append(names, a.Name)
		}
	}
	return names
}

// TestDerivedOut runs the PyTorch cases of each sampled functional overload
// through its derived out= overload, twice: with empty out= tensors (which
// are resized) and with out= tensors of the result's shape (which are
// written and returned themselves). Both must give PyTorch's outputs.
func TestDerivedOut(t *testing.T) {
	for _, tc := range derivedOuts {
		t.Run(tc.out, func(t *testing.T) {
			o := optest.Op(t, tc.out)
			require.True(t, o.HasKernel(), "%s has a derived kernel", tc.out)
			require.True(t, o.HasMeta(), "%s has a derived meta function", tc.out)
			path := filepath.Join("testdata", "extra", tc.cases+".jsonl")
			if _, err := os.Stat(path); err != nil {
				t.Skipf("no %s", path)
			}
			cases, err := conformance.ReadFile(path)
			require.NoError(t, err)
			require.NotEmpty(t, cases)
			names := outNames(o)
			for _, c := range cases {
				require.Len(t, c.Outputs, len(names), c.ID)
				for _, sized := range []bool{false, true} {
					oc := *c
					oc.Op, oc.Schema = tc.out, ""
					oc.Kwargs = map[string]any{}
					for k, v := range c.Kwargs {
						oc.Kwargs[k] = v
					}
					outs := make([]*tensor.Tensor, len(names))
					for i, name := range names {
						want := c.Outputs[i].(*tensor.Tensor)
						if sized {
							outs[i] = tensor.Empty(want.DType(), want.Shape()...)
						} else {
							outs[i] = tensor.Empty(want.DType(), 0)
						}
						oc.Kwargs[name] = outs[i]
					}
					r := conformance.Run(&oc)
					assert.True(t, r.Passed(), "sized=%v: %v", sized, r)
					if sized && r.Passed() {
						got, err := o.Call(c.Args, oc.Kwargs)
						require.NoError(t, err)
						for i := range names {
							assert.Same(t, outs[i], got[i], "%s: an out= tensor of the result's shape is returned itself", c.ID)
						}
					}
				}
			}
		})
	}
}

// TestDerivedOutMeta checks that the derived meta functions give the result's
// shape with out's dtype, resizing an empty out.
func TestDerivedOutMeta(t *testing.T) {
	m := func(dt tensor.DType, shape ...int) *tensor.Tensor { return tensor.Must(tensor.NewMeta(dt, shape...)) }
	values, indices := m(tensor.Float32, 0), m(tensor.Int64, 0)
	got, err := optest.Call(t, "aten::kthvalue.values", []any{m(tensor.Float32, 4, 5), 2, 1}, map[string]any{"values": values, "indices": indices})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []int{4}, got[0].(*tensor.Tensor).Shape())
	assert.Equal(t, tensor.Int64, got[1].(*tensor.Tensor).DType())
	assert.True(t, got[1].(*tensor.Tensor).IsMeta())
}

// TestDerivedOutBadDType checks the out= dtype errors against PyTorch 2.6's
// messages (recorded with torch2 from the same calls): each names the out=
// argument.
func TestDerivedOutBadDType(t *testing.T) {
	f32 := func(vals ...float64) *tensor.Tensor {
		return tensor.Must(tensor.FromFloat64s(tensor.Float32, vals, len(vals)))
	}
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{0, 1, 2, 3, 4, 5}, 2, 3))
	e := func(dt tensor.DType) *tensor.Tensor { return tensor.Empty(dt, 0) }
	const (
		F, D, L, I, B = tensor.Float32, tensor.Float64, tensor.Int64, tensor.Int32, tensor.Bool
	)
	cases := []struct {
		name, op string
		args     []any
		kwargs   map[string]any
		arg, msg string
	}{
		{"add into long", "aten::add.out", []any{x, x}, map[string]any{"out": e(L)},
			"out", "result type Float can't be cast to the desired output type Long"},
		{"logaddexp into long", "aten::logaddexp.out", []any{x, x}, map[string]any{"out": e(L)},
			"out", "result type Float can't be cast to the desired output type Long"},
		{"kthvalue values", "aten::kthvalue.values", []any{x, 1}, map[string]any{"values": e(D), "indices": e(L)},
			"values", "output values must be of same type as input"},
		{"kthvalue indices", "aten::kthvalue.values", []any{x, 1}, map[string]any{"values": e(F), "indices": e(I)},
			"indices", "output indices must be of scalar type Long"},
		{"sort values", "aten::sort.values", []any{x}, map[string]any{"values": e(D), "indices": e(L)},
			"values", "Expected out tensor to have dtype float, but got double instead"},
		{"cummax values", "aten::cummax.out", []any{x, 0}, map[string]any{"values": e(D), "indices": e(L)},
			"values", "expected scalar_type Float but found Double"},
		{"cummax indices", "aten::cummax.out", []any{x, 0}, map[string]any{"values": e(F), "indices": e(I)},
			"indices", "expected scalar_type Long but found Int"},
		{"topk values", "aten::topk.values", []any{x, 1}, map[string]any{"values": e(D), "indices": e(L)},
			"values", "Expected out tensor to have dtype float, but got double instead"},
		{"mm", "aten::mm.out", []any{x, tensor.Must(x.T())}, map[string]any{"out": e(D)},
			"out", "Expected out tensor to have dtype float, but got double instead"},
		{"norm", "aten::norm.out", []any{x, 2, []int64{1}}, map[string]any{"out": e(D)},
			"out", "Expected out tensor to have dtype float, but got double instead"},
		{"linalg_vector_norm", "aten::linalg_vector_norm.out", []any{x}, map[string]any{"out": e(D)},
			"out", "Expected out tensor to have dtype float, but got double instead"},
		{"searchsorted", "aten::searchsorted.Tensor_out", []any{f32(1, 2), x}, map[string]any{"out": e(F)},
			"out", "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype Float and out_int32 flag is False"},
		{"diag_embed", "aten::diag_embed.out", []any{x}, map[string]any{"out": e(D)},
			"out", "Expected out tensor to have dtype float, but got double instead"},
		{"isin", "aten::isin.Tensor_Tensor_out", []any{x, x}, map[string]any{"out": e(F)},
			"out", "Expected out tensor to have dtype bool, but got float instead"},
		{"addmv", "aten::addmv.out", []any{f32(0, 0), x, f32(1, 1, 1)}, map[string]any{"out": e(D)},
			"out", "Expected out tensor to have dtype float, but got double instead"},
		{"binary_cross_entropy", "aten::binary_cross_entropy.out", []any{f32(0.5), f32(0.5)}, map[string]any{"out": e(D)},
			"out", "Found dtype Double but expected Float"},
		{"frexp mantissa", "aten::frexp.Tensor_out", []any{x}, map[string]any{"mantissa": e(D), "exponent": e(I)},
			"mantissa", "torch.frexp() expects mantissa to have dtype float but got double"},
		{"frexp exponent", "aten::frexp.Tensor_out", []any{x}, map[string]any{"mantissa": e(F), "exponent": e(L)},
			"exponent", "torch.frexp() expects exponent to have int dtype but got long int"},
		{"mode values", "aten::mode.values", []any{x, 1}, map[string]any{"values": e(D), "indices": e(L)},
			"values", "expected scalar type 'Float' but got 'Double' for values output"},
		{"mode indices", "aten::mode.values", []any{x, 1}, map[string]any{"values": e(F), "indices": e(I)},
			"indices", "expected scalar type 'Long' but got 'Int' for indices output"},
		{"median values", "aten::median.dim_values", []any{x, 1}, map[string]any{"values": e(D), "indices": e(L)},
			"values", "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type torch.DoubleTensor does not equal torch.FloatTensor (while checking arguments for median)"},
		{"index_select", "aten::index_select.out", []any{x, 0, tensor.Must(tensor.FromSlice([]int64{1}))}, map[string]any{"out": e(D)},
			"out", "index_select(): self and result must have the same scalar type"},
		{"where", "aten::where.self_out", []any{tensor.Empty(B, 2, 3), x, x}, map[string]any{"out": e(L)},
			"out", "Expected out type to be Float but got Long"},
		{"clamp into double", "aten::clamp.out", []any{x, 1}, map[string]any{"out": e(D)},
			"out", "Found dtype Double but expected Float"},
		{"amax", "aten::amax.out", []any{x, []int64{1}}, map[string]any{"out": e(D)},
			"out", "Expected the dtype for input and out to match, but got Float for input's dtype and Double for out's dtype."},
		{"all", "aten::all.dims_out", []any{x, []int64{1}}, map[string]any{"out": e(F)},
			"out", "all only supports bool tensor for result, got: Float"},
		{"mean into long", "aten::mean.out", []any{x, []int64{1}}, map[string]any{"out": e(L)},
			"out", "result type Float can't be cast to the desired output type Long"},
		{"mse_loss into long", "aten::mse_loss.out", []any{f32(1), f32(2)}, map[string]any{"out": e(L)},
			"out", "result type Float can't be cast to the desired output type Long"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := optest.Call(t, tc.op, tc.args, tc.kwargs)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "argument '"+tc.arg+"'")
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestDerivedOutCasts checks the out= tensors that PyTorch 2.6 accepts with
// another dtype than the result's: TensorIterator's cast, and the
// reductions that compute in out's dtype.
func TestDerivedOutCasts(t *testing.T) {
	x := tensor.Must(tensor.FromFloat64s(tensor.Float32, []float64{0.5, 1.5, 2.5, 3.25, -4.5, 5}, 2, 3))
	// torch.sum(x, 1, out=long) sums the values cast to long: [3, 4];
	// torch.cumsum(x, 1, out=long) gives [[0, 1, 3], [3, -1, 4]].
	got, err := optest.Call(t, "aten::sum.IntList_out", []any{x, []int64{1}}, map[string]any{"out": tensor.Empty(tensor.Int64, 0)})
	require.NoError(t, err)
	assert.Equal(t, []int64{3, 4}, tensor.Values[int64](got[0].(*tensor.Tensor)))
	got, err = optest.Call(t, "aten::cumsum.out", []any{x, 1}, map[string]any{"out": tensor.Empty(tensor.Int64, 0)})
	require.NoError(t, err)
	assert.Equal(t, []int64{0, 1, 3, 3, -1, 4}, tensor.Values[int64](got[0].(*tensor.Tensor)))
	// torch.logaddexp(x, x, out=double): computed in float, written as
	// double: 1.1931, 2.1931, 3.1931, 3.9431, -3.8069, 5.6931.
	got, err = optest.Call(t, "aten::logaddexp.out", []any{x, x}, map[string]any{"out": tensor.Empty(tensor.Float64, 0)})
	require.NoError(t, err)
	r := got[0].(*tensor.Tensor)
	assert.Equal(t, tensor.Float64, r.DType())
	assert.InDeltaSlice(t, []float64{1.1931, 2.1931, 3.1931, 3.9431, -3.8069, 5.6931}, r.Float64s(), 1e-4)
}

// unaliased drops the alias annotation of a type: "Tensor(a)" is "Tensor".
func unaliased(t string) string {
	if i := strings.Index(t, "("); i > 0 && strings.HasPrefix(t, "Tensor") {
		return t[:i] + t[strings.Index(t, ")")+1:]
	}
	return t
}

// TestDerivedOutCoverage checks that every out= overload whose functional
// overload (same operator, same arguments) has a kernel got one.
func TestDerivedOutCoverage(t *testing.T) {
	var missing []string
	for _, o := range ops.Global().All() {
		s := o.Schema()
		if o.HasKernel() || !o.Has(ops.Mutable) || o.Has(ops.Inplace) {
			continue
		}
		names := outNames(o)
		if len(names) == 0 {
			continue
		}
		in := s.Args[:len(s.Args)-len(names)]
		for _, f := range ops.Global().Overloads(s.Namespace, s.Name) {
			if f.Has(ops.Mutable) || !f.HasKernel() || len(f.Schema().Args) != len(in) || len(f.Schema().Returns) != len(names) {
				continue
			}
			same := true
			for i, a := range f.Schema().Args {
				if unaliased(a.Type.String()) != unaliased(in[i].Type.String()) || a.KwargOnly != in[i].KwargOnly {
					same = false
				}
			}
			if same {
				missing = append(missing, o.String())
				break
			}
		}
	}
	assert.Empty(t, missing)
}

// TestDerivedFactoryOut checks the out= overloads of factory functions,
// which take their dtype from out, against PyTorch 2.6 (torch.arange(0, 5,
// 2, out=double), torch.zeros([2, 2], out=long of shape [3]), torch.eye(2,
// 3, out=long), torch.full([2], 1.5, out=int), torch.linspace(0, 1, 5,
// out=double)).
func TestDerivedFactoryOut(t *testing.T) {
	cases := []struct {
		op    string
		args  []any
		out   *tensor.Tensor
		shape []int
		want  []float64
	}{
		{"aten::arange.start_out", []any{0, 5, 2}, tensor.Empty(tensor.Float64, 0), []int{3}, []float64{0, 2, 4}},
		{"aten::zeros.out", []any{[]int64{2, 2}}, tensor.Empty(tensor.Int64, 3), []int{2, 2}, []float64{0, 0, 0, 0}},
		{"aten::eye.m_out", []any{2, 3}, tensor.Empty(tensor.Int64, 0), []int{2, 3}, []float64{1, 0, 0, 0, 1, 0}},
		{"aten::full.out", []any{[]int64{2}, 1.5}, tensor.Empty(tensor.Int32, 0), []int{2}, []float64{1, 1}},
		{"aten::linspace.out", []any{0, 1, 5}, tensor.Empty(tensor.Float64, 0), []int{5}, []float64{0, 0.25, 0.5, 0.75, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			got, err := optest.Call(t, tc.op, tc.args, map[string]any{"out": tc.out})
			require.NoError(t, err)
			r := got[0].(*tensor.Tensor)
			assert.Equal(t, tc.out.DType(), r.DType())
			assert.Equal(t, tc.shape, r.Shape())
			assert.Equal(t, tc.want, r.Float64s())
		})
	}
}

// TestPolygammaInplace checks polygamma_(self, n), derived from
// polygamma(n, self) with its arguments exchanged, on polygamma's PyTorch
// vectors, and its error for an integer self (PyTorch 2.6:
// torch.arange(3).polygamma_(1)).
func TestPolygammaInplace(t *testing.T) {
	path := filepath.Join("testdata", "extra", "aten.polygamma.default.jsonl")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no %s", path)
	}
	cases, err := conformance.ReadFile(path)
	require.NoError(t, err)
	n := 0
	for _, c := range cases {
		x := c.Args[1].(*tensor.Tensor)
		want := c.Outputs[0].(*tensor.Tensor)
		if x.DType() != want.DType() {
			continue // an integer self: polygamma's result does not fit it
		}
		oc := *c
		oc.Op, oc.Schema = "aten::polygamma_", ""
		oc.Args = []any{x, c.Args[0]}
		r := conformance.Run(&oc)
		assert.True(t, r.Passed(), "%v", r)
		n++
	}
	require.NotZero(t, n)
	_, err = optest.Call(t, "aten::polygamma_", []any{tensor.Must(tensor.FromSlice([]int64{0, 1, 2})), 1}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "argument 'self'")
	assert.Contains(t, err.Error(), "result type Float can't be cast to the desired output type Long")
}
