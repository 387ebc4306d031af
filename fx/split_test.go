package fx_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/internal/chain"
	"github.com/gofx/gofx/internal/golden"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// splitDocModule is split_module's docstring example with relu for clamp
// (testdata/split/gen_split_ref.py).
type splitDocModule struct {
	nn.Base
	Param  *nn.Parameter
	Linear *nn.Linear
}

func newSplitDocModule(t *testing.T) *splitDocModule {
	m := &splitDocModule{}
	m.Init(m, "MyModule")
	p, err := tensor.New(tensor.Float32, 3, 4)
	require.NoError(t, err)
	m.Param = m.RegisterParameter("param", p)
	m.Linear = nn.RegisterModule(&m.Base, "linear", nn.NewLinear(4, 5, true))
	return m
}

func (m *splitDocModule) ArgNames() []string { return []string{"x", "y"} }

func (m *splitDocModule) Forward(x, y nn.Value) nn.Value {
	z := m.Linear.Call(x.Add(m.Param.Value())).Relu()
	w := m.Linear.Call(y).Relu()
	return z.Add(w)
}

// roundRobin returns a callback putting the i-th node it sees in
// partition i mod k, as the docstring's mod_partition.
func roundRobin(k int) func(*node.Node) int {
	i := 0
	return func(*node.Node) int {
		p := i % k
		i++
		return p
	}
}

// splitNodes lists a graph as gen_split_ref.py does.
func splitNodes(gm *fx.GraphModule) [][]any {
	var arg func(a node.Arg) any
	arg = func(a node.Arg) any {
		switch v := a.(type) {
		case *node.Node:
			return "%" + v.Name()
		case node.Tuple:
			out := []any{}
			for _, x := range v {
				out = append(out, arg(x))
			}
			return out
		case node.Int:
			return float64(v)
		}
		return fmt.Sprint(a)
	}
	var out [][]any
	for n := range gm.Graph.Nodes() {
		target := n.Target().String()
		if n.Op() == node.CallFunction {
			target = "function"
		}
		args := []any{}
		if n.Op() != node.Placeholder {
			for _, a := range n.Args() {
				args = append(args, arg(a))
			}
		}
		out = append(out, []any{n.Op().String(), n.Name(), target, args})
	}
	return out
}

func TestSplitModuleMatchesTorch(t *testing.T) {
	data, err := os.ReadFile("testdata/split/split_ref.json")
	require.NoError(t, err)
	var ref struct {
		Graphs map[string][][]any
	}
	require.NoError(t, json.Unmarshal(data, &ref))

	gm, err := fx.SymbolicTrace(newSplitDocModule(t))
	require.NoError(t, err)
	s, err := fx.SplitModuleWith(gm, roundRobin(3))
	require.NoError(t, err)
	got := map[string][][]any{"top": splitNodes(s.Module)}
	for _, p := range s.Partitions {
		got[p.Name] = splitNodes(p.Module)
	}
	if diff := cmp.Diff(ref.Graphs, got); diff != "" {
		t.Errorf("split graphs differ from torch.fx's (-torch +gofx):\n%s", diff)
	}
	assert.Equal(t, map[string]string{"submod_0.linear": "linear", "submod_1.linear": "linear"}, s.QualNames)
	assert.Equal(t, []int{0}, s.Partitions[1].DependsOn)
	assert.Equal(t, []string{"add", "linear_1"}, s.Partitions[0].Outputs)
}

// byTopModule partitions nodes by the outermost module on their
// nn_module_stack, in order of appearance; a node outside every module
// joins the partition of the node before it.
func byTopModule() func(*node.Node) int {
	ids := map[string]int{}
	last := 0
	return func(n *node.Node) int {
		st, ok := node.ModuleStack.Get(&n.Meta)
		if !ok || len(st) == 0 {
			if n.Op() == node.CallModule {
				st = []node.ModuleFrame{{Path: strings.Split(n.Target().String(), ".")[0]}}
			} else {
				return last
			}
		}
		top := strings.Split(st[0].Path, ".")[0]
		id, ok := ids[top]
		if !ok {
			id = len(ids)
			ids[top] = id
		}
		last = id
		return id
	}
}

// chunks partitions the computing nodes of gm into k runs of consecutive
// nodes.
func chunks(gm *fx.GraphModule, k int) func(*node.Node) int {
	idx := map[*node.Node]int{}
	for n := range gm.Graph.Nodes() {
		switch n.Op() {
		case node.CallFunction, node.CallMethod, node.CallModule:
			idx[n] = len(idx)
		}
	}
	return func(n *node.Node) int { return idx[n] * k / len(idx) }
}

