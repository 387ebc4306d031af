package interp

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// Steps are the steps of a run, torch.fx Interpreter's overridable
// methods. *Interpreter implements them with the default behaviour; a type
// that embeds *Interpreter overrides some of them and is installed as the
// interpreter's Steps field, so that Run, and the default RunNode, call
// the overrides.
//
// The opcode steps take the node, its target and its fetched arguments.
// The target of every opcode but call_function is a string: the
// placeholder's name, the attribute or module path, the method name, or
// "output".
type Steps interface {
	// RunNode runs one node and returns its value. The default fetches the
	// node's arguments with FetchArgs and calls the step of its opcode.
	RunNode(n *node.Node) (nn.Value, error)
	// FetchArgs returns n's arguments converted to values, the nodes among
	// them replaced by their values in the environment (kwargs is nil when
	// there are none).
	FetchArgs(n *node.Node) (args []nn.Value, kwargs map[string]nn.Value, err error)
	// Placeholder returns the value of an input: the next of Run's inputs,
	// or the default (args[0]) when they have run out.
	Placeholder(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
	// GetAttr returns the parameter or buffer at the path target below the
	// root module, or the submodule there as a value (nn.ModuleAt).
	GetAttr(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
	// CallFunction calls target (an operator or a function registered with
	// nn.RegisterFunction).
	CallFunction(n *node.Node, target node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
	// CallMethod calls the tensor method target on args[0].
	CallMethod(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
	// CallModule calls the submodule at the path target below the root.
	CallModule(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
	// Output returns the value the graph returns (args[0]).
	Output(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error)
}

var _ Steps = (*Interpreter)(nil)

// RunNode runs n: it fetches n's arguments and calls the step of n's
// opcode, both through the Steps field, so that overrides of either take
// effect.
func (in *Interpreter) RunNode(n *node.Node) (nn.Value, error) {
	s := in.steps()
	args, kwargs, err := s.FetchArgs(n)
	if err != nil {
		return nn.None, err
	}
	switch n.Op() {
	case node.Placeholder:
		return s.Placeholder(n, n.Target().String(), args, kwargs)
	case node.GetAttr:
		return s.GetAttr(n, n.Target().String(), args, kwargs)
	case node.CallFunction:
		return s.CallFunction(n, n.Function(), args, kwargs)
	case node.CallMethod:
		return s.CallMethod(n, n.Target().String(), args, kwargs)
	case node.CallModule:
		return s.CallModule(n, n.Target().String(), args, kwargs)
	case node.Output:
		return s.Output(n, n.Target().String(), args, kwargs)
	}
	return nn.None, fmt.Errorf("unknown opcode %s", n.Op())
}

// FetchArgs converts n's arguments to values, looking the nodes among them
// up in the environment; it is an error if one has not been computed.
func (in *Interpreter) FetchArgs(n *node.Node) ([]nn.Value, map[string]nn.Value, error) {
	p, err := in.planOf(n)
	if err != nil {
		return nil, nil, err
	}
	if p.err != nil {
		return nil, nil, p.err
	}
	var args []nn.Value
	if len(p.args) > 0 {
		args = make([]nn.Value, len(p.args))
		for i := range p.args {
			a := &p.args[i]
			switch {
			case a.kind == argNode && a.slot >= 0 && in.live[a.slot]:
				args[i] = in.env[a.slot] // the common case, inline
			case a.kind == argConst:
				args[i] = a.val
			default:
				v, err := in.value(a)
				if err != nil {
					return nil, nil, err
				}
				args[i] = v
			}
		}
	}
	var kwargs map[string]nn.Value
	if len(p.kwargs) > 0 {
		kwargs = make(map[string]nn.Value, len(p.kwargs))
		for i := range p.kwargs {
			v, err := in.value(&p.kwargs[i].arg)
			if err != nil {
				return nil, nil, err
			}
			kwargs[p.kwargs[i].name] = v
		}
	}
	return args, kwargs, nil
}

// Placeholder returns the next of Run's inputs or, when they have run out,
// the placeholder's default (args[0]); without one it is an error.
func (in *Interpreter) Placeholder(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if v, ok := in.NextInput(); ok {
		return v, nil
	}
	if len(args) > 0 {
		return args[0], nil
	}
	return nn.None, fmt.Errorf("expected an input for parameter %s, but none was passed in", target)
}

// GetAttr returns the tensor of the parameter or buffer at target below
// the root module, or, for a target that names a submodule (the branch and
// body graphs of a higher-order operator: true_graph_0, body_graph_0), the
// module as a value (nn.ModuleAt). Module paths are resolved once per
// interpreter (see New).
func (in *Interpreter) GetAttr(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if in.root == nil {
		return nn.None, fmt.Errorf("get_attr %s: the interpreter has no root module", target)
	}
	owner, name := "", target
	if i := strings.LastIndexByte(target, '.'); i >= 0 {
		owner, name = target[:i], target[i+1:]
	}
	m, err := in.submodule(owner)
	if err != nil {
		return nn.None, err
	}
	v, err := nn.AttrValue(m, name)
	if err != nil {
		if m, merr := in.submodule(target); merr == nil {
			return nn.ModuleAt(m, target), nil
		}
		if owner != "" {
			return nn.None, fmt.Errorf("get_attr %s: %w", target, err)
		}
		return nn.None, err
	}
	return v, nil
}

// submodule returns the module at path below the root, resolving each
// path once per interpreter (torch.fx's Interpreter also takes the module
// table once): a call_module chain of N blocks would otherwise walk the
// tree N times per run.
func (in *Interpreter) submodule(path string) (nn.Module, error) {
	if m, ok := in.modules[path]; ok {
		return m, nil
	}
	m, err := nn.Submodule(in.root, path)
	if err != nil {
		return nil, err
	}
	if in.modules == nil {
		in.modules = map[string]nn.Module{}
	}
	in.modules[path] = m
	return m, nil
}

// CallFunction calls target with nn.ApplyFunction.
func (in *Interpreter) CallFunction(n *node.Node, target node.Function, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	return nn.ApplyFunction(target, args, kwargs)
}

// CallMethod calls the tensor method target with nn.ApplyMethod.
func (in *Interpreter) CallMethod(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	return nn.ApplyMethod(target, args, kwargs)
}

// CallModule calls the submodule at target below the root with nn.Call.
// Modules take positional arguments only: keyword arguments are an error.
func (in *Interpreter) CallModule(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (out nn.Value, err error) {
	if in.root == nil {
		return nn.None, fmt.Errorf("call_module %s: the interpreter has no root module", target)
	}
	if len(kwargs) > 0 {
		return nn.None, fmt.Errorf("call_module %s: keyword arguments are not supported (modules take positional arguments)", target)
	}
	m, err := in.submodule(target)
	if err != nil {
		return nn.None, err
	}
	defer nn.Recover(&err)
	return nn.Call(m, args...), nil
}

// Output returns args[0], the value the graph returns.
func (in *Interpreter) Output(n *node.Node, target string, args []nn.Value, kwargs map[string]nn.Value) (nn.Value, error) {
	if len(args) == 0 {
		return nn.None, nil
	}
	return args[0], nil
}
