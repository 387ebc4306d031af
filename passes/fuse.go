package passes

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/rewrite"
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
//
// The pass is a rule set (RuleSetOf): patterns of a Conv1d then a
// BatchNorm1d and of a Conv2d then a BatchNorm2d, matched by module type,
// whose constraint checks the conditions above and whose edit installs the
// fused module.
var FuseConvBN = Pass{
	Name: "fuse_conv_bn",
	Doc:  "fold eval-mode BatchNorm1d/2d call_module nodes into the Conv1d/2d that feeds them",
	Run:  func(gm *fx.GraphModule) (bool, error) { return fuseModules(gm, convLayer) },
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
	Run:  func(gm *fx.GraphModule) (bool, error) { return fuseModules(gm, linearLayer) },
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

// moduleChain is the pattern of call_module nodes in a row: each module,
// a leaf, called on the previous one's result (the first on the input).
type moduleChain struct {
	nn.Base
	names []string
}

func (m *moduleChain) Forward(x nn.Value) nn.Value {
	for _, name := range m.names {
		child, _ := m.Child(name)
		x = nn.Call(child, x)
	}
	return x
}

// newModuleChain returns the pattern calling mods in order, named by
// names (the names of the pattern's call_module nodes), in eval mode.
func newModuleChain(names []string, mods ...nn.Module) nn.Module {
	m := &moduleChain{names: names}
	m.Init(m, "ModuleChain")
	for i, mod := range mods {
		nn.RegisterModule(&m.Base, names[i], mod)
	}
	return nn.Eval(m)
}

// moduleTypeOptions are the pattern options of the rules whose patterns
// are modules (the fusions' layer pairs, nn.Dropout): they match every
// module of the pattern's Go type, whatever its configuration (kernel
// size, features, p); the constraints check what matters. pattern compares
// module configuration by default, so these rules ask for
// pattern.ModulesByType().
var moduleTypeOptions = []pattern.Option{pattern.ModulesByType()}

// fuseModuleSets are the rule sets of FuseConvBN and FuseLinearBN, built
// once: call_module patterns matched by module type (Conv1d then
// BatchNorm1d, Conv2d then BatchNorm2d; Linear then BatchNorm1d), whose
// constraint checks the modules and the graph, and whose edit installs the
// fused layer.
var fuseModuleSets = sync.OnceValues(func() (map[layerKind]*rewrite.RuleSet, error) {
	rule := func(name string, layer, bn nn.Module, kind layerKind) rewrite.Rule {
		return rewrite.Rule{
			Name:       name,
			Doc:        "fold an eval-mode batch-norm module into the layer module feeding it",
			Pattern:    newModuleChain([]string{"layer", "bn"}, layer, bn),
			Options:    moduleTypeOptions,
			Constraint: func(m *rewrite.Match) error { _, err := fuseCheck(m, kind); return err },
			Edit:       func(m *rewrite.Match) (bool, error) { return fuseEdit(m, kind) },
		}
	}
	conv, err := rewrite.NewRuleSet("fuse_conv_bn",
		rule("conv1d_bn1d", nn.NewConv1d(1, 1, 1), nn.NewBatchNorm1d(1), convLayer),
		rule("conv2d_bn2d", nn.NewConv2d(1, 1, 1), nn.NewBatchNorm2d(1), convLayer))
	if err != nil {
		return nil, err
	}
	linear, err := rewrite.NewRuleSet("fuse_linear_bn",
		rule("linear_bn1d", nn.NewLinear(1, 1, true), nn.NewBatchNorm1d(1), linearLayer))
	if err != nil {
		return nil, err
	}
	return map[layerKind]*rewrite.RuleSet{convLayer: conv, linearLayer: linear}, nil
})

// fuseModules runs FuseConvBN (convLayer) or FuseLinearBN (linearLayer).
func fuseModules(gm *fx.GraphModule, kind layerKind) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	sets, err := fuseModuleSets()
	if err != nil {
		return false, err
	}
	return sets[kind].Apply(gm)
}

// fusePairOf is a layer module and the batch norm after it, as matched.
type fusePairOf struct {
	layer, bn         *node.Node
	layerPath, bnPath string
	layerMod, bnMod   nn.Module
}

// fuseCheck says whether a match of a module-level fusion folds: each
// module is called by this node only and nothing reads inside it, the
// batch norm takes the layer's result alone, and the modules fit
// (fuseFits).
func fuseCheck(m *rewrite.Match, kind layerKind) (*fusePairOf, error) {
	gm := m.Module
	if gm == nil {
		return nil, fmt.Errorf("module-level fusion needs a GraphModule")
	}
	p := &fusePairOf{layer: m.Node("layer"), bn: m.Node("bn")}
	if p.bn.NumArgs() != 1 || len(p.bn.Kwargs()) > 0 {
		return nil, fmt.Errorf("%%%s takes more than the layer's result", p.bn.Name())
	}
	p.layerPath, p.bnPath = p.layer.Target().String(), p.bn.Target().String()
	for _, path := range []string{p.layerPath, p.bnPath} {
		if k := len(gm.Graph.FindNodes(node.CallModule, node.Path(path))); k != 1 {
			return nil, fmt.Errorf("module %s is called by %d nodes", path, k)
		}
		for _, a := range gm.Graph.FindNodes(node.GetAttr, nil) {
			if t := a.Target().String(); t == path || strings.HasPrefix(t, path+".") {
				return nil, fmt.Errorf("get_attr %%%s reads %s", a.Name(), t)
			}
		}
	}
	var err error
	if p.bnMod, err = nn.Submodule(gm, p.bnPath); err != nil {
		return nil, fmt.Errorf("node %s: %w", p.bn.Name(), err)
	}
	if p.layerMod, err = nn.Submodule(gm, p.layerPath); err != nil {
		return nil, fmt.Errorf("node %s: %w", p.layer.Name(), err)
	}
	if err := fuseFits(p.layer, p.layerMod, p.bnMod, kind); err != nil {
		return nil, err
	}
	return p, nil
}

