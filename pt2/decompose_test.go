package pt2_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2"
)

// opCounts counts g's call_function nodes (subgraphs not included) by
// target, spelled as ep.json spells them: "aten.addmm.default", Python's
// operators as "<built-in function getitem>".
func opCounts(g *graph.Graph) map[string]int {
	out := map[string]int{}
	for n := range g.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		name := n.Target().String()
		if op, ok := strings.CutPrefix(name, "operator."); ok {
			name = "<built-in function " + op + ">"
		}
		// ep.json names higher-order operators as Python prints them.
		name = strings.TrimPrefix(name, "higher_order.")
		out[name]++
	}
	return out
}

// addSubgraphCounts adds the op counts of subgraphs (nested ones
// included) to counts, as ep.json counts them.
func addSubgraphCounts(counts map[string]int, subs []export.Subgraph) {
	for _, sg := range subs {
		for k, v := range opCounts(sg.Graph) {
			counts[k] += v
		}
		addSubgraphCounts(counts, sg.Subgraphs)
	}
}

// decompositionGaps are the PyTorch 2.6 programs of ../shared/pt2 whose
// RunDecompositions (to core ATen) does not give PyTorch's op counts of
// NAME.core.pt2 (ep.json's core.op_counts), each with why. Every other
// program must match exactly, and a program listed here must still differ
// (the list is the documentation of the gaps, kept true by this test).
var decompositionGaps = map[string]string{}

// TestDecompositionOpCounts runs RunDecompositions(decomp.Core()) on every
// 2.6 program of ../shared/pt2 and compares the op counts with PyTorch's
// own run_decompositions() (NAME.ep.json's core.op_counts).
func TestDecompositionOpCounts(t *testing.T) {
	// testdata/hop holds the control-flow programs of ../shared/pt2 and
	// ../shared/pt2/torch-2.14 with their ep.json's core.op_counts, so
	// that they run without it (2.14's decomposition too).
	files, _ := filepath.Glob(filepath.Join("testdata", "hop", "*.ep.json"))
	files214, _ := filepath.Glob(filepath.Join("testdata", "hop", "torch-2.14", "*.ep.json"))
	files = append(files, files214...)
	shared26, _ := filepath.Glob(filepath.Join(shared, "*.ep.json"))
	if len(shared26) == 0 {
		t.Logf("%s/*.ep.json is absent (../shared/pt2 beside the repo): only testdata/hop's programs run", shared)
	}
	files = append(files, shared26...)
	optest.ScaledSoftplus(t)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ep.json")
		label := name
		if strings.HasPrefix(f, "testdata") {
			label = strings.TrimSuffix(f, ".ep.json")
		}
		t.Run(label, func(t *testing.T) {
			diff, err := decompositionDiff(f, filepath.Join(filepath.Dir(f), name+".pt2"))
			gap, known := decompositionGaps[name]
			switch {
			case err != nil && !known:
				t.Fatalf("unexpected failure: %v", err)
			case err == nil && diff != "" && !known:
				t.Fatalf("op counts differ from PyTorch's run_decompositions():\n%s", diff)
			case err == nil && diff == "" && known:
				t.Fatalf("op counts now match PyTorch's: drop the gap %q from decompositionGaps", gap)
			case known:
				t.Logf("known gap (%s): %v%s", gap, err, diff)
			}
		})
	}
}

// decompositionDiff loads file, decomposes it and lists the op counts that
// differ from ep.json's core.op_counts ("" when none).
func decompositionDiff(epJSON, file string) (string, error) {
	data, err := os.ReadFile(epJSON)
	if err != nil {
		return "", err
	}
	var ej struct {
		Core struct {
			OpCounts map[string]int `json:"op_counts"`
		} `json:"core"`
	}
	if err := json.Unmarshal(data, &ej); err != nil {
		return "", err
	}
	ep, err := pt2.Load(file)
	if err != nil {
		return "", err
	}
	core, err := ep.RunDecompositions(decomp.Core())
	if err != nil {
		return "", err
	}
	got := opCounts(core.Graph)
	addSubgraphCounts(got, core.Subgraphs())
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range ej.Core.OpCounts {
		keys[k] = true
	}
	var lines []string
	for k := range keys {
		if got[k] != ej.Core.OpCounts[k] {
			lines = append(lines, fmt.Sprintf("%s: gofx %d, PyTorch %d", k, got[k], ej.Core.OpCounts[k]))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}
