package nn

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/tensor"
)

var (
	opBatchNorm = Op("aten::batch_norm")
	opLayerNorm = Op("aten::layer_norm")
	opGroupNorm = Op("aten::group_norm")
)

// BatchNormNd holds what BatchNorm1d and BatchNorm2d share (PyTorch's
// _BatchNorm): parameters "weight" and "bias" (with Affine) and buffers
// "running_mean", "running_var" and "num_batches_tracked" (a 0-d int64
// tensor; all three with TrackRunningStats), in PyTorch's order.
//
// In training mode the layer normalizes with the batch statistics and, with
// TrackRunningStats, updates the running statistics in place as PyTorch
// does: num_batches_tracked += 1, then running = (1-m)·running + m·batch
// (the unbiased batch variance for running_var), where m is Momentum, or
// 1/num_batches_tracked with CumulativeAverage. In evaluation mode it
// normalizes with the running statistics (the batch statistics without
// them).
type BatchNormNd struct {
	Base
	NumFeatures       int
	Eps               float64
	Momentum          float64
	CumulativeAverage bool // PyTorch's momentum=None
	Affine            bool
	TrackRunningStats bool
	Weight, Bias      *Parameter // nil without Affine
	RunningMean       *Buffer    // nil without TrackRunningStats
	RunningVar        *Buffer    // nil without TrackRunningStats
	NumBatchesTracked *Buffer    // nil without TrackRunningStats

	dims func(int) bool // accepted input ranks
	want string         // how PyTorch names them: "4D", "2D or 3D"
}

var bnOptions = []string{"eps", "momentum", "affine", "track_running_stats"}

func (l *BatchNormNd) initBatchNorm(n int, opts []NormOption) {
	c := configure(&l.Base, bnOptions, opts)
	l.NumFeatures, l.Eps, l.Momentum, l.CumulativeAverage = n, c.eps, c.momentum, c.momentumNone
	l.Affine, l.TrackRunningStats = c.affine, c.track
	if n < 0 {
		l.Fail(fmt.Errorf("%s: num_features must be non-negative, got %d", l.TypeName(), n))
		n = 0
	}
	if l.Affine {
		l.Weight = l.RegisterParameter("weight", filled(l, 1, n))
		l.Bias = l.RegisterParameter("bias", filled(l, 0, n))
	}
	if l.TrackRunningStats {
		l.RunningMean = l.RegisterBuffer("running_mean", filled(l, 0, n), true)
		l.RunningVar = l.RegisterBuffer("running_var", filled(l, 1, n), true)
		l.NumBatchesTracked = l.RegisterBuffer("num_batches_tracked", tensor.Scalar(int64(0)), true)
	}
}

// filled returns a float32 tensor of the shape filled with v, recording a
// failure on b.
func filled(b interface{ Fail(error) }, v float64, shape ...int) *tensor.Tensor {
	t, err := tensor.Full(tensor.Float32, v, shape...)
	b.Fail(err)
	return t
}

// forward is _BatchNorm.forward.
func (l *BatchNormNd) forward(x Value) Value {
	if t := x.Tensor(); t != nil && !l.dims(t.Dim()) {
		panic(errorf("%s: expected %s input (got %dD input)", l.TypeName(), l.want, t.Dim()))
	}
	factor := l.Momentum
	if l.CumulativeAverage {
		factor = 0
	}
	if l.Training() && l.TrackRunningStats && l.NumBatchesTracked != nil {
		l.countBatch()
		if l.CumulativeAverage {
			factor = 1 / l.NumBatchesTracked.Value().Float()
		}
	}
	training := l.Training() || (l.RunningMean == nil && l.RunningVar == nil)
	mean, variance := None, None
	if !l.Training() || l.TrackRunningStats {
		mean, variance = optBuffer(l.RunningMean), optBuffer(l.RunningVar)
	}
	if t := x.Tensor(); t != nil && training {
		verifyBatchSize(l.TypeName(), t.Shape())
	}
	return CallOp(opBatchNorm, x, optParam(l.Weight), optParam(l.Bias), mean, variance,
		training, factor, l.Eps, true)
}

