package passes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

func TestCSE(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    string // "" when the pass must not change the graph
		mods    map[string]nn.Module
		changed bool
	}{{
		name: "duplicate add and its users",
		src: `%x = placeholder "x"()
%add = call_function aten.add.Tensor(%x, %x)
%add_1 = call_function aten.add.Tensor(%x, %x)
%relu = call_function aten.relu.default(%add)
%relu_1 = call_function aten.relu.default(%add_1)
%mul = call_function aten.mul.Tensor(%relu, %relu_1)
%output = output "output"(%mul)`,
		want: `%x = placeholder "x"()
%add = call_function aten.add.Tensor(%x, %x)
%relu = call_function aten.relu.default(%add)
%mul = call_function aten.mul.Tensor(%relu, %relu)
%output = output "output"(%mul)`,
		changed: true,
	}, {
		name: "schema defaults are normalized",
		src: `%x = placeholder "x"()
%add = call_function aten.add.Tensor(%x, %x)
%add_1 = call_function aten.add.Tensor(%x, %x, alpha=1)
%sum_1 = call_function aten.sum.dim_IntList(%x, [0])
%sum_2 = call_function aten.sum.dim_IntList(%x, [0], False, dtype=None)
%output = output "output"((%add, %add_1, %sum_1, %sum_2))`,
		want: `%x = placeholder "x"()
%add = call_function aten.add.Tensor(%x, %x)
%sum_1 = call_function aten.sum.dim_IntList(%x, [0])
%output = output "output"((%add, %add, %sum_1, %sum_1))`,
		changed: true,
	}, {
		name: "int and float literals differ",
		src: `%x = placeholder "x"()
%add = call_function aten.add.Scalar(%x, 1)
%add_1 = call_function aten.add.Scalar(%x, 1.0)
%output = output "output"((%add, %add_1))`,
	}, {
		name: "random operators never merge",
		src: `%x = placeholder "x"()
%rand = call_function aten.rand.default([4])
%rand_1 = call_function aten.rand.default([4])
%randn = call_function aten.randn.default([4])
%randn_1 = call_function aten.randn.default([4])
%output = output "output"((%rand, %rand_1, %randn, %randn_1))`,
	}, {
		name: "a mutation is a barrier",
		src: `%x = placeholder "x"()
%relu = call_function aten.relu.default(%x)
%add_ = call_function aten.add_.Tensor(%x, %relu)
%relu_1 = call_function aten.relu.default(%x)
%output = output "output"((%relu, %relu_1))`,
	}, {
		name: "an in-place method is a barrier and never merges",
		src: `%x = placeholder "x"()
%neg = call_method "neg"(%x)
%relu_ = call_method "relu_"(%x)
%relu__1 = call_method "relu_"(%x)
%neg_1 = call_method "neg"(%x)
%output = output "output"((%neg, %neg_1))`,
	}, {
		name: "pure methods, getitem and get_attr merge",
		src: `%x = placeholder "x"()
%w = get_attr "w"()
%w_1 = get_attr "w"()
%add = call_function aten.add.Tensor(%x, %w)
%add_1 = call_function aten.add.Tensor(%x, %w_1)
%split = call_method "split"(%add, 2)
%split_1 = call_method "split"(%add_1, 2)
%getitem = call_function operator.getitem(%split, 0)
%getitem_1 = call_function operator.getitem(%split_1, 0)
%output = output "output"((%getitem, %getitem_1))`,
		want: `%x = placeholder "x"()
%w = get_attr "w"()
%add = call_function aten.add.Tensor(%x, %w)
%split = call_method "split"(%add, 2)
%getitem = call_function operator.getitem(%split, 0)
%output = output "output"((%getitem, %getitem))`,
		changed: true,
	}, {
		name: "calls of modules never merge",
		src: `%x = placeholder "x"()
%lin = call_module "lin"(%x)
%lin_1 = call_module "lin"(%x)
%output = output "output"((%lin, %lin_1))`,
		mods: map[string]nn.Module{"lin": nn.Eval(nn.NewLinear(4, 4, true))},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gm := newGM(t, tt.src, map[string]*tensor.Tensor{"w": ramp(t, 4)}, tt.mods)
			x := ramp(t, 4)
			before, err := gm.Run(nn.Tensor(x.Clone()))
			require.NoError(t, err)
			changed, err := passes.CSE.Apply(gm)
			require.NoError(t, err)
			assert.Equal(t, tt.changed, changed)
			want := tt.want
			if want == "" {
				want = tt.src
			}
			requireGraph(t, gm, want)
			after, err := gm.Run(nn.Tensor(x.Clone()))
			require.NoError(t, err)
			if !tt.changed {
				return // random values: nothing to compare
			}
			requireSameValues(t, before, after)
		})
	}
}
