package passes

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/pattern"
	"github.com/gofx/gofx/rewrite"
)

// FuseEpilogues replaces an operator and the activation (and residual
// add) that only it feeds by one of gofx's fused operators
// (ops/schemas/gofx.txt), whose kernel applies the epilogue in the
// product's final stores instead of reading and writing the whole result
// again, in a GraphModule of core ATen operators or of PyTorch 2.x's
// default export IR (what ExportedProgram.Module returns from a .pt2 file
// with or without run_decompositions, and what gofx optimize rewrites):
//
//	conv → aten.relu / relu_                         gofx.convolution_relu
//	conv → aten.hardtanh / hardtanh_(min, max)       gofx.convolution_hardtanh   (ReLU6: hardtanh(0, 6))
//	conv → aten.clamp / clamp_(min, max)             gofx.convolution_clamp
//	conv → aten.add.Tensor(·, other) → aten.relu / relu_
//	                                                 gofx.convolution_add_relu   (either operand order)
//	conv → aten.add_.Tensor(conv, other) → aten.relu / relu_
//	                                                 gofx.convolution_add_relu
//	aten.addmm (beta, alpha 1) → aten.relu / relu_   gofx.addmm_relu
//	aten.linear → aten.relu / relu_                  gofx.linear_relu            (PyTorch 2.x's default IR)
//
// where conv is core ATen's aten.convolution or the default IR's
// aten.conv1d/conv2d/conv3d (.default, or .padding with "valid" or
// "same"), whose arguments become aten.convolution's as ATen's conv2d
// passes them on: a size given once repeated per spatial dim, transposed
// False, output_padding zeros, "valid" no padding and "same"
// dilation*(k-1)/2 per side. A conv1d/2d/3d fuses only when its input is
// known (from its val) to be batched, since aten.convolution refuses the
// unbatched input conv2d takes; its bias has the input's dtype; and
// "same" is symmetric (dilation*(k-1) even; ATen pads an odd remainder on
// one side of the input first) with stride 1.
//
// A chain is fused only when each of its intermediate results has no
// other user (the pattern engine's rule: interior nodes do not escape),
// and the residual of an add is a node (a tensor, not a number). That
// rule is also what makes the in-place activations safe to fuse: relu_,
// hardtanh_ and clamp_ write into the convolution's (or the add's) fresh
// result, which nothing else can see. add_ is fused only with the
// convolution as its self (an add_ into the residual mutates the
// residual), and only when the residual has the convolution's dtype and
// broadcasts to its shape without growing it (from their vals): add_
// keeps its self's dtype and shape where add.Tensor promotes and
// broadcasts. add with alpha other than 1 is not fused. The fused
// operators compute exactly what the chains compute, and decompose back
// to aten.convolution (or addmm, linear) and the functional activation
// (decomp.Core, decomp.FusedOps), so a fused program still decomposes to
// core ATen, and is written for PyTorch by decomposing first. The pass
// runs in Default after the batch-norm folds, whose results are the
// convolutions it fuses, and inside the branch and body graphs of
// higher-order operators, as every pass (Pass.Apply).
//
// The pass is a rule set (RuleSetOf), one rule per chain and spelling,
// the patterns matching overloads strictly (aten.add.Tensor, not
// add.Scalar); Explain says which condition a refused chain fails.
var FuseEpilogues = Pass{
	Name: "fuse_epilogues",
	Doc:  "fuse convolution/conv1d/conv2d/conv3d/addmm/linear with the relu, hardtanh, clamp (in place or not) or residual add+relu after it into gofx's fused operators",
	Run:  fuseEpilogues,
}

// convArgs are the placeholders of aten.convolution's nine arguments.
const convArgs = "%x, %w, %b, %stride, %padding, %dilation, %transposed, %output_padding, %groups"

