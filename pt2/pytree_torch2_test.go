package pt2_test

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// Pair is a struct registered as a pytree node under the name that
// testdata/pytree_load_check.py registers its dataclass under.
type Pair struct {
	A     nn.Value `pytree:"a"`
	B     nn.Value `pytree:"b"`
	Scale float64  `pytree:"scale"`
}

func init() {
	if err := export.Register[Pair]("gofx_test.Pair"); err != nil {
		panic(err)
	}
}

// nestedSum returns x_t*2 + the Pair's a*scale + its b (when there is
// one), summing every tensor of a dict of a list it takes.
type nestedSum struct{ nn.Base }

func (m *nestedSum) ArgNames() []string { return []string{"xs", "p"} }

func (m *nestedSum) Forward(xs, p nn.Value) nn.Value {
	d := xs.Index(0)
	y := d.Get("t").Index(0).Mul(2.0).Add(xs.Index(1))
	pair := p.Any().(*Pair)
	y = y.Add(pair.A.Mul(pair.Scale))
	if !pair.B.IsNone() {
		y = y.Add(pair.B)
	}
	return nn.Tuple(nn.Dict([]string{"y", "t"}, y, d.Get("t").Index(0)), nn.Tuple(y.Sum()))
}

// encodeArg writes v in the ARG encoding of the io.json files.
func encodeArg(t *testing.T, v any) map[string]any {
	t.Helper()
	switch x := v.(type) {
	case nil:
		return map[string]any{"none": nil}
	case *tensor.Tensor:
		require.Equal(t, tensor.Float32, x.DType())
		fs := x.Float64s()
		raw := make([]byte, 4*len(fs))
		for i, f := range fs {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(float32(f)))
		}
		return map[string]any{"tensor": map[string]any{"dtype": "float32", "shape": x.Shape(), "data": base64.StdEncoding.EncodeToString(raw)}}
	case int:
		return map[string]any{"int": x}
	case float64:
		// As Python writes a float: 2.0, not 2 (which reads back as an int).
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return map[string]any{"float": json.RawMessage(s)}
	}
	t.Fatalf("no ARG encoding for %T", v)
	return nil
}

// TestTorchLoadsPytreeInputs saves programs exported from Go with nested
// inputs (a list holding a dict of a list with a None, an int, a
// registered struct with a None field; keyword inputs with constants)
// and has PyTorch 2.6 (≤ 2.7 zip) and 2.14 (PT2 archive) load them and
// call them with the nested inputs rebuilt from the saved in spec: the
// outputs equal gofx's.
func TestTorchLoadsPytreeInputs(t *testing.T) {
	f32 := func(vals ...float64) *tensor.Tensor {
		return tensor.Must(tensor.FromFloat64s(tensor.Float32, vals, len(vals)))
	}
	a, b, c := f32(1, 2, 3), f32(0.5, -1, 2), f32(4, 5, 6)
	m := &nestedSum{}
	m.Init(m, "NestedSum")
	type program struct {
		name   string
		ep     *export.ExportedProgram
		leaves []any // the flat inputs, for the io.json
		args   []any
		kwargs map[string]any
	}
	var progs []program
	n := export.Dim("n", 2, 8)
	for _, p := range []struct {
		name   string
		args   []any
		kwargs map[string]any
		dims   export.Dims
		leaves []any
	}{
		{"nested", []any{[]any{map[string]any{"t": []any{a, nil}}, c}, &Pair{A: nn.Tensor(b), B: nn.Tensor(c), Scale: 0.5}}, nil,
			export.Dims{"xs_0_t_0": {0: n}, "xs_1": {0: n}, "p_a": {0: n}, "p_b": {0: n}}, []any{a, nil, c, b, c, 0.5}},
		{"kwargs", []any{[]any{map[string]any{"t": []any{a, nil}}, c}}, map[string]any{"p": &Pair{A: nn.Tensor(b), Scale: 2}},
			nil, []any{a, nil, c, b, 2.0}},
	} {
		var opts []export.Option
		if p.kwargs != nil {
			opts = append(opts, export.Kwargs(p.kwargs))
		}
		ep, err := export.Export(m, p.args, p.dims, opts...)
		require.NoError(t, err, p.name)
		progs = append(progs, program{p.name, ep, p.leaves, p.args, p.kwargs})
	}
	forEachTorch(t, func(t *testing.T, format pt2.Format, cmd *exec.Cmd, dir string) {
		var pairs []string
		for _, p := range progs {
			out, err := p.ep.Clone().Call(p.args, p.kwargs)
			require.NoError(t, err, p.name)
			top := out.([]any)
			d := top[0].(map[string]any)
			want := []any{d["y"], d["t"], top[1].([]any)[0]}
			var io struct {
				Inputs  []map[string]any `json:"inputs"`
				Outputs []map[string]any `json:"outputs"`
			}
			for _, l := range p.leaves {
				io.Inputs = append(io.Inputs, encodeArg(t, l))
			}
			for _, o := range want {
				io.Outputs = append(io.Outputs, encodeArg(t, o))
			}
			data, err := json.Marshal(io)
			require.NoError(t, err)
			iop := filepath.Join(dir, p.name+".io.json")
			require.NoError(t, os.WriteFile(iop, data, 0o644))
			path := filepath.Join(dir, p.name+".pt2")
			require.NoError(t, pt2.Write(path, p.ep, pt2.SaveOptions{Format: format}), p.name)
			pairs = append(pairs, path, iop)
		}
		script, err := filepath.Abs("testdata/pytree_load_check.py")
		require.NoError(t, err)
		res := runTorchCheckScript(t, cmd, script, pairs)
		for i := 0; i < len(pairs); i += 2 {
			if r, ok := torchRan(t, res, pairs[i]); ok {
				assert.Equal(t, 1, r.Cases)
				assert.LessOrEqual(t, r.MaxAbsDiff, 1e-5)
			}
		}
	})
}
