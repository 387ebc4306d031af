package nn_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	_ "github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mlp() *nn.Sequential {
	return nn.NewSequential(nn.NewLinear(16, 32, true), nn.NewReLU(), nn.NewLinear(32, 10, true))
}

func keys(sd *torchio.StateDict) []string { return sd.Names() }

// block has its own parameter and buffer registered after a submodule:
// PyTorch lists a module's own state before its submodules'.
type block struct {
	nn.Base
	Inner *nn.Linear
	Scale *nn.Parameter
	Count *nn.Buffer
	Tmp   *nn.Buffer
}

func newBlock() *block {
	b := &block{}
	b.Init(b, "Block")
	b.Inner = nn.RegisterModule(&b.Base, "inner", nn.NewLinear(2, 2, false))
	b.Scale = b.RegisterParameter("scale", tensor.Scalar[float32](1))
	b.Count = b.RegisterBuffer("count", tensor.Scalar[int64](0), true)
	b.Tmp = b.RegisterBuffer("tmp", tensor.Scalar[float32](0), false)
	return b
}

func (b *block) Forward(x nn.Value) nn.Value { return b.Inner.Call(x).Mul(b.Scale.Value()) }

func TestNamesAndOrder(t *testing.T) {
	m := nn.NewSequential(newBlock(), nn.NewReLU(), newBlock())
	assert.Equal(t, []string{"0.scale", "0.count", "0.inner.weight", "2.scale", "2.count", "2.inner.weight"}, keys(nn.StateDict(m)))
	var params, bufs, mods []string
	for n := range nn.NamedParameters(m) {
		params = append(params, n)
	}
	for n := range nn.NamedBuffers(m) {
		bufs = append(bufs, n)
	}
	for n := range nn.NamedModules(m) {
		mods = append(mods, n)
	}
	assert.Equal(t, []string{"0.scale", "0.inner.weight", "2.scale", "2.inner.weight"}, params)
	assert.Equal(t, []string{"0.count", "0.tmp", "2.count", "2.tmp"}, bufs)
	assert.Equal(t, []string{"", "0", "0.inner", "1", "2", "2.inner"}, mods)
	sub, err := nn.Submodule(m, "2.inner")
	require.NoError(t, err)
	assert.Equal(t, "Linear", sub.ModuleBase().TypeName())
	_, err = nn.Submodule(m, "2.outer")
	assert.ErrorContains(t, err, `module 2 (Block) has no submodule "outer"`)
	_, err = nn.Attr(m, "0.inner.bias")
	assert.ErrorContains(t, err, `no parameter or buffer "bias"`)
	assert.True(t, m.Training())
	nn.Eval(m)
	for _, sub := range nn.NamedModules(m) {
		assert.False(t, sub.ModuleBase().Training())
	}
}

func TestConstructionErrors(t *testing.T) {
	b := newBlock()
	b.RegisterParameter("scale", tensor.Scalar[float32](1))
	assert.ErrorContains(t, nn.Err(b), `attribute "scale" already exists`)
	_, err := nn.Run(b, nn.Tensor(tensor.Empty(tensor.Float32, 2)))
	assert.ErrorContains(t, err, `attribute "scale" already exists`)

	l := nn.NewLinear(-1, 3, true)
	m := nn.NewSequential(nn.NewReLU(), l)
	assert.ErrorContains(t, nn.Err(m), "module 1: Linear: in_features and out_features must be non-negative")
	bad := nn.NewSequential()
	bad.RegisterParameter("a.b", nil)
	assert.ErrorContains(t, nn.Err(bad), `cannot contain "."`)
}