// epilogueRule is one chain FuseEpilogues fuses: graph text computing
// %out from placeholders (found by refs) and the fused call replacing it.
type epilogueRule struct {
	name, doc, body, fused string
	// node is a placeholder that must bind a node (not a literal).
	node []string
	// spatial, for a conv1d/conv2d/conv3d layer (PyTorch 2.x's default
	// IR), is its number of spatial dims: the fused call's first nine
	// arguments (aten.convolution's) are then made from the layer's seven
	// (convolutionArgs), and strPadding says the layer is the .padding
	// overload (padding "valid" or "same").
	spatial    int
	strPadding bool
	// inPlaceAdd says the residual add is aten.add_.Tensor, whose result
	// keeps its self's dtype and shape (checked by inPlaceAddFits).
	inPlaceAdd bool
}

// convNdArgs are the placeholders of aten.conv1d/conv2d/conv3d's seven
// arguments.
const convNdArgs = "%x, %w, %b, %stride, %padding, %dilation, %groups"

// convSpelling is one spelling of a convolution FuseEpilogues fuses.
type convSpelling struct {
	name, call    string
	spatial       int
	strPadding    bool
	fusedConvArgs string
}

// convSpellings are the convolutions FuseEpilogues fuses: core ATen's
// aten.convolution, and PyTorch 2.x's default IR's conv1d/conv2d/conv3d
// with sizes or with a padding string.
func convSpellings() []convSpelling {
	layers := []convSpelling{{name: "convolution", call: "aten.convolution.default(" + convArgs + ")", fusedConvArgs: convArgs}}
	for nd := 1; nd <= 3; nd++ {
		for _, overload := range []string{"default", "padding"} {
			name := fmt.Sprintf("conv%dd", nd)
			if overload == "padding" {
				name += "_padding"
			}
			layers = append(layers, convSpelling{name: name, spatial: nd, strPadding: overload == "padding",
				call:          fmt.Sprintf("aten.conv%dd.%s(%s)", nd, overload, convNdArgs),
				fusedConvArgs: convNdArgs})
		}
	}
	return layers
}

// epilogueRules are FuseEpilogues' chains: each convolution spelling with
// each activation (in place or not) and residual add (add.Tensor, or
// add_.Tensor into the convolution's result), and addmm and linear with
// relu and relu_.
var epilogueRules = sync.OnceValue(func() []epilogueRule {
	var rules []epilogueRule
	for _, l := range convSpellings() {
		conv := "%conv = call_function " + l.call + "\n"
		fused := func(op, extra string) string {
			return "gofx." + op + ".default(" + l.fusedConvArgs + extra + ")"
		}
		rule := func(name, doc, body, call string, node ...string) epilogueRule {
			return epilogueRule{name: l.name + "_" + name, doc: "aten." + strings.Replace(l.call[len("aten."):strings.IndexByte(l.call, '(')], ".default", "", 1) + " then " + doc,
				body: conv + body, fused: call, node: append([]string{"x"}, node...), spatial: l.spatial, strPadding: l.strPadding}
		}
		for _, relu := range []string{"relu", "relu_"} {
			rules = append(rules, rule(relu, "aten."+relu+": gofx.convolution_relu",
				"%out = call_function aten."+relu+".default(%conv)", fused("convolution_relu", "")))
			for _, add := range []string{"add", "add_"} {
				r := rule(add+"_"+relu, "aten."+add+".Tensor of a residual, aten."+relu+": gofx.convolution_add_relu",
					"%add = call_function aten."+add+".Tensor(%conv, %other)\n%out = call_function aten."+relu+".default(%add)",
					fused("convolution_add_relu", ", %other"), "other")
				r.inPlaceAdd = add == "add_"
				rules = append(rules, r)
			}
		}
		for _, act := range []string{"hardtanh", "hardtanh_"} {
			rules = append(rules, rule(act, "aten."+act+" (ReLU6: 0, 6): gofx.convolution_hardtanh",
				"%out = call_function aten."+act+".default(%conv, %min_val, %max_val)", fused("convolution_hardtanh", ", %min_val, %max_val")))
		}
		for _, act := range []string{"clamp", "clamp_"} {
			rules = append(rules, rule(act, "aten."+act+": gofx.convolution_clamp",
				"%out = call_function aten."+act+".default(%conv, %lo, %hi)", fused("convolution_clamp", ", %lo, %hi")))
		}
	}
	for _, relu := range []string{"relu", "relu_"} {
		rules = append(rules,
			epilogueRule{name: "addmm_" + relu, doc: "aten.addmm (beta and alpha 1) then aten." + relu + ": gofx.addmm_relu",
				body:  "%mm = call_function aten.addmm.default(%bias, %mat1, %mat2)\n%out = call_function aten." + relu + ".default(%mm)",
				fused: "gofx.addmm_relu.default(%bias, %mat1, %mat2)", node: []string{"mat1"}},
			epilogueRule{name: "linear_2_" + relu, doc: "aten.linear without bias then aten." + relu + ": gofx.linear_relu",
				body:  "%linear = call_function aten.linear.default(%x, %w)\n%out = call_function aten." + relu + ".default(%linear)",
				fused: "gofx.linear_relu.default(%x, %w)", node: []string{"x"}},
			epilogueRule{name: "linear_3_" + relu, doc: "aten.linear then aten." + relu + ": gofx.linear_relu",
				body:  "%linear = call_function aten.linear.default(%x, %w, %b)\n%out = call_function aten." + relu + ".default(%linear)",
				fused: "gofx.linear_relu.default(%x, %w, %b)", node: []string{"x"}},
		)
	}
	return rules
})