func TestSplitModuleComputesTheSame(t *testing.T) {
	for _, name := range []string{"mlp", "convnet", "attention", "fx_doc_mymodule", "resnet18"} {
		for _, how := range []string{"module", "chunks3", "chunks7", "one"} {
			t.Run(name+"/"+how, func(t *testing.T) {
				wf, iof := zooFiles(t, name)
				spec, err := models.Lookup(name)
				require.NoError(t, err)
				sd, err := torchio.Load(wf)
				require.NoError(t, err)
				io, err := models.ReadIO(iof)
				require.NoError(t, err)
				m, err := models.Fresh(spec, sd)
				require.NoError(t, err)
				gm, err := fx.SymbolicTrace(m)
				require.NoError(t, err)
				before := gm.Graph.Text()

				var cb func(*node.Node) int
				switch how {
				case "module":
					cb = byTopModule()
				case "chunks3":
					cb = chunks(gm, 3)
				case "chunks7":
					cb = chunks(gm, 7)
				case "one":
					cb = func(*node.Node) int { return 5 }
				}
				s, err := fx.SplitModuleWith(gm, cb)
				require.NoError(t, err)
				require.NoError(t, s.Module.Lint())
				for _, p := range s.Partitions {
					require.NoError(t, p.Module.Lint(), p.Name)
				}
				assert.Equal(t, before, gm.Graph.Text(), "SplitModule changed its input")
				calls := s.Module.Graph.FindNodes(node.CallModule, nil)
				require.Len(t, calls, len(s.Partitions))

				for ci, c := range io.Cases {
					want, err := gm.Run(c.Inputs...)
					require.NoError(t, err)
					got, err := s.Module.Run(c.Inputs...)
					require.NoError(t, err)
					wf, gf := models.Flatten(want), models.Flatten(got)
					require.Len(t, gf, len(wf))
					for i := range wf {
						require.True(t, tensor.AllClose(gf[i].Tensor(), wf[i].Tensor(), 0, 0, false),
							"case %d output %d differs", ci, i)
					}
					// and against PyTorch's outputs
					for i := range c.Outputs {
						if ct := c.Outputs[i].Tensor(); ct != nil {
							require.True(t, tensor.AllClose(gf[i].Tensor(), ct, 0, spec.Tol, false), "case %d output %d vs PyTorch", ci, i)
						}
					}
				}
			})
		}
	}
}

func TestSplitModuleGolden(t *testing.T) {
	mlp, err := models.New("mlp")
	require.NoError(t, err)
	tests := []struct {
		name string
		m    nn.Module
		cb   func(*node.Node) int
	}{
		{"mlp", mlp, func(n *node.Node) int {
			if n.Target().String() == "0" {
				return 0
			}
			return 1
		}},
		{"doc_round_robin", newSplitDocModule(t), roundRobin(3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gm, err := fx.SymbolicTrace(tt.m)
			require.NoError(t, err)
			for n := range gm.Graph.Nodes() {
				n.Meta.Delete(node.StackTrace.Name()) // file paths differ between checkouts
			}
			s, err := fx.SplitModuleWith(gm, tt.cb)
			require.NoError(t, err)
			var b strings.Builder
			fmt.Fprintf(&b, "# top\n%s\n", s.Module.Graph.Text())
			for _, p := range s.Partitions {
				fmt.Fprintf(&b, "\n# %s: nodes %v inputs %v outputs %v depends on %v\n%s\n", p.Name, p.Nodes, p.Inputs, p.Outputs, p.DependsOn, p.Module.Graph.Text())
			}
			golden.Check(t, "testdata/split/"+tt.name+".txt", b.String())
		})
	}
}

