package pt2_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// loadable lists the programs of testdata and ../shared/pt2 (2.6 and
// 2.14, as exported and after run_decompositions) by a short name.
func loadable(t *testing.T) map[string]string {
	out := map[string]string{}
	for _, name := range []string{"kwargs_scalars", "mutations", "tied_dict", "custom_op"} {
		out["testdata/"+name] = filepath.Join("testdata", name+".pt2")
	}
	for _, dir := range []string{shared, filepath.Join(shared, "torch-2.14")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.pt2"))
		for _, f := range files {
			rel, _ := filepath.Rel(shared, f)
			out[strings.TrimSuffix(rel, ".pt2")] = f
		}
	}
	return out
}

// sameState checks that two state maps hold the same tensors bitwise.
func sameState(t *testing.T, what string, want, got map[string]*tensor.Tensor) {
	t.Helper()
	require.Equal(t, len(want), len(got), "%s: entries", what)
	for k, w := range want {
		g, ok := got[k]
		if !assert.True(t, ok, "%s: %s missing", what, k) {
			continue
		}
		assert.Equal(t, w.DType(), g.DType(), "%s %s", what, k)
		assert.Equal(t, w.Shape(), g.Shape(), "%s %s", what, k)
		assert.Equal(t, tensorBytes(t, w), tensorBytes(t, g), "%s %s: values", what, k)
	}
}

// tensorBytes is the tensor's values, bit for bit: float64 bits (exact
// for every float dtype gofx has), or int64s.
func tensorBytes(t *testing.T, x *tensor.Tensor) []uint64 {
	var out []uint64
	if x.DType().IsFloat() {
		for _, v := range x.Float64s() {
			out = append(out, math.Float64bits(v))
		}
		return out
	}
	for _, v := range x.Int64s() {
		out = append(out, uint64(v))
	}
	return out
}

// unnameSinks replaces in text the names of ep's nodes that compute
// nothing anyone reads (call_function nodes without users) by sink0,
// sink1, ... in graph order.
func unnameSinks(ep *export.ExportedProgram, text string) string {
	i := 0
	for n := range ep.Graph.Nodes() {
		if n.Op() == node.CallFunction && n.NumUsers() == 0 {
			// The name as a value, not inside a target (aten._assert_scalar).
			re := regexp.MustCompile(`(^|[^.\w])` + regexp.QuoteMeta(n.Name()) + `\b`)
			text = re.ReplaceAllString(text, fmt.Sprintf("${1}sink%d", i))
			i++
		}
	}
	return text
}

// sameMeta checks that every node keeps its stack_trace and
// nn_module_stack.
func sameMeta(t *testing.T, f pt2.Format, want, got *export.ExportedProgram) {
	t.Helper()
	byName := map[string]*node.Node{}
	for n := range got.Graph.Nodes() {
		byName[n.Name()] = n
	}
	for n := range want.Graph.Nodes() {
		g, ok := byName[n.Name()]
		if !ok {
			continue // renamed (legacy sinks): the text comparison covers them
		}
		st, _ := node.StackTrace.Get(&n.Meta)
		gst, _ := node.StackTrace.Get(&g.Meta)
		assert.Equal(t, st, gst, "%s: %s: stack_trace", f, n.Name())
		ms, _ := node.ModuleStack.Get(&n.Meta)
		gms, _ := node.ModuleStack.Get(&g.Meta)
		assert.Equal(t, ms, gms, "%s: %s: nn_module_stack", f, n.Name())
	}
}

// TestRoundTrip loads every program gofx can load, saves it in both
// layouts (twice: the same bytes) and loads the result: the same program text (graph with
// shapes, signature, range constraints), the same signature, the same
// state bitwise (gofx → gofx is exact).
func TestRoundTrip(t *testing.T) {
	optest.ScaledSoftplus(t)
	for name, path := range loadable(t) {
		t.Run(name, func(t *testing.T) {
			ep, err := pt2.Load(path)
			require.NoError(t, err)
			for _, f := range []pt2.Format{pt2.Legacy, pt2.Archive} {
				var buf, again bytes.Buffer
				require.NoError(t, pt2.Save(&buf, ep, pt2.SaveOptions{Format: f}), "%s", f)
				require.NoError(t, pt2.Save(&again, ep, pt2.SaveOptions{Format: f}), "%s", f)
				assert.True(t, bytes.Equal(buf.Bytes(), again.Bytes()), "%s: two saves differ", f)
				back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
				require.NoError(t, err, "%s", f)
				want, got := ep.String(), back.String()
				if f == pt2.Legacy {
					// Schema 8.2 has no node names: a node without outputs
					// (_assert_scalar) is named after its target on loading,
					// by gofx as by PyTorch.
					want, got = unnameSinks(ep, want), unnameSinks(back, got)
				}
				assert.Equal(t, want, got, "%s: program text", f)
				assert.Equal(t, ep.Signature, back.Signature, "%s: signature", f)
				assert.Equal(t, ep.InSpec().String(), back.InSpec().String(), "%s: in spec", f)
				assert.Equal(t, ep.OutSpec().String(), back.OutSpec().String(), "%s: out spec", f)
				sameMeta(t, f, ep, back)
				sameState(t, f.String()+" state", ep.StateDict(), back.StateDict())
				sameState(t, f.String()+" constants", ep.Constants(), back.Constants())
			}
		})
	}
	if _, err := os.Stat(shared); err != nil {
		t.Logf("%s is absent: only testdata's programs ran", shared)
	}
}