// epiloguePattern returns a rule's pattern graph.
func epiloguePattern(r epilogueRule) (*graph.Graph, error) {
	var ph strings.Builder
	seen := map[string]bool{}
	for _, line := range strings.Split(r.body, "\n") {
		lhs, rhs, _ := strings.Cut(line, " = ")
		for _, name := range refs(rhs) {
			if !seen[name] {
				seen[name] = true
				fmt.Fprintf(&ph, "%%%s = placeholder %q()\n", name, name)
			}
		}
		seen[strings.TrimPrefix(lhs, "%")] = true
	}
	pat, err := graph.Parse(ph.String() + r.body + "\n%output = output \"output\"(%out)\n")
	if err != nil {
		return nil, fmt.Errorf("rule %s: pattern: %w", r.name, err)
	}
	return pat, nil
}

// epilogueRuleSet is FuseEpilogues' rule set, built once.
var epilogueRuleSet = sync.OnceValues(func() (*rewrite.RuleSet, error) {
	var rules []rewrite.Rule
	for _, r := range epilogueRules() {
		pat, err := epiloguePattern(r)
		if err != nil {
			return nil, err
		}
		p, err := pattern.Compile(pat, pattern.Name(r.name), pattern.StrictOverloads(), pattern.AllowSharedPlaceholders())
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.name, err)
		}
		fused, err := fusedCall(r)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rewrite.Rule{
			Name:       r.name,
			Doc:        r.doc,
			Pattern:    p,
			Constraint: fused.constraint,
			Edit:       fused.edit,
		})
	}
	return rewrite.NewRuleSet("fuse_epilogues", rules...)
})

// fusedEdit is the in-place rewrite of one rule: the fused operator
// called with the match's bindings of args.
type fusedEdit struct {
	op   *ops.Operator
	args []string
	// mustBeNodes are the placeholders that must bind nodes.
	mustBeNodes []string
	// spatial, strPadding and inPlaceAdd are the rule's (epilogueRule).
	spatial    int
	strPadding bool
	inPlaceAdd bool
}

