package pattern_test

import (
	"testing"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/pattern"
)

// FuzzReplace parses two graphs from text, a target and a pattern (the
// pattern doubling as its own replacement), and checks that Compile, Find,
// Explain and Replace return errors rather than panic, and that a graph
// Replace reports success on still passes Lint.
func FuzzReplace(f *testing.F) {
	seeds := [][2]string{
		{"graph():\n    %x : [num_users=1] = placeholder[target=x]\n    %add : [num_users=1] = call_function[target=aten.add.Scalar](args = (%x, 1.0), kwargs = {})\n    %relu : [num_users=1] = call_function[target=aten.relu.default](args = (%add,), kwargs = {})\n    return relu\n",
			"graph():\n    %x : [num_users=1] = placeholder[target=x]\n    %add : [num_users=1] = call_function[target=aten.add.Scalar](args = (%x, 1.0), kwargs = {})\n    %relu : [num_users=1] = call_function[target=aten.relu.default](args = (%add,), kwargs = {})\n    return relu\n"},
		{"graph():\n    %a : [num_users=2] = placeholder[target=a]\n    %b : [num_users=1] = placeholder[target=b]\n    %mul : [num_users=1] = call_function[target=aten.mul.Tensor](args = (%b, %a), kwargs = {})\n    %add : [num_users=1] = call_function[target=aten.add.Tensor](args = (%mul, %a), kwargs = {})\n    return (add, mul)\n",
			"graph():\n    %x : [num_users=1] = placeholder[target=x]\n    %y : [num_users=1] = placeholder[target=y]\n    %mul : [num_users=1] = call_function[target=aten.mul.Tensor](args = (%x, %y), kwargs = {})\n    return mul\n"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, target, pat string) {
		g, err := graph.Parse(target)
		if err != nil {
			return
		}
		pg, err := graph.Parse(pat)
		if err != nil {
			return
		}
		p, err := pattern.Compile(pg)
		if err != nil {
			return
		}
		ms, err := pattern.Find(g, p)
		if err != nil {
			return
		}
		for n := range g.Nodes() {
			_, _ = pattern.Explain(g, p, n)
			break
		}
		_ = ms
		if _, err := pattern.Replace(g, p, pg); err != nil {
			return
		}
		if err := g.Lint(); err != nil {
			t.Fatalf("Replace succeeded but left a graph that fails Lint: %v\n%s", err, g)
		}
	})
}
