package tensor_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
)

// viewCase is one case of testdata/views.json (see gen_views.py).
type viewCase struct {
	Name           string  `json:"name"`
	Shape          []int   `json:"shape"`
	Ops            [][]any `json:"ops"`
	Error          bool    `json:"error"`
	Message        string  `json:"message"`
	WantShape      []int   `json:"want_shape"`
	WantStrides    []int   `json:"want_strides"`
	WantOffset     int     `json:"want_offset"`
	WantContiguous bool    `json:"want_contiguous"`
	WantValues     []int64 `json:"want_values"`
	WantShares     bool    `json:"want_shares"`
}

// jsonInt converts a decoded JSON number to an int.
func jsonInt(t *testing.T, v any) int {
	t.Helper()
	n, ok := v.(json.Number)
	require.True(t, ok, "%#v is not a number", v)
	i, err := n.Int64()
	require.NoError(t, err)
	return int(i)
}

// jsonInts converts the decoded JSON numbers in vs to ints.
func jsonInts(t *testing.T, vs []any) []int {
	t.Helper()
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = jsonInt(t, v)
	}
	return out
}

// applyView applies one operation of a view case to x.
func applyView(t *testing.T, x *tensor.Tensor, op []any) (*tensor.Tensor, error) {
	t.Helper()
	name := op[0].(string)
	args := op[1:]
	ints := func() []int { return jsonInts(t, args) }
	switch name {
	case "view":
		return x.View(ints()...)
	case "reshape":
		return x.Reshape(ints()...)
	case "permute":
		return x.Permute(ints()...)
	case "transpose":
		a := ints()
		return x.Transpose(a[0], a[1])
	case "t":
		return x.T()
	case "expand":
		return x.Expand(ints()...)
	case "slice":
		a := ints()
		return x.Slice(a[0], a[1], a[2], a[3])
	case "narrow":
		a := ints()
		return x.Narrow(a[0], a[1], a[2])
	case "select":
		a := ints()
		return x.Select(a[0], a[1])
	case "squeeze":
		return x.Squeeze(), nil
	case "squeeze_dim":
		return x.SqueezeDim(ints()[0])
	case "unsqueeze":
		return x.Unsqueeze(ints()[0])
	case "as_strided":
		return x.AsStrided(jsonInts(t, args[0].([]any)), jsonInts(t, args[1].([]any)), jsonInt(t, args[2]))
	case "flatten":
		a := ints()
		return x.Flatten(a[0], a[1])
	case "contiguous":
		return x.Contiguous(), nil
	case "clone":
		return x.Clone(), nil
	}
	t.Fatalf("unknown op %q", name)
	return nil, nil
}

// arangeBase returns torch.arange(numel(shape), dtype=float32).reshape(shape).
func arangeBase(t *testing.T, shape []int) *tensor.Tensor {
	t.Helper()
	n, err := tensor.Numel(shape)
	require.NoError(t, err)
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = float32(i)
	}
	x, err := tensor.FromSlice(vals, shape...)
	require.NoError(t, err)
	return x
}

// TestViewsMatchTorch applies chains of view operations and compares the
// result's metadata, values and aliasing with what torch gives, or checks
// that an error is returned where torch raises.
func TestViewsMatchTorch(t *testing.T) {
	var cases []viewCase
	loadJSON(t, "testdata/views.json", &cases)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			base := arangeBase(t, c.Shape)
			x := base
			var err error
			for _, op := range c.Ops {
				if x, err = applyView(t, x, op); err != nil {
					break
				}
			}
			if c.Error {
				require.Error(t, err, "torch raised: %s", c.Message)
				return
			}
			require.NoError(t, err)
			got := struct {
				Shape, Strides []int
				Offset         int
				Contiguous     bool
				Values         []int64
				Shares         bool
			}{x.Shape(), x.Strides(), x.Offset(), x.IsContiguous(), x.Int64s(), x.SharesStorage(base)}
			want := got
			want.Shape, want.Strides, want.Offset = c.WantShape, c.WantStrides, c.WantOffset
			want.Contiguous, want.Values, want.Shares = c.WantContiguous, c.WantValues, c.WantShares
			if want.Values == nil {
				want.Values = []int64{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-torch +gofx):\n%s", diff)
			}
		})
	}
}

