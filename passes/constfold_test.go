package passes_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/passes"
	"github.com/gofx/gofx/tensor"
)

func TestFoldConstants(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    string // "" when nothing may change
		opts    passes.FoldOptions
		buffers []string // the GraphModule's folded buffers
		random  bool     // outputs are random: do not compare them
	}{{
		name: "weight transpose",
		src: `%x = placeholder "x"()
%w = get_attr "w"()
%b = get_attr "b"()
%permute = call_function aten.permute.default(%w, [1, 0])
%addmm = call_function aten.addmm.default(%b, %x, %permute)
%output = output "output"(%addmm)`,
		want: `%x = placeholder "x"()
%b = get_attr "b"()
%_folded_constant_0 = get_attr "_folded_constant_0"()
%addmm = call_function aten.addmm.default(%b, %x, %_folded_constant_0)
%output = output "output"(%addmm)`,
		buffers: []string{"_folded_constant_0"},
	}, {
		name: "a chain of constants and literals, used twice",
		src: `%x = placeholder "x"()
%w = get_attr "w"()
%b = get_attr "b"()
%t = call_method "t"(%w)
%mul = call_function aten.mul.Scalar(%t, 2.0)
%add = call_function aten.add.Tensor(%b, %b)
%mm = call_function aten.mm.default(%x, %mul)
%add_1 = call_function aten.add.Tensor(%mm, %add)
%add_2 = call_function aten.add.Tensor(%add_1, %add)
%output = output "output"(%add_2)`,
		want: `%x = placeholder "x"()
%_folded_constant_0 = get_attr "_folded_constant_0"()
%_folded_constant_1 = get_attr "_folded_constant_1"()
%mm = call_function aten.mm.default(%x, %_folded_constant_0)
%add_1 = call_function aten.add.Tensor(%mm, %_folded_constant_1)
%add_2 = call_function aten.add.Tensor(%add_1, %_folded_constant_1)
%output = output "output"(%add_2)`,
		buffers: []string{"_folded_constant_0", "_folded_constant_1"},
	}, {
		name: "sizes become literals",
		src: `%x = placeholder "x"()
%w = get_attr "w"()
%size = call_method "size"(%w, 0)
%view = call_method "view"(%x, %size, -1)
%output = output "output"(%view)`,
		want: `%x = placeholder "x"()
%view = call_method "view"(%x, 3, -1)
%output = output "output"(%view)`,
	}, {
		name: "state the graph writes is not constant",
		src: `%x = placeholder "x"()
%b = get_attr "b"()
%add = call_function aten.add.Scalar(%b, 1.0)
%copy_ = call_function aten.copy_.default(%b, %add)
%mul = call_function aten.mul.Tensor(%x, %add)
%output = output "output"(%mul)`,
	}, {
		name: "state written through a view is not constant",
		src: `%x = placeholder "x"()
%w = get_attr "w"()
%t = call_method "t"(%w)
%mm = call_function aten.mm.default(%x, %t)
%relu_ = call_method "relu_"(%t)
%output = output "output"(%mm)`,
	}, {
		name: "random operators are not constant",
		src: `%x = placeholder "x"()
%w = get_attr "w"()
%rand = call_function aten.rand.default([3, 3])
%add = call_function aten.add.Tensor(%w, %rand)
%mm = call_function aten.mm.default(%x, %add)
%output = output "output"(%mm)`,
		random: true,
	}, {
		name: "an expansion beyond MaxGrowth stops at its input",
		src: `%x = placeholder "x"()
%b = get_attr "b"()
%neg = call_function aten.neg.default(%b)
%expand = call_function aten.expand.default(%neg, [1000, 3])
%add = call_function aten.add.Tensor(%x, %expand)
%output = output "output"(%add)`,
		opts: passes.FoldOptions{MaxGrowth: 4},
		want: `%x = placeholder "x"()
%_folded_constant_0 = get_attr "_folded_constant_0"()
%expand = call_function aten.expand.default(%_folded_constant_0, [1000, 3])
%add = call_function aten.add.Tensor(%x, %expand)
%output = output "output"(%add)`,
		buffers: []string{"_folded_constant_0"},
	}, {
		name: "a value from no tensor beyond MaxBytes is refused",
		src: `%x = placeholder "x"()
%zeros = call_function aten.full.default([1000, 3], 1.0)
%add = call_function aten.add.Tensor(%x, %zeros)
%output = output "output"(%add)`,
		opts: passes.FoldOptions{MaxBytes: 1024},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			attrs := map[string]*tensor.Tensor{"w": ramp(t, 3, 3), "b": ramp(t, 3)}
			gm := newGM(t, tt.src, attrs, nil)
			gm0 := newGM(t, tt.src, map[string]*tensor.Tensor{"w": attrs["w"].Clone(), "b": attrs["b"].Clone()}, nil)
			shape := []int{2, 3}
			if tt.opts.MaxGrowth > 0 || tt.opts.MaxBytes > 0 {
				shape = []int{1000, 3}
			}
			x := ramp(t, shape...)

			changed, err := passes.FoldConstantsWith(tt.opts).Apply(gm)
			require.NoError(t, err)
			want := tt.want
			if want == "" {
				want = tt.src
			}
			assert.Equal(t, tt.want != "", changed)
			requireGraph(t, gm, want)
			var folded []string
			for name, buf := range gm.Buffers() {
				if len(name) > 6 && name[:7] == "_folded" {
					folded = append(folded, name)
					assert.False(t, buf.Persistent(), "folded constants are not persistent")
				}
			}
			assert.Equal(t, tt.buffers, folded)

			// Twice, to see state written by the first run.
			for i := 0; i < 2 && !tt.random; i++ {
				got, err := gm.Run(nn.Tensor(x))
				require.NoError(t, err)
				want, err := gm0.Run(nn.Tensor(x))
				require.NoError(t, err)
				requireSameValues(t, want, got)
			}
		})
	}
}
