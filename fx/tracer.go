package fx

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// Tracer records a module's Forward as a graph, as torch.fx.Tracer does.
// The zero Tracer uses torch.fx's defaults: the standard layers of package
// nn are leaves (recorded as call_module), containers and user modules are
// traced through.
type Tracer struct {
	// IsLeaf, if set, decides whether a call of module m (at the dotted
	// path qualname) is recorded as one call_module node (true) or traced
	// through (false). Nil means IsStandardLeaf.
	IsLeaf func(m nn.Module, qualname string) bool
	// ArgNames, if set, names the placeholders (overriding the module's
	// nn.ArgNamer and the defaults).
	ArgNames []string
	// ConcreteArgs fixes some inputs, by placeholder name, to Go values:
	// no placeholder is created for them and model code sees the value
	// itself, so Go control flow on it is specialized away (torch.fx's
	// concrete_args).
	ConcreteArgs map[string]nn.Value
	// NumArgs is the number of inputs of a variadic Forward (default 1).
	NumArgs int
}

// IsStandardLeaf is the default leaf policy: a module defined in package
// nn other than the containers (Sequential, ModuleList, ModuleDict), as
// torch.fx treats torch.nn's modules.
func IsStandardLeaf(m nn.Module, _ string) bool {
	t := reflect.TypeOf(m)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() != "github.com/gofx/gofx/nn" {
		return false
	}
	switch t.Name() {
	case "Sequential", "ModuleList", "ModuleDict":
		return false
	}
	return true
}

// SymbolicTrace traces root's Forward with the default Tracer and returns
// the GraphModule: standard layers as call_module leaves, parameters and
// buffers read as get_attr, tensor methods as call_method and operators
// and functions as call_function, every node carrying its stack_trace and
// nn_module_stack metadata.
func SymbolicTrace(root nn.Module) (*GraphModule, error) {
	var t Tracer
	return t.Trace(root)
}

// TraceError is the error for model code that needs a concrete value
// (control flow on tensor data) while being traced. It is the one
// data-dependent error of gofx's tracers: export and decomp's rule
// tracing return it too (Tracer says which, and the message its advice).
type TraceError struct {
	What     string // "a bool", "an int", ...
	Location string // the Go file:line of the model code
	// Tracer is the tracer that stopped: "" (fx's symbolic tracing),
	// "export" or "decomp" (a decomposition rule).
	Tracer string
}

func (e *TraceError) Error() string {
	switch e.Tracer {
	case "export":
		return fmt.Sprintf("export: %s: the model needs %s from a traced tensor: Go control flow on tensor data cannot be exported. "+
			"Branch with functional.Cond(pred, trueFn, falseFn, operands...) (loop with functional.WhileLoop), which records both branches as subgraphs; "+
			"or compute both and select with aten::where (F.Where), or keep the decision on Go values (non-tensor inputs are specialized)",
			e.Location, e.What)
	case "decomp":
		return fmt.Sprintf("decomp: %s: a rule needs %s from a symbolic value: rules may branch on shapes and dtypes only, not on tensor data", e.Location, e.What)
	}
	return fmt.Sprintf("fx: symbolic tracing: %s needs %s from a traced value (a Proxy): "+
		"Go control flow on tensor data cannot be traced. Branch with functional.Cond(pred, trueFn, falseFn, operands...) "+
		"(loop with functional.WhileLoop), which records both branches as subgraphs; keep Go control flow on Go values (hyper-parameters, "+
		"ConcreteArgs), compute both branches and select with aten::where (F.Where), or hide the data-dependent "+
		"code from the tracer with fx.Wrap (a function) or the Tracer's IsLeaf (a module)",
		e.Location, e.What)
}

// Trace records root's Forward and returns it as a GraphModule over root's
// module tree.
func (t *Tracer) Trace(root nn.Module) (gm *GraphModule, err error) {
	if root == nil {
		return nil, errors.New("fx: Trace: nil module")
	}
	if err := nn.Err(root); err != nil {
		return nil, err
	}
	p := newPolicy(t, root)
	rec := p.rec
	rec.Install(p.attrProxy)
	defer rec.Uninstall()
	nargs := t.NumArgs
	if nargs == 0 {
		nargs = 1
	}
	names := t.ArgNames
	if names == nil {
		names = nn.ArgNames(root, nargs)
	}
	for k := range t.ConcreteArgs {
		found := false
		for _, n := range names {
			found = found || n == k
		}
		if !found {
			return nil, fmt.Errorf("fx: Trace: concrete argument %q is not an input (inputs: %s)", k, strings.Join(names, ", "))
		}
	}
	args := make([]nn.Value, len(names))
	for i, name := range names {
		if v, ok := t.ConcreteArgs[name]; ok {
			args[i] = v
			continue
		}
		n, err := rec.Create(node.Placeholder, node.Path(name), nil, nil, "", nil)
		if err != nil {
			return nil, err
		}
		args[i] = nn.Of(rec.NewProxy(n, nil))
	}
	out, err := rec.Run(root, args)
	if err != nil {
		return nil, err
	}
	res, err := rec.Arg(out)
	if err != nil {
		return nil, fmt.Errorf("fx: Trace: output: %w", err)
	}
	if _, err := rec.Create(node.Output, node.Path("output"), []node.Arg{res}, nil, "", nil); err != nil {
		return nil, err
	}
	gm, err = newGraphModule(root, rec.Graph(), p.consts)
	if err != nil {
		return nil, err
	}
	gm.specialized = p.specialized
	if err := attachSubgraphs(gm, root, rec.Subgraphs()); err != nil {
		return nil, err
	}
	return gm, nil
}