// fuseEdit installs the fused layer of a match in the GraphModule (on a
// copy-on-write view of its module tree, shared by the whole pass) and
// removes the batch norm's node and module.
func fuseEdit(m *rewrite.Match, kind layerKind) (bool, error) {
	p, err := fuseCheck(m, kind)
	if err != nil {
		return false, nil
	}
	fused, err := fusePair(p.layerMod, p.bnMod, kind)
	if err != nil {
		return false, fmt.Errorf("nodes %s and %s: %w", p.layer.Name(), p.bn.Name(), err)
	}
	t := m.Shared(treeKey{}, func() any { return fx.NewModuleEditor(m.Module) }).(*fx.ModuleEditor)
	if err := t.SetModule(p.layerPath, fused); err != nil {
		return false, fmt.Errorf("node %s: %w", p.layer.Name(), err)
	}
	if _, err := p.bn.ReplaceAllUsesWith(p.layer, nil, false); err != nil {
		return true, fmt.Errorf("node %s: %w", p.bn.Name(), err)
	}
	if err := m.Graph.EraseNode(p.bn); err != nil {
		return true, fmt.Errorf("node %s: %w", p.bn.Name(), err)
	}
	if err := t.DeleteModule(p.bnPath); err != nil {
		return true, fmt.Errorf("node %s: %w", p.bn.Name(), err)
	}
	return true, nil
}

// treeKey keys a pass's copy-on-write module tree in rewrite.Match.Shared.
type treeKey struct{}

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

// fuseFits says whether layerMod (called by layer) followed by bnMod
// folds: both in eval mode, the batch norm tracking running statistics
// and of the layer's dimensionality, the layer's output features its
// features, a convolution not transposed, a linear layer's output of rank
// 2 where its metadata says.
func fuseFits(layer *node.Node, layerMod, bnMod nn.Module, kind layerKind) error {
	if layerMod.ModuleBase().Training() {
		return fmt.Errorf("%s is in training mode", layer.Target())
	}
	if kind == linearLayer {
		l, ok := layerMod.(*nn.Linear)
		bn := evalBN(bnMod, false)
		switch {
		case !ok || l.Weight == nil:
			return fmt.Errorf("%s is a %T without weight", layer.Target(), layerMod)
		case bn == nil:
			return whyNotBN(bnMod, false)
		case l.OutFeatures != bn.NumFeatures:
			return fmt.Errorf("%d output features, %d batch-norm features", l.OutFeatures, bn.NumFeatures)
		case !rank2(layer):
			return fmt.Errorf("the linear layer's output is not of rank 2")
		}
		return nil
	}
	var conv *nn.ConvNd
	var bn *nn.BatchNormNd
	switch c := layerMod.(type) {
	case *nn.Conv1d:
		conv, bn = &c.ConvNd, evalBN(bnMod, false)
	case *nn.Conv2d:
		conv, bn = &c.ConvNd, evalBN(bnMod, true)
	default:
		return fmt.Errorf("%s is a %T, not a Conv1d or Conv2d", layer.Target(), layerMod)
	}
	switch {
	case bn == nil:
		return whyNotBN(bnMod, kind == convLayer && isConv2d(layerMod))
	case conv.Transposed || conv.Weight == nil:
		return fmt.Errorf("the convolution is transposed or has no weight")
	case conv.OutChannels != bn.NumFeatures:
		return fmt.Errorf("%d output channels, %d batch-norm features", conv.OutChannels, bn.NumFeatures)
	}
	return nil
}

func isConv2d(m nn.Module) bool { _, ok := m.(*nn.Conv2d); return ok }

// whyNotBN says why evalBN(m, want2d) is nil.
func whyNotBN(m nn.Module, want2d bool) error {
	var bn *nn.BatchNormNd
	switch x := m.(type) {
	case *nn.BatchNorm1d:
		bn = &x.BatchNormNd
	case *nn.BatchNorm2d:
		bn = &x.BatchNormNd
	}
	want := "BatchNorm1d"
	if want2d {
		want = "BatchNorm2d"
	}
	switch {
	case bn == nil || (want2d != isBN2d(m)):
		return fmt.Errorf("the batch norm is a %T, the layer wants a %s", m, want)
	case bn.Training():
		return fmt.Errorf("the batch norm is in training mode")
	case !bn.TrackRunningStats || bn.RunningMean == nil || bn.RunningVar == nil || bn.RunningMean.Tensor() == nil || bn.RunningVar.Tensor() == nil:
		return fmt.Errorf("the batch norm has no running statistics")
	}
	return fmt.Errorf("the batch norm does not fold")
}

func isBN2d(m nn.Module) bool { _, ok := m.(*nn.BatchNorm2d); return ok }

// fusePair returns the new module for layerMod followed by bnMod, which
// fuseFits accepts.
func fusePair(layerMod, bnMod nn.Module, kind layerKind) (nn.Module, error) {
	if kind == linearLayer {
		l := layerMod.(*nn.Linear)
		bn := evalBN(bnMod, false)
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
	switch c := layerMod.(type) {
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
		return nil, fmt.Errorf("%T is not a convolution", layerMod)
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