// fusedCall returns the edit of rule r, from its fused call's text.
func fusedCall(r epilogueRule) (*fusedEdit, error) {
	name, rest, _ := strings.Cut(r.fused, "(")
	op, ok := ops.Global().Lookup(name)
	if !ok {
		return nil, fmt.Errorf("rule %s: no operator %s", r.name, name)
	}
	return &fusedEdit{op: op, args: refs(rest), mustBeNodes: r.node, spatial: r.spatial, strPadding: r.strPadding, inPlaceAdd: r.inPlaceAdd}, nil
}

// constraint decides whether a match fuses: the tensors are nodes, a
// conv1d/2d/3d has a batched input and arguments aten.convolution takes
// (convolutionArgs), and an in-place residual add keeps the result's dtype
// and shape (inPlaceAddFits).
func (f *fusedEdit) constraint(m *rewrite.Match) error {
	for _, name := range f.mustBeNodes {
		if a, _ := m.Binding(name); !isNodeArg(a) {
			return fmt.Errorf("%s is %v, not a tensor node", name, a)
		}
	}
	if f.spatial > 0 {
		if _, err := f.convolutionArgs(m); err != nil {
			return err
		}
	}
	if f.inPlaceAdd {
		return inPlaceAddFits(m)
	}
	return nil
}

// callArgs returns the fused call's arguments for match m.
func (f *fusedEdit) callArgs(m *rewrite.Match) ([]node.Arg, error) {
	names := f.args
	var args []node.Arg
	if f.spatial > 0 {
		conv, err := f.convolutionArgs(m)
		if err != nil {
			return nil, err
		}
		args, names = conv, names[len(refs(convNdArgs)):]
	}
	for _, name := range names {
		a, ok := m.Binding(name)
		if !ok {
			return nil, fmt.Errorf("no binding for %s", name)
		}
		args = append(args, a)
	}
	return args, nil
}

// edit inserts the fused call before the match's last node (the
// activation), with the metadata of its first node (the convolution,
// addmm or linear: stack_trace and nn_module_stack, so the fused node
// prints the layer's source line) and the activation's val (the fused
// result is the activation's), moves the activation's users to it and
// erases the matched nodes.
func (f *fusedEdit) edit(m *rewrite.Match) (bool, error) {
	last := m.Match.Outputs[0]
	args, err := f.callArgs(m)
	if err != nil {
		return false, fmt.Errorf("%%%s: %w", last.Name(), err)
	}
	var first *node.Node
	var matched []*node.Node
	for _, name := range []string{"conv", "mm", "linear", "add"} {
		if n := m.Node(name); n != nil {
			if first == nil {
				first = n
			}
			matched = append(matched, n)
		}
	}
	if first == nil {
		return false, fmt.Errorf("%%%s: the match has no layer", last.Name())
	}
	restore := m.Graph.InsertingBefore(last)
	n, err := m.Graph.CallFunction(f.op, args, nil)
	restore()
	if err != nil {
		return false, fmt.Errorf("%%%s: %w", last.Name(), err)
	}
	n.Meta = first.Meta.Clone()
	n.Meta.Delete(node.Val.Name())
	if v, ok := node.Val.Get(&last.Meta); ok {
		node.Val.Set(&n.Meta, v)
	}
	if _, err := last.ReplaceAllUsesWith(n, nil, false); err != nil {
		return true, fmt.Errorf("%%%s: %w", last.Name(), err)
	}
	slices.Reverse(matched)
	for _, d := range append([]*node.Node{last}, matched...) {
		if err := m.Graph.EraseNode(d); err != nil {
			return true, fmt.Errorf("%%%s: %w", d.Name(), err)
		}
	}
	return true, nil
}

// isNodeArg reports whether a is a node.
func isNodeArg(a node.Arg) bool { _, ok := a.(*node.Node); return ok }

// fuseEpilogues runs FuseEpilogues' rule set.
func fuseEpilogues(gm *fx.GraphModule) (bool, error) {
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("nil GraphModule")
	}
	set, err := epilogueRuleSet()
	if err != nil {
		return false, err
	}
	return set.Apply(gm)
}
