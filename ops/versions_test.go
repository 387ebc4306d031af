package ops_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// The schemas of operators that changed between PyTorch 1.13, 2.6 and
// 2.14, as ../shared/aten/registry_schemas_{1.13,2.6,2.14}.txt print them.
const (
	stft26   = "aten::stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool normalized=False, bool? onesided=None, bool? return_complex=None) -> Tensor"
	stft214  = "aten::stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> Tensor"
	cdist26  = "aten::_cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor"
	cdist214 = "aten::_cdist_backward(Tensor grad_output, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor"
	conv113  = "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor"
	conv2x   = "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], SymInt[2] padding=[0, 0], SymInt[2] dilation=[1, 1], SymInt groups=1) -> Tensor"
	var113   = "aten::var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor"
	var2x    = "aten::var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor"
	scm      = "aten::_cslt_sparse_mm(Tensor compressed_A, Tensor dense_B, Tensor? bias=None, Tensor? alpha=None, ScalarType? out_dtype=None, bool transpose_result=False, int alg_id=0, int split_k=1, bool split_k_one_kernel=True) -> Tensor"
	scm214   = "aten::_cslt_sparse_mm(Tensor compressed_A, Tensor dense_B, Tensor? bias=None, Tensor? alpha=None, ScalarType? out_dtype=None, bool transpose_result=False, int alg_id=0, int split_k=1, int split_k_mode=-1) -> Tensor"
)

func TestSchemaHistory(t *testing.T) {
	tests := []struct {
		op   string
		want []string // newest first
	}{
		{"aten::stft", []string{stft214, stft26}},
		{"aten::_cdist_backward", []string{cdist214, cdist26}},
		{"aten::conv2d", []string{conv2x, conv113}},
		{"aten::var.correction", []string{var2x, var113}},
		{"aten::relu", []string{"aten::relu(Tensor self) -> Tensor"}},
		// New in 2.x.
		{"aten::scaled_dot_product_attention", []string{"aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor"}},
		// Dropped by 2.14: 2.6's schema.
		{"aten::cholesky", []string{"aten::cholesky(Tensor self, bool upper=False) -> Tensor"}},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			o, ok := ops.Global().Lookup(tt.op)
			require.True(t, ok)
			assert.Equal(t, tt.want, schemaStrings(o))
			assert.Equal(t, tt.want[0], o.Schema().String())
		})
	}
}

func TestBindAcrossVersions(t *testing.T) {
	x := tensor.Must(tensor.Zeros(tensor.Float32, 2, 3))
	tests := []struct {
		name   string
		op     string
		args   []any
		kwargs map[string]any
		schema string         // the schema the Call is bound to
		want   map[string]any // arguments read back by name
		errSub string
	}{
		{"2.6 stft call binds to 2.14's schema, align_to_window takes its default",
			"aten::stft", []any{x, 4}, map[string]any{"return_complex": true}, stft214,
			map[string]any{"n_fft": int64(4), "align_to_window": nil, "return_complex": true}, ""},
		{"2.14 stft call with the new argument",
			"aten::stft", []any{x, 4}, map[string]any{"align_to_window": true}, stft214,
			map[string]any{"align_to_window": true}, ""},
		{"2.6 keyword grad= binds to 2.6's schema and moves onto grad_output",
			"aten::_cdist_backward", []any{}, map[string]any{"grad": x, "x1": x, "x2": x, "p": 2.0, "cdist": x}, cdist214,
			map[string]any{"grad_output": x, "p": 2.0}, ""},
		{"2.14 keyword grad_output=",
			"aten::_cdist_backward", []any{}, map[string]any{"grad_output": x, "x1": x, "x2": x, "p": 2.0, "cdist": x}, cdist214,
			map[string]any{"grad_output": x}, ""},
		{"1.13 int correction binds to the 2.x Scalar",
			"aten::var.correction", []any{x, []int64{0}}, map[string]any{"correction": 0}, var2x,
			map[string]any{"correction": ops.IntScalar(0)}, ""},
		{"1.13 conv2d call with a single int stride",
			"aten::conv2d", []any{x, x, nil, 2}, nil, conv2x,
			map[string]any{"stride": []int64{2, 2}, "groups": int64(1)}, ""},
		{"a 2.6 argument 2.14 dropped keeps 2.6's schema",
			"aten::_cslt_sparse_mm", []any{x, x}, map[string]any{"split_k_one_kernel": false}, scm,
			map[string]any{"split_k_one_kernel": false}, ""},
		{"2.14's replacement",
			"aten::_cslt_sparse_mm", []any{x, x}, map[string]any{"split_k_mode": 1}, scm214,
			map[string]any{"split_k_mode": int64(1)}, ""},
		{"no schema accepts it: the newest's error",
			"aten::stft", []any{x, 4}, map[string]any{"align": true}, "", nil, "unexpected keyword argument 'align'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, ok := ops.Global().Lookup(tt.op)
			require.True(t, ok)
			c, err := o.Bind(tt.args, tt.kwargs)
			if tt.errSub != "" {
				require.Error(t, err)
				assert.ErrorContains(t, err, tt.errSub)
				assert.ErrorContains(t, err, tt.op)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.schema, c.Schema().String())
			for name, v := range tt.want {
				assert.Equal(t, v, c.Arg(name), name)
			}
			if tt.schema == o.Schema().String() {
				placed, err := o.Place(tt.args, tt.kwargs)
				require.NoError(t, err)
				assert.Len(t, placed, len(o.Schema().Args))
			}
		})
	}
}

