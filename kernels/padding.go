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
// formulas, which also define what negative padding (cropping) gives;
// constant_pad_nd; circular padding (_pad_circular); and pad and
// _pad_enum, which pick one of them by mode.

// registerPadding registers the kernels of padding.go.
func registerPadding() {
	registerBoth("aten::reflection_pad1d", reflectionPad1d)
	registerBoth("aten::reflection_pad2d", reflectionPad2d)
	registerBoth("aten::reflection_pad3d", reflectionPad3d)
	registerBoth("aten::replication_pad2d", replicationPad2d)
	registerBoth("aten::replication_pad3d", replicationPad3d)
	registerBoth("aten::constant_pad_nd", constantPadND)
	registerBoth("aten::replication_pad1d", replicationPad1d)
	registerBoth("aten::_pad_circular", padCircular)
	registerBoth("aten::_pad_enum", padKernelByMode)
	registerBoth("aten::pad", padKernelByMode)
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

// replicationPad1d is aten::replication_pad1d, for (C, W) and (N, C, W)
// tensors.
func replicationPad1d(c *ops.Call) ([]any, error) {
	return padKernel(c, padSpec{name: "replication_pad1d_cpu", nd: 1, exactLen: true})
}

// padModes are the modes of aten::pad, in the order of ATen's
// at::padding_mode (the int mode of _pad_enum).
var padModes = []string{"constant", "reflect", "replicate", "circular"}

// padKernelByMode is aten::pad (mode a string) and aten::_pad_enum (mode
// an int): constant_pad_nd, or reflection, replication or circular
// padding of the last 1, 2 or 3 dimensions as the padding's length says.
func padKernelByMode(c *ops.Call) ([]any, error) {
	self, pad := c.Tensor("self"), c.Ints("pad")
	var mode int
	switch m := c.Arg("mode").(type) {
	case string:
		mode = slices.Index(padModes, m)
		if mode < 0 {
			return nil, c.Errorf("mode", "Unrecognised padding mode %s", m)
		}
	case int64:
		if m < 0 || int(m) >= len(padModes) {
			return nil, c.Errorf("mode", "Unrecognised padding mode %d", m)
		}
		mode = int(m)
	}
	if len(pad)%2 != 0 {
		return nil, c.Errorf("pad", "Padding length must be divisible by 2")
	}
	n := self.Dim()
	if len(pad) > 2*n {
		return nil, c.Errorf("pad", "Padding length should be less than or equal to two times the input dimension but got padding length %d and input of dimension %d", len(pad), n)
	}
	value, hasValue := c.OptFloat("value")
	if mode == 0 {
		return delegate(c, "aten::constant_pad_nd", []any{self, pad, ops.FloatScalar(value)}, nil)
	}
	if hasValue && value != 0 {
		return nil, c.Errorf("value", "Padding mode \"%s\" doesn't take in value argument", padModes[mode])
	}
	nd := len(pad) / 2
	if nd < 1 || nd > 3 || n != nd+1 && n != nd+2 {
		return nil, c.Errorf("pad", "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now")
	}
	switch mode {
	case 1:
		return delegate(c, fmt.Sprintf("aten::reflection_pad%dd", nd), []any{self, pad}, nil)
	case 2:
		return delegate(c, fmt.Sprintf("aten::replication_pad%dd", nd), []any{self, pad}, nil)
	}
	return delegate(c, "aten::_pad_circular", []any{self, pad}, nil)
}

// padCircular is aten::_pad_circular: the last len(pad)/2 dimensions
// padded with wrapped-around copies (pad[2i], pad[2i+1] for the i-th
// dimension from the last; negative values crop), each by at most the
// dimension's size.
func padCircular(c *ops.Call) ([]any, error) {
	self, pad := c.Tensor("self"), c.Ints("pad")
	if len(pad)%2 != 0 || len(pad)/2 > self.Dim() {
		return nil, c.Errorf("pad", "Expected padding of length a multiple of 2 and at most 2*%d, got %d", self.Dim(), len(pad))
	}
	p := &chain{c: c, arg: "pad"}
	x := self
	for i := 0; i < len(pad)/2; i++ {
		d := self.Dim() - 1 - i
		size := int64(self.Size(d))
		lo, hi := pad[2*i], pad[2*i+1]
		if lo > size || hi > size {
			return nil, c.Errorf("pad", "Padding value causes wrapping around more than once.")
		}
		out := size + lo + hi
		if out < 0 {
			return nil, c.Errorf("pad", "Negative padding value is resulting in an empty dimension")
		}
		// ATen copies the cropped input into the middle, then the left
		// padding from the end of that middle and the right padding from
		// its start.
		off := max(-lo, 0)
		crop := size - off - max(-hi, 0)
		left := max(lo, 0)
		idx := make([]int64, out)
		for j := range idx {
			k := int64(j)
			switch {
			case k < left:
				k = crop - left + k
			case k < left+crop:
				k -= left
			default:
				k -= left + crop
			}
			idx[j] = off + (k%crop+crop)%crop
		}
		x = p.call("aten::index_select", x, int64(d), tensor.Must(tensor.FromInt64s(tensor.Int64, idx, int(out))))
	}
	if x == self && p.err == nil {
		x = self.Contiguous().Clone()
		if self.IsMeta() {
			x = self.Meta()
		}
	}
	return p.result(x)
}
