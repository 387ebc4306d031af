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
// again, in a GraphModule of core ATen operators (what
// ExportedProgram.Module returns, and what gofx optimize rewrites):
//
//	aten.convolution → aten.relu / relu_             gofx.convolution_relu
//	aten.convolution → aten.hardtanh(min, max)       gofx.convolution_hardtanh   (ReLU6: hardtanh(0, 6))
//	aten.convolution → aten.clamp(min, max)          gofx.convolution_clamp
//	aten.convolution → aten.add.Tensor(·, other) → aten.relu / relu_
//	                                                 gofx.convolution_add_relu   (either operand order)
//	aten.addmm (beta, alpha 1) → aten.relu / relu_   gofx.addmm_relu
//	aten.linear → aten.relu / relu_                  gofx.linear_relu            (PyTorch 2.x's default IR)
//
// A chain is fused only when each of its intermediate results has no
// other user (the pattern engine's rule: interior nodes do not escape),
// and the residual of an add is a node (a tensor, not a number). The fused
// operators compute exactly what the chains compute, and decompose back
// to them (decomp.Core, decomp.FusedOps), so a fused program still
// decomposes to core ATen, and is written for PyTorch by decomposing
// first. The pass runs in Default after the batch-norm folds, whose
// results are the convolutions it fuses, and inside the branch and body
// graphs of higher-order operators, as every pass (Pass.Apply).
//
// The pass is a rule set (RuleSetOf), one rule per chain, the patterns
// matching overloads strictly (aten.add.Tensor, not add.Scalar).
var FuseEpilogues = Pass{
	Name: "fuse_epilogues",
	Doc:  "fuse convolution/addmm/linear with the relu, hardtanh, clamp or residual add+relu after it into gofx's fused operators",
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
}

// epilogueRules are FuseEpilogues' chains, each with relu and relu_.
var epilogueRules = sync.OnceValue(func() []epilogueRule {
	conv := "%conv = call_function aten.convolution.default(" + convArgs + ")\n"
	var rules []epilogueRule
	for _, relu := range []string{"relu", "relu_"} {
		rules = append(rules,
			epilogueRule{"convolution_" + relu, "aten.convolution then aten." + relu + ": gofx.convolution_relu",
				conv + "%out = call_function aten." + relu + ".default(%conv)",
				"gofx.convolution_relu.default(" + convArgs + ")", []string{"x"}},
			epilogueRule{"convolution_add_" + relu, "aten.convolution, aten.add.Tensor of a residual, aten." + relu + ": gofx.convolution_add_relu",
				conv + "%add = call_function aten.add.Tensor(%conv, %other)\n%out = call_function aten." + relu + ".default(%add)",
				"gofx.convolution_add_relu.default(" + convArgs + ", %other)", []string{"x", "other"}},
			epilogueRule{"addmm_" + relu, "aten.addmm (beta and alpha 1) then aten." + relu + ": gofx.addmm_relu",
				"%mm = call_function aten.addmm.default(%bias, %mat1, %mat2)\n%out = call_function aten." + relu + ".default(%mm)",
				"gofx.addmm_relu.default(%bias, %mat1, %mat2)", []string{"mat1"}},
			epilogueRule{"linear_2_" + relu, "aten.linear without bias then aten." + relu + ": gofx.linear_relu",
				"%linear = call_function aten.linear.default(%x, %w)\n%out = call_function aten." + relu + ".default(%linear)",
				"gofx.linear_relu.default(%x, %w)", []string{"x"}},
			epilogueRule{"linear_3_" + relu, "aten.linear then aten." + relu + ": gofx.linear_relu",
				"%linear = call_function aten.linear.default(%x, %w, %b)\n%out = call_function aten." + relu + ".default(%linear)",
				"gofx.linear_relu.default(%x, %w, %b)", []string{"x"}},
		)
	}
	return append(rules,
		epilogueRule{"convolution_hardtanh", "aten.convolution then aten.hardtanh (ReLU6): gofx.convolution_hardtanh",
			conv + "%out = call_function aten.hardtanh.default(%conv, %min_val, %max_val)",
			"gofx.convolution_hardtanh.default(" + convArgs + ", %min_val, %max_val)", []string{"x"}},
		epilogueRule{"convolution_clamp", "aten.convolution then aten.clamp: gofx.convolution_clamp",
			conv + "%out = call_function aten.clamp.default(%conv, %lo, %hi)",
			"gofx.convolution_clamp.default(" + convArgs + ", %lo, %hi)", []string{"x"}},
	)
})