// A view shares storage: a write through it is seen through the base and
// through other views.
func TestViewWritesAreShared(t *testing.T) {
	base := arangeBase(t, []int{3, 4})
	tr := tensor.Must(base.T())
	row := tensor.Must(tr.Select(0, 1)) // column 1 of base
	d := tensor.Data[float32](row)
	for _, off := range row.Offsets() {
		d[off] = -1
	}
	assert.Equal(t, []float64{0, -1, 2, 3, 4, -1, 6, 7, 8, -1, 10, 11}, base.Float64s())
	// A reshape that cannot be a view copies: writes do not come back.
	flat := tensor.Must(tr.Reshape(12))
	assert.False(t, flat.SharesStorage(base))
	tensor.Data[float32](flat)[0] = 100
	assert.Equal(t, 0.0, base.Float64s()[0])
}

// View fails exactly where torch's view does and Reshape then copies; both
// agree on the values.
func TestViewVersusReshape(t *testing.T) {
	base := arangeBase(t, []int{2, 3, 4})
	tests := []struct {
		name     string
		x        *tensor.Tensor
		shape    []int
		viewable bool
	}{
		{"contiguous", base, []int{6, 4}, true},
		{"permuted merge", tensor.Must(base.Permute(2, 0, 1)), []int{4, 6}, true},
		{"permuted cross", tensor.Must(base.Permute(1, 0, 2)), []int{6, 4}, false},
		{"transposed inner", tensor.Must(base.Transpose(1, 2)), []int{2, 12}, false},
		{"sliced", tensor.Must(base.Slice(1, 0, 3, 2)), []int{16}, false},
		{"sliced keep inner", tensor.Must(base.Slice(2, 0, 4, 2)), []int{6, 2}, true},
		{"expanded", tensor.Must(tensor.Must(base.Unsqueeze(0)).Expand(2, 2, 3, 4)), []int{4, 12}, false},
		{"expanded keep", tensor.Must(tensor.Must(base.Unsqueeze(0)).Expand(2, 2, 3, 4)), []int{2, 6, 4}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, verr := tt.x.View(tt.shape...)
			r, rerr := tt.x.Reshape(tt.shape...)
			require.NoError(t, rerr)
			assert.Equal(t, tt.shape, r.Shape())
			assert.Equal(t, tt.x.Float64s(), r.Float64s())
			assert.Equal(t, tt.viewable, r.SharesStorage(base))
			if !tt.viewable {
				require.Error(t, verr)
				assert.Contains(t, verr.Error(), "Use .reshape(...) instead")
				assert.True(t, r.IsContiguous())
				return
			}
			require.NoError(t, verr)
			assert.Equal(t, r.Strides(), v.Strides())
			assert.True(t, v.SharesStorage(base))
		})
	}
}

// Contiguous returns the tensor itself when it is contiguous and a compact
// copy otherwise; Clone always copies.
func TestContiguousAndClone(t *testing.T) {
	base := arangeBase(t, []int{2, 3})
	assert.Same(t, base, base.Contiguous())
	tr := tensor.Must(base.T())
	c := tr.Contiguous()
	assert.NotSame(t, tr, c)
	assert.False(t, c.SharesStorage(base))
	assert.Equal(t, []int{2, 1}, c.Strides())
	assert.Equal(t, 0, c.Offset())
	assert.Equal(t, tr.Float64s(), c.Float64s())
	cl := base.Clone()
	assert.False(t, cl.SharesStorage(base))
	assert.True(t, tensor.Equal(base, cl))
	// Meta tensors stay meta.
	m := tensor.Must(tensor.NewMeta(tensor.Int8, 2, 3))
	assert.True(t, tensor.Must(m.T()).Contiguous().IsMeta())
	assert.True(t, m.Clone().IsMeta())
	assert.Equal(t, "int8[2, 3] (meta)", m.Clone().String())
}

