package export_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

// The Go equivalents of testdata/symlift/gen.py's programs: a cond
// branch, a while_loop body and a map body that close over an outer
// symbolic size n = x.shape[0] (PyTorch 2.14 lifts n as an operand; 2.6
// refuses them).

type symCondAdd struct{ nn.Base }

func (m *symCondAdd) Forward(x nn.Value) nn.Value {
	n := x.Size(0)
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return o[0].Add(n) },
		func(o ...nn.Value) nn.Value { return o[0].Sub(n) }, x)
}

type symCondView struct{ nn.Base }

func (m *symCondView) Forward(x nn.Value) nn.Value {
	n := x.Size(0)
	return F.Cond(x.Sum().Gt(0),
		func(o ...nn.Value) nn.Value { return o[0].Reshape(n, -1).Add(1) },
		func(o ...nn.Value) nn.Value { return o[0].View(n, -1).Mul(2) }, x)
}

type symWhileAdd struct{ nn.Base }

func (m *symWhileAdd) ArgNames() []string { return []string{"i", "x"} }

func (m *symWhileAdd) Forward(i, x nn.Value) nn.Value {
	n := x.Size(0)
	out := F.WhileLoop(func(v ...nn.Value) nn.Value { return v[0].Lt(3) },
		func(v ...nn.Value) []nn.Value { return []nn.Value{v[0].Add(1), v[1].Add(n)} },
		[]nn.Value{i, x}, nil)
	return nn.Tuple(out...)
}

type symMapAdd struct{ nn.Base }

func (m *symMapAdd) ArgNames() []string { return []string{"xs"} }

func (m *symMapAdd) Forward(xs nn.Value) nn.Value {
	n := xs.Size(1)
	return F.Map(func(v nn.Value, _ ...nn.Value) nn.Value { return v.Add(n) }, xs)
}

var (
	forwardRE = regexp.MustCompile(`def forward\(self(.*)\):`)
	symRE     = regexp.MustCompile(`\bs\d+\b`)
	hopRE     = regexp.MustCompile(`torch\.ops\.higher_order\.\w+\(.*?\);`)
)

// symliftStructure is what the test compares of a print: each graph's
// forward signature and the higher-order calls, with the symbols renamed
// s (PyTorch 2.14 numbers them s77, gofx s0). Names are compared as they
// are: a size node is sym_size_int in both (PyTorch's print says
// sym_size_int_1 where its trace dropped an earlier sym_size_int node of
// the same program; gofx names each program's first size node
// sym_size_int, so the reference's suffix _1 is the one thing removed).
func symliftStructure(text string) (sigs, hops []string) {
	text = strings.ReplaceAll(text, "sym_size_int_1", "sym_size_int")
	text = symRE.ReplaceAllString(text, "s")
	for _, m := range forwardRE.FindAllStringSubmatch(text, -1) {
		sigs = append(sigs, m[1])
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, m := range hopRE.FindAllString(line, -1) {
			hops = append(hops, strings.NewReplacer("(", "[", ")", "]").Replace(m))
		}
	}
	return sigs, hops
}

// TestExportLiftsSymbolicSize exports the four programs and compares each
// graph's signature (operand order, placeholder names and types) and the
// higher-order calls with PyTorch 2.14's export of the same program
// (testdata/symlift/NAME.ep.txt), then runs them, and their
// RunDecompositions, at the example size and another.
func TestExportLiftsSymbolicSize(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 4, 3))
	x2 := tensor.Must(tensor.FromSlice([]float32{-1, -2, -3, -4, -5, -6}, 2, 3))
	xs := tensor.Must(tensor.Must(tensor.Arange(tensor.Float32, 0, 24, 1)).Reshape(2, 4, 3))
	xs2 := tensor.Must(tensor.Must(tensor.Arange(tensor.Float32, 0, 12, 1)).Reshape(2, 2, 3))
	s := export.Dims{"x": {0: export.Dim("s", 2, 10)}}
	for _, tc := range []struct {
		name   string
		m      nn.Module
		args   []any
		dims   export.Dims
		others [][]any
	}{
		{"cond_add", &symCondAdd{}, []any{x}, s, [][]any{{x2}}},
		{"cond_view", &symCondView{}, []any{x}, s, [][]any{{x2}}},
		{"while_add", &symWhileAdd{}, []any{tensor.Scalar(int64(0)), x}, s, [][]any{{tensor.Scalar(int64(1)), x2}}},
		{"map_add", &symMapAdd{}, []any{xs}, export.Dims{"xs": {1: export.Dim("s", 2, 10)}}, [][]any{{xs2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, err := os.ReadFile(filepath.Join("testdata", "symlift", tc.name+".ep.txt"))
			require.NoError(t, err)
			tc.m.(interface{ Init(nn.Module, string) }).Init(tc.m, tc.name)
			ep, err := export.Export(tc.m, tc.args, tc.dims)
			require.NoError(t, err)
			wantSigs, wantHops := symliftStructure(string(ref))
			gotSigs, gotHops := symliftStructure(ep.String())
			require.NotEmpty(t, wantHops)
			assert.Equal(t, wantSigs, gotSigs, "forward signatures:\n%s", ep)
			assert.Equal(t, wantHops, gotHops, "higher-order calls:\n%s", ep)
			dec, err := ep.RunDecompositions(nil)
			require.NoError(t, err, "RunDecompositions")
			for _, args := range append([][]any{tc.args}, tc.others...) {
				vals := make([]nn.Value, len(args))
				for i, a := range args {
					vals[i] = nn.Of(a.(*tensor.Tensor))
				}
				want, err := nn.Run(tc.m, vals...)
				require.NoError(t, err)
				got, err := ep.Run(args...)
				require.NoError(t, err)
				assert.Equal(t, want.String(), got.String())
				got, err = dec.Run(args...)
				require.NoError(t, err, "decomposed")
				assert.Equal(t, want.String(), got.String(), "decomposed")
			}
		})
	}
}
