package passes

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// FuseConvBN folds each batch-norm layer in eval mode into the convolution
// that feeds it, at the level of call_module nodes, as
// torch.fx.experimental.optimization.fuse does: a call_module node of a
// BatchNorm1d (BatchNorm2d) whose only argument is a call_module node of a
// Conv1d (Conv2d) with no other user. The convolution's submodule is
// replaced by a new Conv holding the fused weight and bias (computed by
// FuseConvBNWeights), the batch norm's users use the convolution's node,
// and the batch-norm node and submodule are removed.
//
// The pass never edits the modules of the model that was traced: the
// modules on the edited paths are replaced in the GraphModule by shallow
// copies (nn.ShallowCopy), so the traced model keeps its weights and its
// tree. A pair is left alone (as PyTorch leaves it, or where fusing would
// change results) when the convolution's output has other users, either
// layer is in training mode, the batch norm does not track running
// statistics, either submodule is called by another node too, or a
// get_attr node reads inside either of them.
var FuseConvBN = Pass{
	Name: "fuse_conv_bn",
	Doc:  "fold eval-mode BatchNorm1d/2d call_module nodes into the Conv1d/2d that feeds them",
	Run:  func(gm *fx.GraphModule) (bool, error) { return fuseModules(gm, false) },
}

// FuseLinearBN folds each BatchNorm1d in eval mode into the Linear that
// feeds it (PyTorch's fuse_linear_bn_eval), with the conditions of
// FuseConvBN and two more: the Linear's out_features equal the batch
// norm's num_features, and, where the Linear's node has shape metadata
// (node.Val), its output has rank 2 (a batch norm over [N, C, L] inputs
// normalizes the dimension Linear does not map). Without metadata the
// output is taken to be [N, C], as PyTorch takes it.
var FuseLinearBN = Pass{
	Name: "fuse_linear_bn",
	Doc:  "fold eval-mode BatchNorm1d call_module nodes into the Linear that feeds them",
	Run:  func(gm *fx.GraphModule) (bool, error) { return fuseModules(gm, true) },
}

// FuseConvBNWeights returns the weight and bias of a convolution followed
// by a batch norm in eval mode, computed as PyTorch 1.13's
// torch.nn.utils.fusion.fuse_conv_bn_weights computes them, operation by
// operation in the tensors' dtype:
//
//	s = rsqrt(running_var + eps)
//	w' = w * (gamma * s).reshape(-1, 1, ...)     ((1, -1, ...) when transposed)
//	b' = (b - running_mean) * s * gamma + beta
//
// A nil convBias, bnWeight or bnBias stands for zeros, ones and zeros.
func FuseConvBNWeights(convWeight, convBias, runningMean, runningVar *tensor.Tensor, eps float64, bnWeight, bnBias *tensor.Tensor, transposed bool) (w, b *tensor.Tensor, err error) {
	defer nn.Recover(&err)
	if convWeight == nil || runningMean == nil || runningVar == nil {
		return nil, nil, fmt.Errorf("passes: FuseConvBNWeights: the convolution weight and the running mean and variance are required")
	}
	if convWeight.Dim() < 2 {
		return nil, nil, fmt.Errorf("passes: FuseConvBNWeights: convolution weight of shape %v, expected at least 2 dimensions", convWeight.Shape())
	}
	convBias, bnWeight, bnBias, err = defaults(runningMean, convBias, bnWeight, bnBias)
	if err != nil {
		return nil, nil, err
	}
	s := nn.CallOp(aten.Rsqrt, nn.Tensor(runningVar).Add(eps))
	shape := make([]any, convWeight.Dim())
	for i := range shape {
		shape[i] = 1
	}
	if transposed {
		shape[1] = -1
	} else {
		shape[0] = -1
	}
	wv := nn.Tensor(convWeight).Mul(nn.Tensor(bnWeight).Mul(s).Reshape(shape...))
	bv := nn.Tensor(convBias).Sub(nn.Tensor(runningMean)).Mul(s).Mul(nn.Tensor(bnWeight)).Add(nn.Tensor(bnBias))
	return wv.MustTensor(), bv.MustTensor(), nil
}

