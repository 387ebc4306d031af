package fx

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// GraphModule is a graph together with the module tree its get_attr and
// call_module nodes refer to, as torch.fx.GraphModule. It is itself a
// Module: calling it runs the graph with the interpreter, it can be a
// submodule of other modules, and it can be traced again.
//
// A GraphModule made by tracing shares its root's submodules, parameters
// and buffers (the same objects, under the same names), so its state dict
// is the root's; constant tensors the model code used are its own
// non-persistent buffers (_tensor_constant0, ...).
type GraphModule struct {
	nn.Base
	// Graph is the program; passes edit it in place.
	Graph *graph.Graph

	specialized []string // Specialized
}

// Specialized lists the decisions of model code that tracing specialized
// into the graph, each with its Go line: a cond whose predicate was a Go
// bool (a constant, as a Python bool is to torch.cond), of which only the
// taken branch was traced (export.ExportedProgram.Specialized reports the
// same for an export). Nil for a GraphModule not made by tracing.
func (gm *GraphModule) Specialized() []string { return slices.Clone(gm.specialized) }

// NewGraphModule returns a GraphModule running g over root's module tree.
func NewGraphModule(root nn.Module, g *graph.Graph) (*GraphModule, error) {
	return newGraphModule(root, g, nil)
}

func newGraphModule(root nn.Module, g *graph.Graph, consts []constant) (*GraphModule, error) {
	if g == nil {
		return nil, errors.New("fx: NewGraphModule: nil graph")
	}
	gm := &GraphModule{Graph: g}
	gm.Init(gm, "GraphModule")
	if root != nil {
		b := root.ModuleBase()
		for name, p := range b.Parameters() {
			gm.ShareParameter(name, p)
		}
		for name, x := range b.Buffers() {
			gm.ShareBuffer(name, x)
		}
		for name, c := range b.Children() {
			gm.AddModule(name, c)
		}
	}
	for _, c := range consts {
		gm.RegisterBuffer(c.name, c.t, false)
	}
	if err := nn.Err(gm); err != nil {
		return nil, err
	}
	return gm, nil
}

// ArgNames returns the graph's placeholder names (nn.ArgNamer).
func (gm *GraphModule) ArgNames() []string {
	var names []string
	for _, p := range gm.Graph.Placeholders() {
		names = append(names, p.Target().String())
	}
	return names
}

// Forward runs the graph on args with the interpreter; a failure panics
// with the interpreter's error (use Run for an error).
func (gm *GraphModule) Forward(args ...nn.Value) nn.Value {
	out, err := interp.New(gm.Graph, gm).Run(args...)
	if err != nil {
		nn.Fail(err)
	}
	return out
}

// Run runs the graph on args and returns its result or error.
func (gm *GraphModule) Run(args ...nn.Value) (nn.Value, error) {
	return interp.New(gm.Graph, gm).Run(args...)
}

// Call is nn.Call(gm, args...).
func (gm *GraphModule) Call(args ...nn.Value) nn.Value { return nn.Call(gm, args...) }

// Code returns the graph as Python-like code (torch.fx's gm.code).
func (gm *GraphModule) Code() string { return gm.Graph.Code() }

// String returns the graph in torch.fx's format.
func (gm *GraphModule) String() string { return gm.Graph.String() }

// Lint checks the graph (graph.Lint) and that every get_attr target names
// a parameter, buffer, constant or submodule of the module tree and every
// call_module target a submodule. A graph with higher-order calls is
// checked with its subgraphs (Subgraphs) by graph.LintWithSubgraphs: each
// subgraph, and the operand and output counts, dtypes and shapes between
// each call and the graphs it names.
func (gm *GraphModule) Lint() error {
	if err := gm.Graph.Lint(); err != nil {
		return err
	}
	errs := gm.lintSubgraphs()
	for n := range gm.Graph.Nodes() {
		switch n.Op() {
		case node.GetAttr:
			if _, err := nn.Attr(gm, n.Target().String()); err != nil {
				if _, merr := nn.Submodule(gm, n.Target().String()); merr != nil {
					errs = append(errs, fmt.Sprintf("node %s: get_attr target %q does not resolve: %v", n.Name(), n.Target(), err))
				}
			}
		case node.CallModule:
			if _, err := nn.Submodule(gm, n.Target().String()); err != nil {
				errs = append(errs, fmt.Sprintf("node %s: call_module target %q does not resolve: %v", n.Name(), n.Target(), err))
			}
		}
	}
	if len(errs) > 0 {
		return errors.New("fx: Lint: " + strings.Join(errs, "; "))
	}
	return nil
}

// Impurer is implemented by modules whose call has effects beyond its
// result (they mutate state or do I/O), so dead-code elimination keeps
// call_module nodes calling them.
type Impurer interface {
	Impure() bool
}

// IsImpure reports whether n must survive dead-code elimination:
// node.IsImpure's rules, plus in-place tensor methods (call_method whose
// name ends in "_", such as add_) and calls of modules that say they are
// impure (Impurer).
func (gm *GraphModule) IsImpure(n *node.Node) bool {
	if n.IsImpure() {
		return true
	}
	switch n.Op() {
	case node.CallMethod:
		return strings.HasSuffix(n.Target().String(), "_")
	case node.CallModule:
		m, err := nn.Submodule(gm, n.Target().String())
		if err != nil {
			return true // unknown: keep it
		}
		if im, ok := m.(Impurer); ok {
			return im.Impure()
		}
	}
	return false
}

// EliminateDeadCode removes nodes without users that are not impure (see
// IsImpure) and reports whether it removed any.
func (gm *GraphModule) EliminateDeadCode() bool {
	return gm.Graph.EliminateDeadCodeFunc(gm.IsImpure)
}