// policy is fx's recording policy (record.Policy): standard layers (or
// what IsLeaf says) are call_module leaves, other modules are traced
// through, functions and tensor methods are call_function and call_method
// nodes, parameters and buffers are read with get_attr, and other tensors
// become get_attr constants.
type policy struct {
	record.Defaults
	rec     *record.Recorder
	leaf    func(nn.Module, string) bool
	attrs   map[string]*node.Node
	consts  []constant
	constOf map[*tensor.Tensor]string
	nconst  int // number of the next constant name to try
	// specialized lists the conds whose predicate was a Go bool
	// (GraphModule.Specialized).
	specialized []string
}

// ConstantPredicate records a cond whose predicate was a Go bool
// (record.ConstantPredicates): only the taken branch is traced, and the
// GraphModule's Specialized reports the Go line, as export's does.
func (p *policy) ConstantPredicate(op, where string) {
	p.specialized = append(p.specialized, fmt.Sprintf("%s: %s with a constant predicate: only the taken branch is recorded", where, op))
}

type constant struct {
	name string
	t    *tensor.Tensor
}

func newPolicy(t *Tracer, root nn.Module) *policy {
	p := &policy{leaf: IsStandardLeaf, attrs: map[string]*node.Node{}, constOf: map[*tensor.Tensor]string{}}
	if t.IsLeaf != nil {
		p.leaf = t.IsLeaf
	}
	p.rec = record.New(graph.New(), root, p)
	p.rec.FoldTuples = true
	return p
}

// attrProxy returns the get_attr proxy of a parameter or buffer: the
// first read creates the get_attr node, later reads share it.
func (p *policy) attrProxy(name string) nn.Value {
	n, ok := p.attrs[name]
	if !ok {
		defer p.rec.AtRoot()() // read in a branch: the root's get_attr, lifted into the branch
		var err error
		n, err = p.rec.Create(node.GetAttr, node.Path(name), nil, nil, "", nil)
		if err != nil {
			panic(err)
		}
		p.attrs[name] = n
	}
	return nn.Of(p.rec.NewProxy(n, nil))
}

// Leaf reports whether a call of module m at path is a call_module leaf
// (record.Leaves); the recorder's default does the rest: operators,
// functions and methods as call_function and call_method nodes, other
// modules traced through.
func (p *policy) Leaf(m nn.Module, path string) bool { return p.leaf(m, path) }

// DataDependent is fx's *TraceError.
func (p *policy) DataDependent(what, where string) error {
	return &TraceError{What: what, Location: where}
}

// Constant records a tensor that model code used but that is not a
// parameter or buffer of the module tree, as torch.fx does: an attribute
// _tensor_constant0, ... of the GraphModule read with get_attr.
func (p *policy) Constant(r *record.Recorder, t *tensor.Tensor) (node.Arg, error) {
	name, ok := p.constOf[t]
	if !ok {
		name = p.constName()
		p.constOf[t] = name
		p.consts = append(p.consts, constant{name, t})
	}
	if n, ok := p.attrs[name]; ok {
		return n, nil
	}
	defer r.AtRoot()()
	n, err := r.Create(node.GetAttr, node.Path(name), nil, nil, "", nil)
	if err != nil {
		return nil, err
	}
	p.attrs[name] = n
	return n, nil
}

// constName returns the next free constant name, _tensor_constant0, ...:
// numbers whose name the root module already has (a GraphModule's own
// constants, when it is traced or transformed) are skipped.
func (p *policy) constName() string {
	for {
		name := fmt.Sprintf("_tensor_constant%d", p.nconst)
		p.nconst++
		if !p.attrTaken(name) {
			return name
		}
	}
}

// attrTaken reports whether the root module already has an attribute
// (parameter, buffer or submodule) called name.
func (p *policy) attrTaken(name string) bool {
	root := p.rec.Root()
	if root == nil {
		return false
	}
	_, ok := root.ModuleBase().Child(name)
	_, err := nn.Attr(root, name)
	return ok || err == nil
}