// FuseLinearBNWeights returns the weight and bias of a Linear followed by
// a batch norm in eval mode, as PyTorch 1.13's fuse_linear_bn_weights:
//
//	s = gamma * rsqrt(running_var + eps)
//	w' = w * s.unsqueeze(-1)
//	b' = (b - running_mean) * s + beta
//
// A nil linearBias stands for zeros; nil bnWeight and bnBias for ones and
// zeros (PyTorch requires them).
func FuseLinearBNWeights(linearWeight, linearBias, runningMean, runningVar *tensor.Tensor, eps float64, bnWeight, bnBias *tensor.Tensor) (w, b *tensor.Tensor, err error) {
	defer nn.Recover(&err)
	if linearWeight == nil || runningMean == nil || runningVar == nil {
		return nil, nil, fmt.Errorf("passes: FuseLinearBNWeights: the linear weight and the running mean and variance are required")
	}
	linearBias, bnWeight, bnBias, err = defaults(runningMean, linearBias, bnWeight, bnBias)
	if err != nil {
		return nil, nil, err
	}
	s := nn.Tensor(bnWeight).Mul(nn.CallOp(aten.Rsqrt, nn.Tensor(runningVar).Add(eps)))
	wv := nn.Tensor(linearWeight).Mul(s.Unsqueeze(-1))
	bv := nn.Tensor(linearBias).Sub(nn.Tensor(runningMean)).Mul(s).Add(nn.Tensor(bnBias))
	return wv.MustTensor(), bv.MustTensor(), nil
}

// defaults fills absent biases with zeros and an absent batch-norm weight
// with ones, shaped like the running mean.
func defaults(like, bias, gamma, beta *tensor.Tensor) (_, _, _ *tensor.Tensor, err error) {
	fill := func(t *tensor.Tensor, v float64) *tensor.Tensor {
		if t != nil || err != nil {
			return t
		}
		t, err = tensor.Full(like.DType(), v, like.Shape()...)
		return t
	}
	bias, gamma, beta = fill(bias, 0), fill(gamma, 1), fill(beta, 0)
	return bias, gamma, beta, err
}

// fuseModules runs FuseConvBN (linear false) or FuseLinearBN (linear true).
func fuseModules(gm *fx.GraphModule, linear bool) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	calls := map[string]int{}
	var attrs []string
	var bns []*node.Node
	for n := range gm.Graph.Nodes() {
		switch n.Op() {
		case node.CallModule:
			calls[n.Target().String()]++
			bns = append(bns, n)
		case node.GetAttr:
			attrs = append(attrs, n.Target().String())
		}
	}
	readInside := func(path string) bool {
		for _, a := range attrs {
			if a == path || strings.HasPrefix(a, path+".") {
				return true
			}
		}
		return false
	}
	t := newTree(gm)
	changed := false
	for _, bnNode := range bns {
		if bnNode.NumArgs() != 1 || len(bnNode.Kwargs()) > 0 {
			continue
		}
		src, ok := bnNode.Arg(0).(*node.Node)
		if !ok || src.Op() != node.CallModule || src.NumUsers() != 1 {
			continue
		}
		bnPath, srcPath := bnNode.Target().String(), src.Target().String()
		if calls[bnPath] != 1 || calls[srcPath] != 1 || readInside(bnPath) || readInside(srcPath) {
			continue
		}
		bnMod, err := nn.Submodule(gm, bnPath)
		if err != nil {
			return changed, fmt.Errorf("node %s: %w", bnNode.Name(), err)
		}
		srcMod, err := nn.Submodule(gm, srcPath)
		if err != nil {
			return changed, fmt.Errorf("node %s: %w", src.Name(), err)
		}
		fused, err := fusePair(src, srcMod, bnMod, linear)
		if err != nil {
			return changed, fmt.Errorf("nodes %s and %s: %w", src.Name(), bnNode.Name(), err)
		}
		if fused == nil {
			continue
		}
		if err := t.set(srcPath, fused); err != nil {
			return changed, fmt.Errorf("node %s: %w", src.Name(), err)
		}
		if _, err := bnNode.ReplaceAllUsesWith(src, nil, false); err != nil {
			return changed, fmt.Errorf("node %s: %w", bnNode.Name(), err)
		}
		if err := gm.Graph.EraseNode(bnNode); err != nil {
			return changed, fmt.Errorf("node %s: %w", bnNode.Name(), err)
		}
		if err := t.deleteModule(bnPath); err != nil {
			return changed, fmt.Errorf("node %s: %w", bnNode.Name(), err)
		}
		changed = true
	}
	return changed, nil
}

