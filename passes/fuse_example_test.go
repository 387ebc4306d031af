package passes_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/passes"
)

// FuseConvBN folds convnet's two batch norms into its convolutions: the
// traced graph loses the two call_module nodes of bn1 and bn2, and the
// model itself keeps its layers and weights.
func ExampleFuseConvBN() {
	m, err := models.New("convnet")
	if err != nil {
		panic(err)
	}
	nn.Eval(m) // batch norms fold only in eval mode
	gm, err := fx.SymbolicTrace(m)
	if err != nil {
		panic(err)
	}
	before := gm.Graph.Len()
	changed, err := passes.FuseConvBN.Apply(gm)
	if err != nil {
		panic(err)
	}
	fmt.Println("changed:", changed)
	fmt.Printf("nodes: %d -> %d\n", before, gm.Graph.Len())
	var modules []string
	for n := range gm.Graph.Nodes() {
		if n.Op() == node.CallModule {
			modules = append(modules, n.Target().String())
		}
	}
	fmt.Println("modules called:", strings.Join(modules, " "))
	_, err = nn.Submodule(m, "bn1")
	fmt.Println("model still has bn1:", err == nil)
	// Output:
	// changed: true
	// nodes: 12 -> 10
	// modules called: conv1 conv2 pool gap fc
	// model still has bn1: true
}

// BenchmarkFuseConvBN measures FuseConvBN on resnet18 traced with
// PyTorch's weights (20 folds); each iteration traces afresh (the pass
// edits the GraphModule), timed apart from the pass.
func BenchmarkFuseConvBN(b *testing.B) {
	m, _, _ := loadModel(b, "resnet18")
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		gm, err := fx.SymbolicTrace(m)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := passes.FuseConvBN.Apply(gm); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFoldConvBN measures FoldConvBN on resnet18's exported
// program as a GraphModule (ep.Module()).
func BenchmarkFoldConvBN(b *testing.B) {
	m, _, io := loadModel(b, "resnet18")
	spec, err := models.Lookup("resnet18")
	if err != nil {
		b.Fatal(err)
	}
	ep, err := models.Export(spec, m, io.Cases[0].Inputs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		gm, err := ep.Module()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := passes.FoldConvBN.Apply(gm); err != nil {
			b.Fatal(err)
		}
	}
}

// RuleSetOf gives the rule set behind FuseConvBN; its Explain says why a
// batch norm does not fold (here, bn1 is in training mode).
func ExampleRuleSetOf() {
	m, err := models.New("convnet")
	if err != nil {
		panic(err)
	}
	nn.Eval(m)
	bn1, err := nn.Submodule(m, "bn1")
	if err != nil {
		panic(err)
	}
	nn.Train(bn1, true)
	gm, err := fx.SymbolicTrace(m)
	if err != nil {
		panic(err)
	}
	set, err := passes.RuleSetOf(passes.FuseConvBN, gm)
	if err != nil {
		panic(err)
	}
	for _, r := range set.Rules() {
		fmt.Printf("%s: %s\n", r.Name, r.Doc)
	}
	n := gm.Graph.FindNodes(node.CallModule, node.Path("bn1"))[0]
	why, err := set.Explain(gm, n)
	if err != nil {
		panic(err)
	}
	for _, line := range strings.Split(why, "\n") {
		if strings.HasPrefix(line, "rule conv2d_bn2d") {
			_, constraint, _ := strings.Cut(line, "; constraint: ")
			fmt.Println("conv2d_bn2d does not fire:", constraint)
		}
	}
	// Output:
	// conv1d_bn1d: fold an eval-mode batch-norm module into the layer module feeding it
	// conv2d_bn2d: fold an eval-mode batch-norm module into the layer module feeding it
	// conv2d_bn2d does not fire: the batch norm is in training mode
}