// Views of meta tensors compute metadata only.
func TestMetaViews(t *testing.T) {
	m := tensor.Must(tensor.NewMeta(tensor.Float16, 2, 3, 4))
	steps := []struct {
		name string
		f    func(*tensor.Tensor) (*tensor.Tensor, error)
		want []int
	}{
		{"view", func(x *tensor.Tensor) (*tensor.Tensor, error) { return x.View(6, -1) }, []int{6, 4}},
		{"permute", func(x *tensor.Tensor) (*tensor.Tensor, error) { return x.Permute(2, 0, 1) }, []int{4, 2, 3}},
		{"expand", func(x *tensor.Tensor) (*tensor.Tensor, error) { return x.Expand(5, 2, 3, 4) }, []int{5, 2, 3, 4}},
		{"select", func(x *tensor.Tensor) (*tensor.Tensor, error) { return x.Select(1, 2) }, []int{2, 4}},
		{"slice", func(x *tensor.Tensor) (*tensor.Tensor, error) { return x.Slice(2, 1, 10, 2) }, []int{2, 3, 2}},
		{"flatten", func(x *tensor.Tensor) (*tensor.Tensor, error) { return x.Flatten(0, 1) }, []int{6, 4}},
		{"as_strided", func(x *tensor.Tensor) (*tensor.Tensor, error) { return x.AsStrided([]int{100}, []int{7}, 3) }, []int{100}},
	}
	for _, s := range steps {
		got, err := s.f(m)
		require.NoError(t, err, s.name)
		assert.True(t, got.IsMeta(), s.name)
		assert.Equal(t, s.want, got.Shape(), s.name)
		assert.Equal(t, tensor.Float16, got.DType(), s.name)
	}
}

// Error messages say what is wrong, with torch's wording where it has one.
func TestViewErrorMessages(t *testing.T) {
	x := arangeBase(t, []int{2, 3})
	tests := []struct {
		name string
		f    func() (*tensor.Tensor, error)
		want string
	}{
		{"view numel", func() (*tensor.Tensor, error) { return x.View(4) }, "shape '[4]' is invalid for input of size 6"},
		{"view infer twice", func() (*tensor.Tensor, error) { return x.View(-1, -1) }, "only one dimension can be inferred"},
		{"select", func() (*tensor.Tensor, error) { return x.Select(0, 2) }, "select(): index 2 out of range for tensor of size [2, 3] at dimension 0"},
		{"dim", func() (*tensor.Tensor, error) { return x.Transpose(0, 2) }, "dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{"t", func() (*tensor.Tensor, error) { return tensor.Must(x.Unsqueeze(0)).T() }, "t() expects a tensor with <= 2 dimensions, but self is 3D"},
		{"expand", func() (*tensor.Tensor, error) { return x.Expand(4, 3) }, "the expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0"},
		{"narrow", func() (*tensor.Tensor, error) { return x.Narrow(1, 2, 2) }, "start (2) + length (2) exceeds dimension size (3)"},
		{"slice step", func() (*tensor.Tensor, error) { return x.Slice(0, 0, 1, 0) }, "slice step must be positive"},
		{"flatten", func() (*tensor.Tensor, error) { return x.Flatten(1, 0) }, "start_dim cannot come after end_dim"},
		{"as_strided", func() (*tensor.Tensor, error) { return x.AsStrided([]int{2, 3}, []int{3, 1}, 1) }, "out of bounds for storage of size 6"},
	}
	for _, tt := range tests {
		_, err := tt.f()
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
	}
}

// InferShape resolves -1 as torch's infer_size does.
func TestInferShape(t *testing.T) {
	tests := []struct {
		shape []int
		numel int
		want  []int
		err   bool
	}{
		{[]int{2, -1}, 6, []int{2, 3}, false},
		{[]int{-1}, 0, []int{0}, false},
		{[]int{}, 1, []int{}, false},
		{[]int{0, -1}, 0, nil, true},
		{[]int{-1, -1}, 4, nil, true},
		{[]int{-2, 2}, 4, nil, true},
		{[]int{4, -1}, 6, nil, true},
		{[]int{5}, 6, nil, true},
		{[]int{1 << 30, 1 << 30, 1 << 30}, 6, nil, true},
	}
	for _, tt := range tests {
		got, err := tensor.InferShape(tt.shape, tt.numel)
		name := fmt.Sprint(tt.shape, tt.numel)
		if tt.err {
			assert.Error(t, err, name)
			continue
		}
		require.NoError(t, err, name)
		assert.Equal(t, tt.want, got, name)
	}
}