// evalBN returns the batch-norm layer of m, if m is a BatchNorm1d
// (BatchNorm2d with want2d) that can be folded: in eval mode, tracking
// running statistics.
func evalBN(m nn.Module, want2d bool) *nn.BatchNormNd {
	var bn *nn.BatchNormNd
	switch x := m.(type) {
	case *nn.BatchNorm1d:
		if !want2d {
			bn = &x.BatchNormNd
		}
	case *nn.BatchNorm2d:
		if want2d {
			bn = &x.BatchNormNd
		}
	}
	if bn == nil || bn.Training() || !bn.TrackRunningStats || bn.RunningMean == nil || bn.RunningVar == nil ||
		bn.RunningMean.Tensor() == nil || bn.RunningVar.Tensor() == nil {
		return nil
	}
	return bn
}

// fusePair returns the new module for src followed by bnMod, or nil when
// the pair does not fold.
func fusePair(src *node.Node, srcMod, bnMod nn.Module, linear bool) (nn.Module, error) {
	if srcMod.ModuleBase().Training() {
		return nil, nil
	}
	if linear {
		l, ok := srcMod.(*nn.Linear)
		bn := evalBN(bnMod, false)
		if !ok || bn == nil || l.Weight == nil || l.OutFeatures != bn.NumFeatures || !rank2(src) {
			return nil, nil
		}
		w, b, err := FuseLinearBNWeights(l.Weight.Tensor(), tensorOf(l.Bias), bn.RunningMean.Tensor(), bn.RunningVar.Tensor(), bn.Eps, tensorOf(bn.Weight), tensorOf(bn.Bias))
		if err != nil {
			return nil, err
		}
		nl := &nn.Linear{InFeatures: l.InFeatures, OutFeatures: l.OutFeatures}
		nl.Init(nl, l.TypeName())
		nl.Weight = nl.RegisterParameter("weight", w)
		nl.Bias = nl.RegisterParameter("bias", b)
		return nn.Eval(nl), nil
	}
	var conv *nn.ConvNd
	var bn *nn.BatchNormNd
	var fresh func() (nn.Module, *nn.ConvNd)
	switch c := srcMod.(type) {
	case *nn.Conv1d:
		conv, bn = &c.ConvNd, evalBN(bnMod, false)
		fresh = func() (nn.Module, *nn.ConvNd) {
			m := &nn.Conv1d{}
			m.Init(m, c.TypeName())
			return m, &m.ConvNd
		}
	case *nn.Conv2d:
		conv, bn = &c.ConvNd, evalBN(bnMod, true)
		fresh = func() (nn.Module, *nn.ConvNd) {
			m := &nn.Conv2d{}
			m.Init(m, c.TypeName())
			return m, &m.ConvNd
		}
	default:
		return nil, nil
	}
	if bn == nil || conv.Transposed || conv.Weight == nil || conv.OutChannels != bn.NumFeatures {
		return nil, nil
	}
	w, b, err := FuseConvBNWeights(conv.Weight.Tensor(), tensorOf(conv.Bias), bn.RunningMean.Tensor(), bn.RunningVar.Tensor(), bn.Eps, tensorOf(bn.Weight), tensorOf(bn.Bias), false)
	if err != nil {
		return nil, err
	}
	m, nc := fresh()
	nc.InChannels, nc.OutChannels, nc.Groups, nc.Transposed = conv.InChannels, conv.OutChannels, conv.Groups, conv.Transposed
	nc.KernelSize = append([]int(nil), conv.KernelSize...)
	nc.Stride = append([]int(nil), conv.Stride...)
	nc.Padding = append([]int(nil), conv.Padding...)
	nc.Dilation = append([]int(nil), conv.Dilation...)
	nc.OutputPadding = append([]int(nil), conv.OutputPadding...)
	nc.Weight = nc.RegisterParameter("weight", w)
	nc.Bias = nc.RegisterParameter("bias", b)
	return nn.Eval(m), nil
}

// rank2 reports whether n's output is not known to have a rank other
// than 2.
func rank2(n *node.Node) bool {
	v, ok := node.Val.Get(&n.Meta)
	if !ok || v == nil {
		return true
	}
	if tm, ok := v.(node.TensorMeta); ok {
		return len(tm.Shape) == 2
	}
	if r, ok := v.(interface{ Dim() int }); ok {
		return r.Dim() == 2
	}
	return true
}

func tensorOf(p *nn.Parameter) *tensor.Tensor {
	if p == nil {
		return nil
	}
	return p.Tensor()
}
