// Recipe: replace a pattern (replace_pattern, basic usage).
//
// What it teaches: pattern.Replace finds every occurrence of a small graph
// given as a Go function (the pattern) and swaps in another Go function (the
// replacement). The pattern's arguments are wildcards: they bind whatever
// feeds the match. Here sum(cat([w1, w2])) becomes sum(w1) + sum(w2), which
// computes the same number without building the concatenated tensor.
//
// torch.fx equivalent (the docs' replace_pattern example, with a replacement
// that keeps the result):
//
//	def pattern(w1, w2):
//	    return torch.cat([w1, w2]).sum()
//	def replacement(w1, w2):
//	    return w1.sum() + w2.sum()
//	torch.fx.replace_pattern(traced, pattern, replacement)
//
// What gofx adds, shown at the end: pattern.Explain says why a candidate did
// not match. torch.fx silently skips it.

package cookbook_test

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/tensor"
)

func Example_replacePattern() {
	gm, err := fx.SymbolicTraceFunc(func(x, w1, w2 nn.Value) nn.Value {
		m1 := F.Cat([]nn.Value{w1, w2}, 0).Sum()
		m2 := F.Cat([]nn.Value{w2, x}, 0).Sum() // the wildcards bind w2 and x
		c := F.Cat([]nn.Value{x, w1}, 0)
		m3 := c.Sum() // no match: c is used outside the pattern too
		return x.Add(m1).Add(m2).Add(m3).Add(c.Mean())
	}, "x", "w1", "w2")
	if err != nil {
		fmt.Println(err)
		return
	}
	x := nn.Tensor(tensor.Must(tensor.FromSlice([]float32{1, 2}, 2)))
	w1 := nn.Tensor(tensor.Must(tensor.FromSlice([]float32{3, 4}, 2)))
	w2 := nn.Tensor(tensor.Must(tensor.FromSlice([]float32{-5, 6}, 2)))
	before, _ := gm.Run(x, w1, w2)

	sumOfCat, err := pattern.Compile(func(w1, w2 nn.Value) nn.Value {
		return F.Cat([]nn.Value{w1, w2}, 0).Sum()
	}, pattern.Name("sum_of_cat"))
	if err != nil {
		fmt.Println(err)
		return
	}
	ms, err := pattern.Replace(gm, sumOfCat, func(w1, w2 nn.Value) nn.Value {
		return w1.Sum().Add(w2.Sum())
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ms), "matches")
	fmt.Print(gm.Code())
	after, err := gm.Run(x, w1, w2)
	fmt.Println(before, after, err) // same result

	// Why was the third sum left alone?
	sum, _ := gm.Graph.Node("sum_3")
	why, _ := pattern.Explain(gm, sumOfCat, sum)
	fmt.Println(why)
	// Output:
	// 2 matches
	// def forward(self, x, w1, w2):
	//     cat_2 = torch.ops.aten.cat.default([x, w1], 0)
	//     sum_3 = cat_2.sum()
	//     sum_4 = w1.sum();  w1 = None
	//     sum_5 = w2.sum()
	//     add_4 = torch.ops.aten.add.Tensor(sum_4, sum_5);  sum_4 = sum_5 = None
	//     add = torch.ops.aten.add.Tensor(x, add_4);  add_4 = None
	//     sum_6 = w2.sum();  w2 = None
	//     sum_7 = x.sum();  x = None
	//     add_5 = torch.ops.aten.add.Tensor(sum_6, sum_7);  sum_6 = sum_7 = None
	//     add_1 = torch.ops.aten.add.Tensor(add, add_5);  add = add_5 = None
	//     add_2 = torch.ops.aten.add.Tensor(add_1, sum_3);  add_1 = sum_3 = None
	//     mean = cat_2.mean();  cat_2 = None
	//     add_3 = torch.ops.aten.add.Tensor(add_2, mean);  add_2 = mean = None
	//     return add_3
	// tensor([25.5000, 26.5000]) tensor([25.5000, 26.5000]) <nil>
	// no match of pattern sum_of_cat at %sum_3:
	// - graph node %cat_2 (pattern node %cat, not an output of the pattern) is also used by %mean outside the match
}
