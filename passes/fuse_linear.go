package passes

import (
	"fmt"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops/aten"
	"github.com/gofx/gofx/tensor"
)

// FoldLinearBN folds batch norms in eval form into the linear layers that
// feed them, in a GraphModule of core ATen operators whose state is read
// with get_attr (what ExportedProgram.Module returns). An nn.Linear on a
// 2-D input exports as a permute of its weight and an addmm (an mm
// without bias):
//
//	wt = aten.permute.default(w, [1, 0])                   w, b: get_attr
//	lin = aten.addmm.default(b, x, wt)                     or aten.mm.default(x, wt)
//	bn = aten._native_batch_norm_legit_no_training.default(lin, gamma, beta, mean, var, momentum, eps)
//	y = operator.getitem(bn, 0)
//
// becomes aten.addmm.default(b', x, aten.permute.default(w', [1, 0])) with
// w' and b' computed by FuseLinearBNWeights. PyTorch 2.x's default export
// IR (.pt2 files) keeps nn.Linear as aten.linear.default(x, w, b), which
// folds the same way, its weight and bias replaced in place. For addmm and
// mm, the permute stays and reads
// the folded weight, and an mm becomes an addmm (the same node, under its
// name) whose first argument is the new bias. The batch-norm forms are
// FoldConvBN's. A pair is folded only when the addmm or mm has no other
// user, the permute is exactly [1, 0] of a get_attr weight of shape
// [out, in] and has no other user, the bias is a get_attr of shape [out]
// (or absent), addmm's beta and alpha are 1, the running statistics have
// out elements, and the input is 2-D (mm and addmm take nothing else; a
// Linear on a 3-D input exports through views and is not folded).
//
// The state is handled as FoldConvBN handles it: the folded tensors are
// new parameters, under the linear layer's weight and bias names when
// nothing else reads those (fc.weight, fc.bias), under new names
// (fc.weight_folded) otherwise; a weight read elsewhere is thereby copied,
// not changed. Attributes no node reads any more are deleted, modules left
// empty too, and the modules on the edited paths are replaced by shallow
// copies, so a model the GraphModule shares modules with is not changed.
//
// The pass is a rule set (RuleSetOf) as FoldConvBN is: permute then addmm
// or mm, then each batch-norm form.
var FoldLinearBN = Pass{
	Name: "fold_linear_bn",
	Doc:  "fold eval-mode batch-norm operators into the aten.addmm/aten.mm of a linear layer feeding them (weights from get_attr)",
	Run:  foldLinearBN,
}

func foldLinearBN(gm *fx.GraphModule) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	matches, err := foldAll(gm.Graph, &attrState{gm: gm, t: fx.NewModuleEditor(gm)}, linearLayer)
	return len(matches) > 0, err
}

var (
	opAddmm = aten.Addmm
	opMm    = aten.Mm
)

// isUnit reports whether a is the number 1.
func isUnit(a node.Arg) bool {
	switch x := a.(type) {
	case node.Int:
		return x == 1
	case node.Float:
		return x == 1
	}
	return false
}

// isTranspose reports whether a is the permutation [1, 0].
func isTranspose(a node.Arg) bool {
	var dims []node.Arg
	switch x := a.(type) {
	case node.List:
		dims = x
	case node.Tuple:
		dims = x
	default:
		return false
	}
	return len(dims) == 2 && dims[0] == node.Arg(node.Int(1)) && dims[1] == node.Arg(node.Int(0))
}

// maybe2D reports whether n's val metadata, when it has one, is a 2-D
// tensor.
func maybe2D(n *node.Node) bool {
	v, ok := node.Val.Get(&n.Meta)
	if !ok {
		return true
	}
	tm, ok := v.(node.TensorMeta)
	return !ok || len(tm.Shape) == 2
}

// linearFits reports whether a linear weight w, its bias b (nil when
// absent) and a batch norm's running mean have the shapes of
// nn.Linear(in, out) followed by BatchNorm1d(out).
func linearFits(w, b, mean *tensor.Tensor) bool {
	if w == nil || mean == nil || w.Dim() != 2 || mean.Dim() != 1 || mean.Shape()[0] != w.Shape()[0] {
		return false
	}
	return b == nil || (b.Dim() == 1 && b.Shape()[0] == w.Shape()[0])
}

// mmToAddmm turns mm(x, wt) into addmm(None, x, wt), the same node, whose
// first argument the fold then sets to the new bias.
func mmToAddmm(n *node.Node) error {
	if n.Function() != node.Function(opMm) {
		return nil
	}
	if err := n.SetTarget(opAddmm); err != nil {
		return err
	}
	return n.InsertArg(0, node.None)
}
