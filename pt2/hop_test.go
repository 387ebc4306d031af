package pt2_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/pt2"
)

// hopPrograms are the control-flow programs copied into testdata/hop
// from ../shared/pt2 and ../shared/pt2/torch-2.14.
var hopPrograms = []string{"cond_data", "cond_shape", "cond_params", "cond_nested", "map_rows", "while_count", "while_converge"}

// TestHOPPrograms runs every io.json case of the control-flow programs
// PyTorch 2.6 and 2.14 saved (cond on data, on a dynamic size, with
// lifted parameters, nested; map_impl; while_loop with a counter and with
// a data-dependent trip count, which PyTorch 2.6 cannot run from its own
// file) and compares with PyTorch's eager outputs.
func TestHOPPrograms(t *testing.T) {
	for _, dir := range []string{"testdata/hop", "testdata/hop/torch-2.14"} {
		for _, name := range hopPrograms {
			path := filepath.Join(dir, name+".pt2")
			t.Run(strings.TrimPrefix(path, "testdata/hop/"), func(t *testing.T) {
				io, err := pt2.ReadIO(filepath.Join(dir, name+".io.json"))
				require.NoError(t, err)
				require.NotEmpty(t, io.Cases)
				checkProgram(t, path, io)
			})
		}
	}
}

// TestHOPBothBranches: the cases of cond_data and cond_shape take both
// branches (x.sum() > 0 either way; sizes 3 and 5, 8 around the
// predicate's 4), so that TestHOPPrograms checks each branch against
// PyTorch.
func TestHOPBothBranches(t *testing.T) {
	io, err := pt2.ReadIO("testdata/hop/cond_data.io.json")
	require.NoError(t, err)
	taken := map[bool]int{}
	for _, c := range io.Cases {
		x := c.Inputs[0].Tensor()
		require.NotNil(t, x)
		var s float64
		for _, v := range x.Float64s() {
			s += v
		}
		taken[s > 0]++
	}
	assert.Positive(t, taken[true])
	assert.Positive(t, taken[false])
	io, err = pt2.ReadIO("testdata/hop/cond_shape.io.json")
	require.NoError(t, err)
	sizes := map[bool]int{}
	for _, c := range io.Cases {
		sizes[c.Inputs[0].Tensor().Shape()[0] > 4]++
	}
	assert.Positive(t, sizes[true])
	assert.Positive(t, sizes[false])
}

// rewriteProgram returns the .pt2 file at path with its program JSON
// changed by edit.
func rewriteProgram(t *testing.T, path string, edit func(map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		r, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(r)
		require.NoError(t, err)
		if strings.HasSuffix(f.Name, "serialized_exported_program.json") {
			var prog map[string]any
			require.NoError(t, json.Unmarshal(b, &prog))
			edit(prog)
			b, err = json.Marshal(prog)
			require.NoError(t, err)
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Store})
		require.NoError(t, err)
		_, err = w.Write(b)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return out.Bytes()
}

// walkJSON calls f on every object of v.
func walkJSON(v any, f func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(x)
		for _, e := range x {
			walkJSON(e, f)
		}
	case []any:
		for _, e := range x {
			walkJSON(e, f)
		}
	}
}

// TestHOPDanglingSubgraph: a branch graph that is not there is an error
// naming the operator's node and the branch, at load (a .pt2 whose graph
// argument has no graph) and at run (a program whose subgraphs lack the
// one a get_attr names).
func TestHOPDanglingSubgraph(t *testing.T) {
	data := rewriteProgram(t, "testdata/hop/cond_data.pt2", func(prog map[string]any) {
		walkJSON(prog, func(o map[string]any) {
			if g, ok := o["as_graph"].(map[string]any); ok && g["name"] == "false_graph_0" {
				g["graph"] = nil
			}
		})
	})
	_, err := pt2.Read(bytes.NewReader(data), int64(len(data)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cond")
	assert.Contains(t, err.Error(), "subgraph false_graph_0 has no graph")

	for _, name := range []string{"cond_data", "while_count", "map_rows", "cond_nested"} {
		ep, err := pt2.Load("testdata/hop/" + name + ".pt2")
		require.NoError(t, err)
		subs := ep.Subgraphs()
		last := subs[len(subs)-1]
		var nested bool
		if name == "cond_nested" {
			// drop the inner false branch of the outer true branch
			inner := subs[0]
			inner.Subgraphs = inner.Subgraphs[:1]
			subs = []export.Subgraph{inner, subs[1]}
			nested = true
		} else {
			subs = subs[:len(subs)-1]
		}
		broken, err := export.New(export.Parts{
			Graph: ep.Graph, Signature: ep.Signature, State: ep.StateDict(), Constants: ep.Constants(),
			Env: ep.Env, InSpec: ep.InSpec(), OutSpec: ep.OutSpec(), Subgraphs: subs,
		})
		require.NoError(t, err, name)
		io, err := pt2.ReadIO("testdata/hop/" + name + ".io.json")
		require.NoError(t, err)
		r := pt2.CheckCase(broken, &io.Cases[0], 1e-4)
		require.Error(t, r.Err, name)
		msg := r.Err.Error()
		switch {
		case nested:
			assert.Equal(t, "export: subgraph true_graph_0: node cond (higher_order.cond): the false branch false_graph_0 names no subgraph of the program (it has: true_graph_0)", msg)
		case name == "cond_data":
			assert.Equal(t, "export: node cond (higher_order.cond): the false branch false_graph_0 names no subgraph of the program (it has: true_graph_0)", msg)
		case name == "while_count":
			assert.Equal(t, "export: node while_loop (higher_order.while_loop): the body_fn while_loop_body_graph_0 names no subgraph of the program (it has: while_loop_cond_graph_0)", msg)
		default:
			assert.Equal(t, "export: node map_impl (higher_order.map_impl): the body_fn "+last.Name+" names no subgraph of the program (it has: none)", msg)
		}
	}
}
