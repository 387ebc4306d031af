package passes_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/torchio"
)

// zooFiles finds a model's weights and io.json: the repository's copy, or
// ../shared/models for the large ones (resnet18).
func zooFiles(t *testing.T, name string) (weights, io string) {
	t.Helper()
	for _, dir := range []string{"../testdata/models", "../../shared/models"} {
		w := filepath.Join(dir, name+".state_dict.pt")
		if _, err := os.Stat(w); err == nil {
			return w, filepath.Join(dir, name+".io.json")
		}
	}
	t.Skipf("%s: no %s.state_dict.pt in testdata/models or ../shared/models (the shared model zoo beside the repository)", name, name)
	return "", ""
}

// TestZoo runs the pipeline over every zoo model, traced (FX level) and
// exported (core ATen, ep.Module()), and checks the outputs on every
// io.json case are bitwise those of the graph before the passes: twice in
// a row, so that state a model writes (buffer mutation) is seen stale if
// a pass folded it. (The unoptimized pipelines themselves are checked
// against PyTorch's outputs by package models.)
func TestZoo(t *testing.T) {
	pipeline := []passes.Pass{passes.RemoveDropout, passes.FoldConstants, passes.CSE, passes.DCE, passes.DeleteUnusedSubmodules}
	for _, name := range models.Names() {
		for _, level := range []string{"traced", "exported"} {
			t.Run(name+"/"+level, func(t *testing.T) {
				wpath, iopath := zooFiles(t, name)
				spec, err := models.Lookup(name)
				require.NoError(t, err)
				sd, err := torchio.Load(wpath)
				require.NoError(t, err)
				io, err := models.ReadIO(iopath)
				require.NoError(t, err)
				build := func() *fx.GraphModule {
					m, err := models.Fresh(spec, sd)
					require.NoError(t, err)
					if level == "traced" {
						gm, err := fx.SymbolicTrace(m)
						require.NoError(t, err)
						return gm
					}
					ep, err := models.Export(spec, m, io.Cases[0].Inputs)
					require.NoError(t, err)
					gm, err := ep.Module()
					require.NoError(t, err)
					return gm
				}
				ref, opt := build(), build()
				rep, err := passes.Run(opt, pipeline...)
				require.NoError(t, err)
				t.Logf("%s %s: %d → %d nodes\n%s", name, level, rep.NodesBefore, rep.NodesAfter, rep.Table(false))
				assert.LessOrEqual(t, rep.NodesAfter, rep.NodesBefore)
				cases, rounds := io.Cases, 2
				if testing.Short() || name == "resnet18" {
					cases, rounds = cases[:1], 1 // seconds per case on a small machine
				}
				for round := range rounds {
					for i, c := range cases {
						want, err := ref.Run(c.Inputs...)
						require.NoError(t, err)
						got, err := opt.Run(c.Inputs...)
						require.NoError(t, err, "case %d round %d", i, round)
						requireSameValues(t, want, got)
					}
				}
			})
		}
	}
}
