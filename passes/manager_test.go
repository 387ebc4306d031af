package passes_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

const pipelineSrc = `%x = placeholder "x"()
%w = get_attr "w"()
%b = get_attr "b"()
%permute = call_function aten.permute.default(%w, [1, 0])
%addmm = call_function aten.addmm.default(%b, %x, %permute)
%dropout = call_function aten.dropout.default(%addmm, 0.1, False)
%relu = call_function aten.relu.default(%dropout)
%relu_1 = call_function aten.relu.default(%dropout)
%add = call_function aten.add.Tensor(%relu, %relu_1)
%neg = call_function aten.neg.default(%add)
%output = output "output"(%add)`

func pipelineGM(t *testing.T) *fx.GraphModule {
	return newGM(t, pipelineSrc, map[string]*tensor.Tensor{"w": ramp(t, 3, 3), "b": ramp(t, 3)}, nil)
}

func TestManagerGolden(t *testing.T) {
	gm := pipelineGM(t)
	m := passes.NewManager(passes.RemoveDropout, passes.FoldConstants, passes.CSE, passes.DCE)
	m.Diff = true
	rep, err := m.Run(gm)
	require.NoError(t, err)
	got := rep.Table(false) + "\n" + rep.Diffs() + "\nop counts:\n"
	for _, l := range rep.OpsBefore.Delta(rep.OpsAfter) {
		got += l + "\n"
	}
	got += "\n" + gm.Graph.String()
	golden.Check(t, "testdata/manager/pipeline.golden", got)

	// The report's own fields agree with the table.
	require.Len(t, rep.Passes, 4)
	assert.Equal(t, 11, rep.NodesBefore)
	assert.Equal(t, 7, rep.NodesAfter)
	assert.True(t, rep.Changed)
	for _, p := range rep.Passes {
		assert.Equal(t, p.Changed, p.Diff != "", "pass %s: a diff exactly when changed", p.Name)
	}
	assert.Contains(t, rep.String(), "total")
}

func TestManagerFixedPoint(t *testing.T) {
	// shrink removes one neg per run: three runs change, the fourth does not.
	shrink := passes.Pass{Name: "shrink", Run: func(gm *fx.GraphModule) (bool, error) {
		for n := range gm.Graph.Nodes() {
			if n.Op() == node.CallFunction && n.Target().String() == "aten.neg.default" {
				if _, err := n.ReplaceAllUsesWith(n.Arg(0).(*node.Node), nil, false); err != nil {
					return false, err
				}
				return true, gm.Graph.EraseNode(n)
			}
		}
		return false, nil
	}}
	src := `%x = placeholder "x"()
%neg = call_function aten.neg.default(%x)
%neg_1 = call_function aten.neg.default(%neg)
%neg_2 = call_function aten.neg.default(%neg_1)
%output = output "output"(%neg_2)`
	tests := []struct {
		name      string
		max       int
		rounds    int
		converged bool
		after     int
	}{
		{"converges", 0, 4, true, 2},
		{"capped", 2, 2, false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gm := newGM(t, src, nil, nil)
			m := &passes.Manager{Passes: []passes.Pass{shrink, passes.DCE}, FixedPoint: true, MaxIterations: tt.max, Lint: true}
			rep, err := m.Run(gm)
			require.NoError(t, err)
			assert.Equal(t, tt.rounds, rep.Rounds)
			assert.Equal(t, tt.converged, rep.Converged)
			assert.Equal(t, tt.after, rep.NodesAfter)
			assert.Len(t, rep.Passes, 2*tt.rounds)
			assert.Contains(t, rep.Table(false), "round")
		})
	}
}

func TestManagerErrors(t *testing.T) {
	noop := passes.Pass{Name: "noop", Run: func(*fx.GraphModule) (bool, error) { return false, nil }}
	// breakOrder makes the relu use the add that comes after it.
	breakOrder := passes.Pass{Name: "break_order", Run: func(gm *fx.GraphModule) (bool, error) {
		relu, _ := gm.Graph.Node("relu")
		add, _ := gm.Graph.Node("add")
		return true, relu.UpdateArg(0, add)
	}}
	// dangling makes a node read an attribute that does not exist.
	dangling := passes.Pass{Name: "dangling", Run: func(gm *fx.GraphModule) (bool, error) {
		w, _ := gm.Graph.Node("w")
		return true, w.SetTarget(node.Path("missing"))
	}}
	failing := passes.Pass{Name: "failing", Run: func(*fx.GraphModule) (bool, error) {
		return false, errors.New("node %relu: cannot handle it")
	}}
	panicking := passes.Pass{Name: "panicking", Run: func(*fx.GraphModule) (bool, error) {
		var n *node.Node
		return n.Erased(), nil
	}}
	tests := []struct {
		name   string
		m      *passes.Manager
		gm     bool
		want   []string // substrings of the error
		ran    int      // passes in the report
		report bool
	}{
		{"nil Run", passes.NewManager(noop, passes.Pass{Name: "empty"}), true, []string{`pass "empty" has no Run function`}, 0, false},
		{"no name", passes.NewManager(passes.Pass{Run: noop.Run}), true, []string{"pass 0 of the pipeline has no name"}, 0, false},
		{"unmet requirement", passes.NewManager(passes.Pass{Name: "fuse", Requires: []string{"noop"}, Run: noop.Run}, noop), true,
			[]string{`pass "fuse" requires "noop"`}, 0, false},
		{"nil GraphModule", passes.NewManager(noop), false, []string{"nil GraphModule"}, 0, false},
		{"breaks topological order", passes.NewManager(noop, breakOrder, passes.DCE), true,
			[]string{`pass "break_order" left a graph that fails Lint`, "relu"}, 2, true},
		{"dangling get_attr", passes.NewManager(dangling), true,
			[]string{`pass "dangling" left a graph that fails Lint`, "node w", `"missing"`}, 1, true},
		{"failing pass", passes.NewManager(failing), true, []string{`pass "failing"`, "cannot handle it"}, 1, true},
		{"panicking pass", passes.NewManager(panicking), true, []string{`pass "panicking" panicked`}, 1, true},
		{"verify hook", &passes.Manager{Passes: []passes.Pass{noop}, Verify: func(*fx.GraphModule) error { return errors.New("node %add: not core ATen") }}, true,
			[]string{`pass "noop" left a graph that fails verification`, "not core ATen"}, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gm *fx.GraphModule
			if tt.gm {
				gm = pipelineGM(t)
			}
			rep, err := tt.m.Run(gm)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			if !tt.report {
				assert.Nil(t, rep)
				return
			}
			require.NotNil(t, rep)
			assert.Len(t, rep.Passes, tt.ran)
		})
	}
}

func TestRunConvenience(t *testing.T) {
	gm := pipelineGM(t)
	rep, err := passes.Run(gm, passes.DCE)
	require.NoError(t, err)
	assert.Equal(t, []string{"call_function aten.neg.default 1→0"}, rep.OpsBefore.Delta(rep.OpsAfter))
	assert.Empty(t, rep.Passes[0].Diff, "diffs only when asked")
	changed, err := passes.Pass{Name: "x"}.Apply(gm)
	assert.False(t, changed)
	assert.ErrorContains(t, err, `pass "x" has no Run function`)
}
