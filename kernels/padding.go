package kernels

import (
	"fmt"
	"slices"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Padding, ATen's ReflectionPad.cpp, ReplicationPadding.cpp and
// PadNd.cpp: reflection and replication padding of the last 1, 2 or 3
// dimensions, with PyTorch 1.13's input checks (batched and unbatched
// inputs, only a batch dimension may be empty), dtype support (float32 and
// float64, plus float16 and bfloat16 for reflection_pad3d) and index
// formulas, which also define what negative padding (cropping) gives; and
// constant_pad_nd.

// registerPadding registers the kernels of padding.go.
func registerPadding() {
	registerBoth("aten::reflection_pad1d", reflectionPad1d)
	registerBoth("aten::reflection_pad2d", reflectionPad2d)
	registerBoth("aten::reflection_pad3d", reflectionPad3d)
	registerBoth("aten::replication_pad2d", replicationPad2d)
	registerBoth("aten::replication_pad3d", replicationPad3d)
	registerBoth("aten::constant_pad_nd", constantPadND)
}

// padSpec describes one of the padding ops.
type padSpec struct {
	name    string // the name in ATen's "not implemented" message
	nd      int    // number of padded (trailing) dimensions
	reflect bool   // reflection (else replication)
	// exactLen: the padding list must have 2*nd entries; otherwise it
	// needs at least that many and the rest are ignored (reflection_pad1d
	// and reflection_pad2d read only the entries they need).
	exactLen bool
	half     bool // float16 and bfloat16 are supported
}

// reflectionPad1d is aten::reflection_pad1d: the last dimension of a
// (C, W) or (N, C, W) tensor padded with its reflection (the edge not
// repeated); each padding must be smaller than the width.
func reflectionPad1d(c *ops.Call) ([]any, error) {
	return padKernel(c, padSpec{name: "reflection_pad1d", nd: 1, reflect: true})
}

// reflectionPad2d is aten::reflection_pad2d, for (C, H, W) and
// (N, C, H, W) tensors.
func reflectionPad2d(c *ops.Call) ([]any, error) {
	return padKernel(c, padSpec{name: "reflection_pad2d", nd: 2, reflect: true})
}

// reflectionPad3d is aten::reflection_pad3d, for (C, D, H, W) and
// (N, C, D, H, W) tensors.
func reflectionPad3d(c *ops.Call) ([]any, error) {
	return padKernel(c, padSpec{name: "reflection_pad3d_cpu", nd: 3, reflect: true, exactLen: true, half: true})
}

// replicationPad2d is aten::replication_pad2d: the last two dimensions
// of a (C, H, W) or (N, C, H, W) tensor padded by repeating the edge
// values.
func replicationPad2d(c *ops.Call) ([]any, error) {
	return padKernel(c, padSpec{name: "replication_pad2d_cpu", nd: 2, exactLen: true})
}

// replicationPad3d is aten::replication_pad3d, for (C, D, H, W) and
// (N, C, D, H, W) tensors.
func replicationPad3d(c *ops.Call) ([]any, error) {
	return padKernel(c, padSpec{name: "replication_pad3d_cpu", nd: 3, exactLen: true})
}

// padCheckInput applies the input checks of the op: the rank (nd+1 for
// unbatched, nd+2 for batched input) and which dimensions may be empty.
func padCheckInput(c *ops.Call, sp padSpec, x *tensor.Tensor) error {
	shape, rank := x.Shape(), x.Dim()
	if rank < sp.nd+1 || rank > sp.nd+2 {
		return c.Errorf("self", "%s: expected a %dD or %dD (batch mode) tensor for input, but got %dD input of size %v", sp.name, sp.nd+1, sp.nd+2, rank, shape)
	}
	// The dimensions that must not be empty: all of them after the batch
	// and channel dimensions, the channel dimension too except in
	// reflection_pad1d/2d's unbatched form, and in replication_pad2d and
	// the 3d ops the unbatched channel dimension too.
	from := 1
	if rank == sp.nd+1 {
		from = 0
		if sp.nd < 3 && !(sp.name == "replication_pad2d_cpu") {
			from = 1
		}
	}
	for d := from; d < rank; d++ {
		if shape[d] == 0 {
			return c.Errorf("self", "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: %v", sp.nd+1, sp.nd+2, shape)
		}
	}
	return nil
}

// padKernel pads the last sp.nd dimensions of self.
func padKernel(c *ops.Call, sp padSpec) ([]any, error) {
	x := c.Tensor("self")
	pad := c.Ints("padding")
	if sp.exactLen && len(pad) != 2*sp.nd || len(pad) < 2*sp.nd {
		return nil, c.Errorf("padding", "padding size is expected to be %d, but got: %d", 2*sp.nd, len(pad))
	}
	for _, p := range pad[:2*sp.nd] {
		if p > tensor.MaxElements || p < -tensor.MaxElements {
			return nil, c.Errorf("padding", "padding %d is too large", p)
		}
	}
	if err := padCheckInput(c, sp, x); err != nil {
		return nil, err
	}
	dt := x.DType()
	if !(dt == tensor.Float32 || dt == tensor.Float64 || sp.half && (dt == tensor.Float16 || dt == tensor.BFloat16)) {
		return nil, c.Errorf("self", "\"%s\" not implemented for '%s'", sp.name, scalarTypeName(dt))
	}
	rank := x.Dim()
	shape := x.Shape()
	outShape := slices.Clone(shape)
	maps := make([][]int, sp.nd)
	// Padded dimension k counts from the last: pad[2k], pad[2k+1] apply
	// to dimension rank-1-k.
	args := []string{"#4", "#6", "#8"}
	letters := []string{"W", "H", "D"}
	anyPositive := false
	var sizes []string
	for k := 0; k < sp.nd; k++ {
		d := rank - 1 - k
		lo, hi, in := int(pad[2*k]), int(pad[2*k+1]), shape[d]
		if sp.reflect && (lo >= in || hi >= in) {
			return nil, c.Errorf("padding", "Argument %s: Padding size should be less than the corresponding input dimension, but got: padding (%d, %d) at dimension %d of input %v", args[k], lo, hi, d, shape)
		}
		outShape[d] = in + lo + hi
		anyPositive = anyPositive || outShape[d] >= 1
		sizes = append(sizes, fmt.Sprintf("%s: %d", letters[k], outShape[d]))
	}
	if !anyPositive || sp.nd == 1 && outShape[rank-1] < 1 {
		slices.Reverse(sizes)
		return nil, c.Errorf("padding", "input %v is too small. Calculated output %v", shape[rank-sp.nd:], sizes)
	}
	for d := rank - sp.nd; d < rank; d++ {
		if outShape[d] < 0 {
			return nil, c.Errorf("padding", "Trying to create tensor with negative dimension %d: %v", outShape[d], outShape)
		}
	}
	out, err := empty(x.IsMeta(), dt, outShape)
	if err != nil {
		return nil, c.Errorf("padding", "%v", err)
	}
	if out.IsMeta() || out.Numel() == 0 {
		return one(out), nil
	}
	for k := 0; k < sp.nd; k++ {
		d := rank - 1 - k
		m, err := padMap(int(pad[2*k]), int(pad[2*k+1]), shape[d], sp.reflect)
		if err != nil {
			return nil, c.Errorf("padding", "%v", err)
		}
		maps[k] = m
	}
	// The storage offset of every output element: the leading dimensions
	// as they are, the padded ones through their index maps.
	strides := x.Strides()
	lead := rank - sp.nd
	leadStrides := slices.Concat(strides[:lead], make([]int, sp.nd))
	offs := offsets(outShape, leadStrides, x.Offset())
	coords := make([][]int, sp.nd)
	for k := 0; k < sp.nd; k++ {
		d := rank - 1 - k
		u := make([]int, rank)
		u[d] = 1
		coords[k] = offsets(outShape, u, 0)
	}
	for i := range offs {
		for k := 0; k < sp.nd; k++ {
			offs[i] += maps[k][coords[k][i]] * strides[rank-1-k]
		}
	}
	return one(take(x, outShape, offs)), nil
}

// padMap maps every output index of a padded dimension of size in (with
// padding lo before and hi after, negative to crop) to the input index it
// copies, with ATen's formulas: reflection mirrors about the edge
// elements, replication repeats them.
func padMap(lo, hi, in int, reflect bool) ([]int, error) {
	n := in + lo + hi
	m := make([]int, n)
	iStart, oStart := max(-lo, 0), max(lo, 0)
	for j := range m {
		var ip int
		switch {
		case j < lo:
			ip = lo
			if reflect {
				ip = 2*lo - j
			}
		case j < in+lo:
			ip = j
		default:
			ip = in + lo - 1
			if reflect {
				ip = 2*(in+lo-1) - j
			}
		}
		ip += iStart - oStart
		if ip < 0 || ip >= in {
			return nil, fmt.Errorf("padding (%d, %d) of a dimension of size %d reads outside the input", lo, hi, in)
		}
		m[j] = ip
	}
	return m, nil
}

// constantPadND is aten::constant_pad_nd: self padded with value, pad
// giving (before, after) pairs from the last dimension backwards; negative
// pads crop.
func constantPadND(c *ops.Call) ([]any, error) {
	x := c.Tensor("self")
	pad := c.Ints("pad")
	if len(pad)%2 != 0 {
		return nil, c.Errorf("pad", "Length of pad must be even but instead it equals %d", len(pad))
	}
	rank, lpad := x.Dim(), len(pad)/2
	if lpad > rank {
		return nil, c.Errorf("pad", "Length of pad should be no more than twice the number of dimensions of the input. Pad length is %d while the input has %d dimensions.", len(pad), rank)
	}
	for _, p := range pad {
		if p > tensor.MaxElements || p < -tensor.MaxElements {
			return nil, c.Errorf("pad", "pad %d is too large", p)
		}
	}
	in := x
	shape := x.Shape()
	positive := false
	for i := rank - lpad; i < rank; i++ {
		lo, hi := int(pad[2*(rank-i-1)]), int(pad[2*(rank-i-1)+1])
		size := in.Shape()[i]
		if lo < 0 {
			if -lo > size {
				return nil, c.Errorf("pad", "padding %d crops more than the size %d of dimension %d", lo, size, i)
			}
			in = tensor.Must(in.Narrow(i, -lo, size+lo))
			size += lo
		}
		if hi < 0 {
			if -hi > size {
				return nil, c.Errorf("pad", "padding %d crops more than the size %d of dimension %d", hi, size, i)
			}
			in = tensor.Must(in.Narrow(i, 0, size+hi))
		}
		positive = positive || lo > 0 || hi > 0
	}
	if !positive {
		return one(rebase(in).Clone()), nil
	}
	for i := rank - lpad; i < rank; i++ {
		lo, hi := int(pad[2*(rank-i-1)]), int(pad[2*(rank-i-1)+1])
		n := shape[i] + lo + hi
		if n <= 0 {
			return nil, c.Errorf("pad", "The input size %d, plus negative padding %d and %d resulted in a negative output size, which is invalid. Check dimension %d of your input.", shape[i], lo, hi, i)
		}
		shape[i] = n
	}
	v, err := scalarValue(c, "value", c.Scalar("value"), x.DType())
	if err != nil {
		return nil, err
	}
	out, err := fullTensor(x.IsMeta(), x.DType(), shape, v)
	if err != nil {
		return nil, c.Errorf("pad", "%v", err)
	}
	if out.IsMeta() {
		return one(out), nil
	}
	inner := out
	for i := rank - lpad; i < rank; i++ {
		lo, hi := int(pad[2*(rank-i-1)]), int(pad[2*(rank-i-1)+1])
		s := inner.Shape()[i]
		inner = tensor.Must(inner.Narrow(i, max(lo, 0), s-max(lo, 0)-max(hi, 0)))
	}
	if in.Numel() == 0 {
		return one(out), nil
	}
	if err := inner.CopyFrom(in); err != nil {
		return nil, fmt.Errorf("constant_pad_nd: %w", err)
	}
	return one(out), nil
}