// countBatch is num_batches_tracked.add_(1), through the add_ tensor
// method.
func (l *BatchNormNd) countBatch() {
	l.NumBatchesTracked.Value().Add_(1)
}

// verifyBatchSize is F._verify_batch_size: training statistics need more
// than one value per channel.
func verifyBatchSize(layer string, shape []int) {
	if len(shape) < 2 {
		return
	}
	n := shape[0]
	for _, s := range shape[2:] {
		n *= s
	}
	if n == 1 {
		panic(errorf("%s: Expected more than 1 value per channel when training, got input size %s", layer, pyList(shape)))
	}
}

// pyList prints ints as a Python list: [1, 2, 3].
func pyList(v []int) string { return strings.ReplaceAll(fmt.Sprint(v), " ", ", ") }

// ExtraRepr is what PyTorch prints between the parentheses:
// `8, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True`.
func (l *BatchNormNd) ExtraRepr() string {
	m := "None"
	if !l.CumulativeAverage {
		m = pyFloat(l.Momentum)
	}
	return fmt.Sprintf("%d, eps=%s, momentum=%s, affine=%s, track_running_stats=%s",
		l.NumFeatures, pyFloat(l.Eps), m, pyBool(l.Affine), pyBool(l.TrackRunningStats))
}

// BatchNorm1d is torch.nn.BatchNorm1d, over [N, C] or [N, C, L] inputs.
type BatchNorm1d struct{ BatchNormNd }

// NewBatchNorm1d returns a BatchNorm1d layer over n features:
//
//	nn.NewBatchNorm1d(64, nn.Eps(1e-3), nn.Momentum(0.01))
func NewBatchNorm1d(n int, opts ...NormOption) *BatchNorm1d {
	l := &BatchNorm1d{}
	l.Init(l, "BatchNorm1d")
	l.dims, l.want = func(d int) bool { return d == 2 || d == 3 }, "2D or 3D"
	l.initBatchNorm(n, opts)
	return l
}

// Forward computes aten::batch_norm (see BatchNormNd).
func (l *BatchNorm1d) Forward(x Value) Value { return l.forward(x) }

// Call is Call(l, x).
func (l *BatchNorm1d) Call(x Value) Value { return Call(l, x) }

// BatchNorm2d is torch.nn.BatchNorm2d, over [N, C, H, W] inputs.
type BatchNorm2d struct{ BatchNormNd }

// NewBatchNorm2d returns a BatchNorm2d layer over n channels:
//
//	nn.NewBatchNorm2d(64)
//	nn.NewBatchNorm2d(64, nn.TrackRunningStats(false), nn.Affine(false))
func NewBatchNorm2d(n int, opts ...NormOption) *BatchNorm2d {
	l := &BatchNorm2d{}
	l.Init(l, "BatchNorm2d")
	l.dims, l.want = func(d int) bool { return d == 4 }, "4D"
	l.initBatchNorm(n, opts)
	return l
}

// Forward computes aten::batch_norm (see BatchNormNd).
func (l *BatchNorm2d) Forward(x Value) Value { return l.forward(x) }

// Call is Call(l, x).
func (l *BatchNorm2d) Call(x Value) Value { return Call(l, x) }

// LayerNorm is torch.nn.LayerNorm: normalization over the trailing
// dimensions NormalizedShape, with parameters "weight" (ones) and "bias"
// (zeros) of that shape when ElementwiseAffine.
type LayerNorm struct {
	Base
	NormalizedShape   []int
	Eps               float64
	ElementwiseAffine bool
	Weight, Bias      *Parameter // nil without ElementwiseAffine
}