func TestLoadStateErrors(t *testing.T) {
	m := mlp()
	sd := torchio.NewStateDict()
	for name, x := range nn.StateDict(mlp()).All() {
		sd.Set(name, x)
	}
	sd.Delete("0.bias")
	sd.Set("0.weight", tensor.Empty(tensor.Float32, 32, 15))
	sd.Set("2.bias", tensor.Empty(tensor.Float64, 10))
	sd.Set("extra", tensor.Empty(tensor.Float32, 1))
	before := nn.StateDict(m)
	w0 := before.Names()
	_, err := nn.LoadState(m, sd, nn.LoadOptions{})
	var se *nn.StateError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, []string{"0.bias"}, se.Missing)
	assert.Equal(t, []string{"extra"}, se.Unexpected)
	assert.Equal(t, []string{"0.weight: expected float32[32, 16], got float32[32, 15]", "2.bias: expected float32[10], got float64[10]"}, se.Mismatched)
	assert.Equal(t, w0, nn.StateDict(m).Names())

	// Non-strict: missing/unexpected are accepted, mismatches are not.
	_, err = nn.LoadState(m, sd, nn.LoadOptions{NonStrict: true})
	require.True(t, errors.As(err, &se))
	assert.Empty(t, se.Missing)
	assert.Len(t, se.Mismatched, 2)

	sd.Set("0.weight", tensor.Must(tensor.Full(tensor.Float32, 0.5, 32, 16)))
	sd.Set("2.bias", tensor.Must(tensor.Full(tensor.Float32, 0.25, 10)))
	// What was skipped is reported, as PyTorch's _IncompatibleKeys.
	keys, err := nn.LoadState(m, sd, nn.LoadOptions{NonStrict: true})
	require.NoError(t, err)
	assert.Equal(t, nn.IncompatibleKeys{Missing: []string{"0.bias"}, Unexpected: []string{"extra"}}, keys)
	assert.Equal(t, "_IncompatibleKeys(missing_keys=['0.bias'], unexpected_keys=['extra'])", keys.String())
	w, _ := nn.StateDict(m).Get("0.weight")
	assert.Equal(t, 0.5, w.Float64s()[7])
}

func TestLoadAndRunMLP(t *testing.T) {
	m := nn.Eval(mlp())
	keys, err := nn.Load(m, "../testdata/models/mlp.state_dict.pt", nn.LoadOptions{})
	require.NoError(t, err)
	assert.True(t, keys.Empty())
	assert.Equal(t, "<All keys matched successfully>", keys.String())
	io, err := models.ReadIO("../testdata/models/mlp.io.json")
	require.NoError(t, err)
	for _, c := range io.Cases {
		out, err := nn.Run(m, c.Inputs...)
		require.NoError(t, err)
		assert.True(t, tensor.AllClose(out.Tensor(), c.Outputs[0].Tensor(), 0, 1e-4, false))
	}
	_, err = nn.Run(m, nn.Tensor(tensor.Empty(tensor.Float32, 4, 15)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "aten::linear")
	assert.Contains(t, err.Error(), "module_test.go")
}

// TestSaveRoundTrip saves a module's state and reads it back. With
// GOFX_TORCH_CHECK=1 and PyTorch installed it also has torch.load read the
// file (nn/testdata/check_module_save.py), comparing with the state dict
// PyTorch saved.
func TestSaveRoundTrip(t *testing.T) {
	m := mlp()
	_, err := nn.Load(m, "../testdata/models/mlp.state_dict.pt", nn.LoadOptions{})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "mlp_gofx.pt")
	require.NoError(t, nn.Save(m, path))
	m2 := mlp()
	_, err = nn.Load(m2, path, nn.LoadOptions{})
	require.NoError(t, err)
	a, b := nn.StateDict(m), nn.StateDict(m2)
	require.Equal(t, a.Names(), b.Names())
	for name, x := range a.All() {
		y, _ := b.Get(name)
		assert.True(t, tensor.Equal(x, y), name)
	}
	if os.Getenv("GOFX_TORCH_CHECK") == "" {
		t.Skip("torch.load check skipped: set GOFX_TORCH_CHECK=1 (needs /usr/bin/python3 with torch)")
	}
	out, err := exec.Command("/usr/bin/python3", "testdata/check_module_save.py", path, "../testdata/models/mlp.state_dict.pt").CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "OK")
}