func TestNewOperatorTags(t *testing.T) {
	tests := []struct {
		name        string
		has, hasNot ops.Tag
	}{
		// nondeterministic_seeded in 2.x: dropout_p.
		{"aten::scaled_dot_product_attention", ops.Composite | ops.Random, ops.Core | ops.Mutable | ops.Effectful},
		{"aten::_scaled_dot_product_flash_attention_for_cpu", ops.Random, ops.Mutable},
		{"aten::_assert_scalar", ops.Effectful, ops.Mutable},
		{"aten::sym_constrain_range_for_size", ops.Effectful, ops.Mutable},
		{"aten::_native_batch_norm_legit", ops.Core | ops.Mutable, ops.Inplace},
		{"aten::_native_batch_norm_legit_no_training", ops.Core, ops.Mutable},
		{"aten::_native_batch_norm_legit_functional", ops.Core, ops.Mutable},
		{"aten::squeeze.dims", ops.Core | ops.View, ops.Mutable},
		{"aten::sym_size.int", ops.Core, ops.Mutable | ops.Effectful},
		// rrelu_with_noise writes noise since 2.x: its newest schema's tags.
		{"aten::rrelu_with_noise", ops.Mutable | ops.Random, ops.Inplace},
		{"aten::_fused_rms_norm", ops.Composite, ops.Core},
		{"prims::convert_element_type", ops.Composite, ops.Core},
		{"quantized::linear", ops.Composite, ops.Core},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, ok := ops.Global().Lookup(tt.name)
			require.True(t, ok)
			assert.True(t, o.Has(tt.has), "%s has %s, got %s", tt.name, tt.has, o.Tags())
			assert.Zero(t, o.Tags()&tt.hasNot, "%s lacks %s, got %s", tt.name, tt.hasNot, o.Tags())
			assert.Equal(t, o.Has(ops.Mutable) || o.Has(ops.Effectful), o.Impure())
		})
	}
}

func TestLookupQualified(t *testing.T) {
	tests := []struct {
		name, want, errSub string
	}{
		{"torch.ops.aten.conv2d.default", "aten.conv2d.default", ""},
		{"torch.ops.aten.add.Tensor", "aten.add.Tensor", ""},
		{"torch.ops.aten._native_batch_norm_legit_no_training.default", "aten._native_batch_norm_legit_no_training.default", ""},
		{"torch.ops.prims.convert_element_type.default", "prims.convert_element_type.default", ""},
		{"torch.ops.quantized_decomposed.dequantize_per_channel.default", "quantized_decomposed.dequantize_per_channel.default", ""},
		{"aten.relu.default", "aten.relu.default", ""},
		{"aten::relu", "aten.relu.default", ""},
		{"torch.ops.aten.add", "", "is not an operator overload"},
		{"torch.ops.aten.add.Nope", "", "aten::add has no such overload"},
		{"torch.ops.aten.frobnicate.default", "", "not in PyTorch 1.13, 2.6 or 2.14"},
		{"torch.ops.mylib.op.default", "", "ops.Define"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := ops.Global().LookupQualified(tt.name)
			if tt.errSub != "" {
				require.Error(t, err)
				assert.ErrorContains(t, err, tt.name)
				assert.ErrorContains(t, err, tt.errSub)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, o.String())
		})
	}
}

// TestRegistryMatchesPyTorch checks the registry against the registry dumps
// of ../shared/aten, when present: every schema of 2.6 and 2.14 is among
// its operator's schemas, and an operator's newest schema is 2.14's (2.6's
// for an operator 2.14 dropped), in every namespace.
func TestRegistryMatchesPyTorch(t *testing.T) {
	var dir string
	for _, d := range []string{"../../shared/aten", "../../../shared/aten"} {
		if _, err := os.Stat(filepath.Join(d, "registry_schemas_2.14.txt")); err == nil {
			dir = d
			break
		}
	}
	if dir == "" {
		t.Skip("../shared/aten/registry_schemas_2.14.txt is absent")
	}
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		var out []string
		for _, line := range strings.Split(string(b), "\n") {
			if line != "" && !strings.HasPrefix(line, "#") {
				out = append(out, line)
			}
		}
		return out
	}
	in214 := map[string]bool{}
	for _, release := range []string{"2.14", "2.6"} {
		lines := read("registry_schemas_" + release + ".txt")
		require.NotEmpty(t, lines)
		for _, line := range lines {
			s := ops.MustParseSchema(line)
			o, ok := ops.Global().Lookup(s.QualifiedName())
			if !assert.True(t, ok, "%s of %s is not registered", s.QualifiedName(), release) {
				continue
			}
			assert.Contains(t, schemaStrings(o), line)
			if release == "2.14" {
				in214[s.QualifiedName()] = true
				assert.Equal(t, line, o.Schema().String(), "newest schema of %s", o)
			} else if !in214[s.QualifiedName()] {
				assert.Equal(t, line, o.Schema().String(), "newest schema of %s, which 2.14 dropped", o)
			}
		}
	}
}