// TestTorchLoadsLoaded writes the programs gofx loads from PyTorch's own
// files back as .pt2 (2.6's files in the ≤ 2.7 zip, 2.14's in the PT2
// archive, and each PyTorch's exported programs in the other's layout too)
// and has PyTorch 2.6 or 2.14 load and run them on their io.json cases.
// Failures PyTorch has on its own files (io.json's program_error: 2.6
// cannot run while_loop programs) are logged, not failed.
func TestTorchLoadsLoaded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PyTorch")
	}
	optest.ScaledSoftplus(t)
	dir26, dir214 := shared, filepath.Join(shared, "torch-2.14")
	for _, tc := range []struct {
		format     pt2.Format
		suite      string
		dir, other string // the files of that PyTorch, and of the other
	}{{pt2.Legacy, "", dir26, dir214}, {pt2.Archive, "sid", dir214, dir26}} {
		t.Run(tc.format.String(), func(t *testing.T) {
			cmd := torch2(t, tc.suite)
			files, _ := filepath.Glob(filepath.Join(tc.dir, "*.io.json"))
			if len(files) == 0 {
				t.Skipf("no programs in %s", tc.dir)
			}
			out := t.TempDir()
			var pairs []string
			skipped := map[string]string{}
			for _, f := range files {
				base := strings.TrimSuffix(filepath.Base(f), ".io.json")
				data, err := os.ReadFile(f)
				require.NoError(t, err)
				io := filepath.Join(out, base+".io.json")
				require.NoError(t, os.WriteFile(io, data, 0o644))
				if strings.Contains(string(data), `"program_error"`) {
					skipped[base] = "PyTorch cannot run its own file (io.json's program_error)"
				}
				// The programs of this PyTorch, as exported and decomposed,
				// and the other PyTorch's as exported (cross: 2.14's
				// programs written for 2.6 and the reverse).
				for _, src := range []struct{ dir, suffix, tag string }{
					{tc.dir, "", ""}, {tc.dir, ".core", ".core"}, {tc.other, "", ".cross"},
				} {
					suffix := src.tag
					ep, err := pt2.Load(filepath.Join(src.dir, base+src.suffix+".pt2"))
					if err != nil {
						t.Errorf("%s%s: load: %v", base, suffix, err)
						continue
					}
					p := filepath.Join(out, base+suffix+".pt2")
					if err := pt2.Write(p, ep, pt2.SaveOptions{Format: tc.format}); err != nil {
						t.Errorf("%s%s: save: %v", base, suffix, err)
						continue
					}
					pairs = append(pairs, p, io)
				}
			}
			res := runTorchCheck(t, cmd, pairs)
			for i := 0; i < len(pairs); i += 2 {
				key := strings.TrimSuffix(filepath.Base(pairs[i]), ".pt2")
				r, ok := res[pairs[i]]
				if !assert.True(t, ok, "%s: no result", key) {
					continue
				}
				base := strings.TrimSuffix(strings.TrimSuffix(key, ".core"), ".cross")
				switch {
				case r.Error != nil && skipped[base] != "":
					t.Logf("%s: %s: %s", key, skipped[base], *r.Error)
				case r.Error != nil:
					t.Errorf("%s: PyTorch %s: %s\n%s", key, r.Torch, *r.Error, r.Trace)
				default:
					t.Logf("%s: PyTorch %s ran %d cases, max abs diff %.3g", key, r.Torch, r.Cases, r.MaxAbsDiff)
					assert.LessOrEqual(t, r.MaxAbsDiff, 1e-4, key)
					assert.False(t, tc.format == pt2.Archive && r.Fallback, "%s: read only as a <= 2.7 zip", key)
				}
			}
		})
	}
}

// TestSaveKeepsArgNames: the forward_arg_names of PyTorch's files (keyword
// arguments included) survive a load and save.
func TestSaveKeepsArgNames(t *testing.T) {
	for name, want := range map[string][]string{
		"kwargs_scalars": {"x", "bias", "steps", "scale"},
		"tied_dict":      {"batch"},
	} {
		ep, err := pt2.Load(filepath.Join("testdata", name+".pt2"))
		require.NoError(t, err)
		p, err := pt2.SerializeProgram(ep, pt2.Legacy)
		require.NoError(t, err)
		assert.Equal(t, want, p.GraphModule.ModuleCallGraph[0].Signature.ForwardArgNames, name)
	}
}

// TestSaveExampleInputs: example inputs given to Save are written as
// torch.export.save writes them, and read back (pt2.LoadExample) as the
// same values: tied_dict's dict input and kwargs_scalars' keyword inputs,
// taken from PyTorch's own files.
func TestSaveExampleInputs(t *testing.T) {
	for _, name := range []string{"tied_dict", "kwargs_scalars"} {
		ep, args, kwargs, err := pt2.LoadExample(filepath.Join("testdata", name+".pt2"), "")
		require.NoError(t, err, name)
		for _, f := range []pt2.Format{pt2.Legacy, pt2.Archive} {
			p := filepath.Join(t.TempDir(), name+".pt2")
			require.NoError(t, pt2.Write(p, ep, pt2.SaveOptions{Format: f, ExampleArgs: args, ExampleKwargs: kwargs}))
			_, args2, kwargs2, err := pt2.LoadExample(p, "")
			require.NoError(t, err, "%s %s", name, f)
			assert.Equal(t, fmt.Sprint(args), fmt.Sprint(args2), "%s %s: args", name, f)
			assert.Equal(t, fmt.Sprint(kwargs), fmt.Sprint(kwargs2), "%s %s: kwargs", name, f)
		}
	}
}
