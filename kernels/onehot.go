package kernels

import (
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// One-hot encoding, ATen's Onehot.cpp: one_hot.

// registerOnehot registers the kernels of onehot.go.
func registerOnehot() {
	register("aten::one_hot", oneHot, oneHotMeta)
}

// oneHot is aten::one_hot: an int64 tensor of self's shape plus one last
// dimension of num_classes (the largest class + 1 when -1), 1 at each
// element's class and 0 elsewhere.
func oneHot(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.DType() != tensor.Int64 {
		return nil, c.Errorf("self", "one_hot is only applicable to index tensor of type LongTensor.")
	}
	n := c.Int("num_classes")
	if n < -1 {
		return nil, c.Errorf("num_classes", "num_classes should be positive")
	}
	vals := self.Contiguous().Int64s()
	if n == -1 {
		if len(vals) == 0 {
			return nil, c.Errorf("self", "Can not infer total number of classes from empty tensor.")
		}
		for _, v := range vals {
			n = max(n, v+1)
		}
	}
	for _, v := range vals {
		if v < 0 {
			return nil, c.Errorf("self", "Class values must be non-negative.")
		}
		if v >= n {
			return nil, c.Errorf("self", "Class values must be smaller than num_classes.")
		}
	}
	shape := append(self.Shape(), int(n))
	total, err := tensor.Numel(shape)
	if err != nil || total > tensor.MaxElements {
		return nil, c.Errorf("num_classes", "one_hot of shape %s is too large", shapeString(shape))
	}
	out := make([]int64, total)
	for i, v := range vals {
		out[i*int(n)+int(v)] = 1
	}
	return oneOrErr(tensor.FromInt64s(tensor.Int64, out, shape...))
}

// oneHotMeta is one_hot's meta function: the shape is known without data
// only when num_classes is given.
func oneHotMeta(c *ops.Call) ([]any, error) {
	self := c.Tensor("self")
	if self.DType() != tensor.Int64 {
		return nil, c.Errorf("self", "one_hot is only applicable to index tensor of type LongTensor.")
	}
	n := c.Int("num_classes")
	if n < 0 {
		return dataDependentMeta(c)
	}
	return oneOrErr(tensor.NewMeta(tensor.Int64, append(self.Shape(), int(n))...))
}