// NewLayerNorm returns a LayerNorm layer over the trailing dimensions
// normalizedShape (an int for the last dimension only, or []int); it takes
// the options Eps and Affine (PyTorch's elementwise_affine):
//
//	nn.NewLayerNorm(768, nn.Eps(1e-12))
func NewLayerNorm[S Size](normalizedShape S, opts ...NormOption) *LayerNorm {
	l := &LayerNorm{}
	l.Init(l, "LayerNorm")
	c := configure(&l.Base, []string{"eps", "affine"}, opts)
	shape := sizeOf(normalizedShape).vals
	l.NormalizedShape, l.Eps, l.ElementwiseAffine = shape, c.eps, c.affine
	for i, s := range shape {
		if s < 0 {
			l.Fail(fmt.Errorf("LayerNorm: normalized_shape must be non-negative, got %s", pyTuple(shape)))
			shape = append([]int(nil), shape...)
			shape[i] = 0
		}
	}
	if l.ElementwiseAffine {
		l.Weight = l.RegisterParameter("weight", filled(l, 1, shape...))
		l.Bias = l.RegisterParameter("bias", filled(l, 0, shape...))
	}
	return l
}

// Forward computes aten::layer_norm(x, normalized_shape, weight, bias,
// eps).
func (l *LayerNorm) Forward(x Value) Value {
	return CallOp(opLayerNorm, x, ints64(l.NormalizedShape), optParam(l.Weight), optParam(l.Bias), l.Eps, true)
}

// Call is Call(l, x).
func (l *LayerNorm) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `(8,), eps=1e-05, elementwise_affine=True`.
func (l *LayerNorm) ExtraRepr() string {
	return fmt.Sprintf("%s, eps=%s, elementwise_affine=%s", pyTuple(l.NormalizedShape), pyFloat(l.Eps), pyBool(l.ElementwiseAffine))
}

// GroupNorm is torch.nn.GroupNorm: normalization over groups of channels,
// with per-channel parameters "weight" (ones) and "bias" (zeros) when
// Affine.
type GroupNorm struct {
	Base
	NumGroups, NumChannels int
	Eps                    float64
	Affine                 bool
	Weight, Bias           *Parameter // nil without Affine
}

// NewGroupNorm returns a GroupNorm layer splitting channels into groups;
// it takes the options Eps and Affine:
//
//	nn.NewGroupNorm(32, 256)
func NewGroupNorm(groups, channels int, opts ...NormOption) *GroupNorm {
	l := &GroupNorm{NumGroups: groups, NumChannels: channels}
	l.Init(l, "GroupNorm")
	c := configure(&l.Base, []string{"eps", "affine"}, opts)
	l.Eps, l.Affine = c.eps, c.affine
	switch {
	case groups <= 0 || channels < 0:
		l.Fail(fmt.Errorf("GroupNorm: num_groups must be positive and num_channels non-negative, got %d and %d", groups, channels))
		channels = max(channels, 0)
	case channels%groups != 0:
		l.Fail(fmt.Errorf("GroupNorm: num_channels must be divisible by num_groups"))
	}
	if l.Affine {
		l.Weight = l.RegisterParameter("weight", filled(l, 1, channels))
		l.Bias = l.RegisterParameter("bias", filled(l, 0, channels))
	}
	return l
}

// Forward computes aten::group_norm(x, num_groups, weight, bias, eps).
func (l *GroupNorm) Forward(x Value) Value {
	if t := x.Tensor(); t != nil {
		if t.Dim() < 2 {
			panic(errorf("GroupNorm: Expected at least 2 dimensions for input tensor but received %d", t.Dim()))
		}
		sh := t.Shape()
		verifyBatchSize("GroupNorm", append([]int{sh[0] * sh[1] / l.NumGroups, l.NumGroups}, sh[2:]...))
	}
	return CallOp(opGroupNorm, x, l.NumGroups, optParam(l.Weight), optParam(l.Bias), l.Eps, true)
}

// Call is Call(l, x).
func (l *GroupNorm) Call(x Value) Value { return Call(l, x) }

// ExtraRepr is what PyTorch prints between the parentheses:
// `2, 4, eps=1e-05, affine=True`.
func (l *GroupNorm) ExtraRepr() string {
	return fmt.Sprintf("%d, %d, eps=%s, affine=%s", l.NumGroups, l.NumChannels, pyFloat(l.Eps), pyBool(l.Affine))
}