// epilogueGraphs returns a rule's pattern and replacement graphs.
func epilogueGraphs(r epilogueRule) (pat, rep *graph.Graph, err error) {
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
	if pat, err = graph.Parse(ph.String() + r.body + "\n%output = output \"output\"(%out)\n"); err != nil {
		return nil, nil, fmt.Errorf("rule %s: pattern: %w", r.name, err)
	}
	short := strings.TrimPrefix(r.fused[:strings.IndexByte(r.fused, '(')], "gofx.")
	short = strings.TrimSuffix(short, ".default")
	if rep, err = graph.Parse(ph.String() + "%" + short + " = call_function " + r.fused + "\n%output = output \"output\"(%" + short + ")\n"); err != nil {
		return nil, nil, fmt.Errorf("rule %s: replacement: %w", r.name, err)
	}
	return pat, rep, nil
}

// epilogueRuleSet is FuseEpilogues' rule set, built once.
var epilogueRuleSet = sync.OnceValues(func() (*rewrite.RuleSet, error) {
	var rules []rewrite.Rule
	for _, r := range epilogueRules() {
		pat, rep, err := epilogueGraphs(r)
		if err != nil {
			return nil, err
		}
		p, err := pattern.Compile(pat, pattern.Name(r.name), pattern.StrictOverloads(), pattern.AllowSharedPlaceholders())
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", r.name, err)
		}
		mustBeNodes := r.node
		fused, err := fusedCall(r)
		if err != nil {
			return nil, err
		}
		rules = append(rules, rewrite.Rule{
			Name:    r.name,
			Doc:     r.doc,
			Pattern: p,
			Constraint: func(m *rewrite.Match) error {
				for _, name := range mustBeNodes {
					if a, _ := m.Binding(name); !isNodeArg(a) {
						return fmt.Errorf("%s is %v, not a tensor node", name, a)
					}
				}
				return nil
			},
			Edit: fused.edit,
		})
		_ = rep // the replacement graph documents the rule (Explain, tests)
	}
	return rewrite.NewRuleSet("fuse_epilogues", rules...)
})

// fusedEdit is the in-place rewrite of one rule: the fused operator
// called with the match's bindings of args.
type fusedEdit struct {
	op   *ops.Operator
	args []string
}

// fusedCall returns the edit of rule r, from its fused call's text.
func fusedCall(r epilogueRule) (*fusedEdit, error) {
	name, rest, _ := strings.Cut(r.fused, "(")
	op, ok := ops.Global().Lookup(name)
	if !ok {
		return nil, fmt.Errorf("rule %s: no operator %s", r.name, name)
	}
	return &fusedEdit{op: op, args: refs(rest)}, nil
}

// edit inserts the fused call before the match's last node (the
// activation), with the metadata of its first node (the convolution,
// addmm or linear: stack_trace and nn_module_stack, so the fused node
// prints the layer's source line) and the activation's val (the fused
// result is the activation's), moves the activation's users to it and
// erases the matched nodes.
func (f *fusedEdit) edit(m *rewrite.Match) (bool, error) {
	last := m.Match.Outputs[0]
	args := make([]node.Arg, len(f.args))
	for i, name := range f.args {
		a, ok := m.Binding(name)
		if !ok {
			return false, fmt.Errorf("%%%s: no binding for %s", last.Name(), name)
		}
		args[i] = a
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