func TestSplitModuleCycle(t *testing.T) {
	gm, err := fx.SymbolicTrace(chain.NewModel(3))
	require.NoError(t, err)
	// blocks.0 in partition 0, blocks.1 in 1, blocks.2 in 0 again.
	_, err = fx.SplitModule(gm, func(n *node.Node) int {
		st, _ := node.ModuleStack.Get(&n.Meta)
		if len(st) > 0 && strings.HasPrefix(st[len(st)-1].Path, "blocks.1") {
			return 1
		}
		if strings.HasPrefix(n.Target().String(), "blocks.1") {
			return 1
		}
		return 0
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, fx.ErrPartitionCycle)
	assert.Contains(t, err.Error(), "partitions 0 -> 1 -> 0")
	assert.Contains(t, err.Error(), "uses relu of partition 0")
	assert.Contains(t, err.Error(), "of partition 1 uses")
}

// TestSplitModuleLongCycle: blocks 0, 1 and 2 in partitions 0, 1 and 2,
// block 3 back in 0: the error names the three partitions on the cycle, in
// data-flow order from the first.
func TestSplitModuleLongCycle(t *testing.T) {
	gm, err := fx.SymbolicTrace(chain.NewModel(4))
	require.NoError(t, err)
	_, err = fx.SplitModule(gm, func(n *node.Node) int {
		for _, b := range []string{"blocks.1", "blocks.2"} {
			st, _ := node.ModuleStack.Get(&n.Meta)
			if len(st) > 0 && strings.HasPrefix(st[len(st)-1].Path, b) || strings.HasPrefix(n.Target().String(), b) {
				return int(b[len(b)-1] - '0')
			}
		}
		return 0
	})
	require.ErrorIs(t, err, fx.ErrPartitionCycle)
	assert.Contains(t, err.Error(), "partitions 0 -> 1 -> 2 -> 0 (node ")
	assert.Contains(t, err.Error(), "of partition 2 uses")
}

func TestSplitModuleErrors(t *testing.T) {
	gm, err := fx.SymbolicTrace(chain.NewModel(2))
	require.NoError(t, err)
	tests := []struct {
		name string
		gm   *fx.GraphModule
		cb   func(*node.Node) int
		want string
	}{
		{"nil module", nil, func(*node.Node) int { return 0 }, "nil GraphModule"},
		{"nil callback", gm, nil, "nil partition callback"},
		{"negative", gm, func(*node.Node) int { return -1 }, "returned -1 for node blocks_0_lin"},
		{"panic", gm, func(n *node.Node) int { panic("boom") }, "panicked on node blocks_0_lin: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fx.SplitModule(tt.gm, tt.cb)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func ExampleSplitModuleWith() {
	gm, err := fx.SymbolicTrace(chain.NewModel(2))
	if err != nil {
		panic(err)
	}
	// One partition per block.
	s, err := fx.SplitModuleWith(gm, func(n *node.Node) int {
		if st, ok := node.ModuleStack.Get(&n.Meta); ok && strings.HasPrefix(st[len(st)-1].Path, "blocks.1") {
			return 1
		}
		if strings.HasPrefix(n.Target().String(), "blocks.1") {
			return 1
		}
		return 0
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Module.Code())
	fmt.Println(s.Partitions[1].Module.Code())
	// Output:
	// def forward(self, x):
	//     submod_0 = self.submod_0(x);  x = None
	//     submod_1 = self.submod_1(submod_0);  submod_0 = None
	//     return submod_1
	//
	// def forward(self, relu):
	//     blocks_1_lin = self.blocks_1_lin(relu);  relu = None
	//     add = torch.ops.aten.add.Tensor(blocks_1_lin, 1.0);  blocks_1_lin = None
	//     relu_1 = add.relu();  add = None
	//     return relu_1
}

// Exported programs' modules read their state with get_attr nodes on dotted
// paths, which stay at the top level and are passed to the partitions.
func TestSplitModuleExported(t *testing.T) {
	for _, name := range []string{"mlp", "convnet"} {
		t.Run(name, func(t *testing.T) {
			wf, iof := zooFiles(t, name)
			spec, err := models.Lookup(name)
			require.NoError(t, err)
			sd, err := torchio.Load(wf)
			require.NoError(t, err)
			io, err := models.ReadIO(iof)
			require.NoError(t, err)
			m, err := models.Fresh(spec, sd)
			require.NoError(t, err)
			ep, err := models.Export(spec, m, io.Cases[0].Inputs)
			require.NoError(t, err)
			gm, err := ep.Module()
			require.NoError(t, err)
			require.NotEmpty(t, gm.Graph.FindNodes(node.GetAttr, nil))
			s, err := fx.SplitModuleWith(gm, chunks(gm, 3))
			require.NoError(t, err)
			require.Len(t, s.Partitions, 3)
			for _, ga := range gm.Graph.FindNodes(node.GetAttr, nil) {
				_, err := nn.Attr(s.Module, ga.Target().String())
				require.NoError(t, err, "get_attr %s", ga.Target())
			}
			want, err := gm.Run(io.Cases[0].Inputs...)
			require.NoError(t, err)
			got, err := s.Module.Run(io.Cases[0].Inputs...)
			require.NoError(t, err)
			wfl, gfl := models.Flatten(want), models.Flatten(got)
			require.Len(t, gfl, len(wfl))
			for i := range wfl {
				require.True(t, tensor.AllClose(gfl[i].Tensor(), wfl[i].Tensor(), 0, 0, false), "output %d", i)
			}
		})
	}
}

// BenchmarkSplitModule splits the traced chain model into 10 partitions of
// consecutive nodes.
func BenchmarkSplitModule(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("blocks=%d", n), func(b *testing.B) {
			gm, err := fx.SymbolicTrace(chain.NewModel(n))
			require.NoError(b, err)
			cb := chunks(gm, 10)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := fx.SplitModule(gm, cb); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// zooFiles returns the paths of a zoo model's weights and io.json, in
// testdata/models or ../shared/models, or skips the test naming them.
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
