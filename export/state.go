package export

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// WithState returns a copy of ep whose program is g, with signature sig and
// parameter and buffer state (by state name, the targets of sig's
// PARAMETER and BUFFER inputs): the way a pass edits an exported program.
// Everything else carries over: the user inputs (specialized ones
// included), the output structure, Env, the range and equality
// constraints and the module call graph (copied, so the result's fields
// can be edited without changing ep), and the lifted constants that sig
// still names as CONSTANT_TENSOR inputs (the others are dropped).
//
// g and the tensors of state are taken as they are, not copied: Run
// writes mutated buffers back into them, and the caller should not edit g
// afterwards. ep is not changed.
//
// WithState checks that g passes Lint; that its placeholders are sig's
// inputs, by name and in order, the kinds in torch.export's order
// (parameters, buffers, constants, user inputs); that every PARAMETER and
// BUFFER input has a tensor in state and every state entry an input; that
// every CONSTANT_TENSOR input names one of ep's constants; that the user
// inputs are ep's; and that sig's outputs match g's output node, one spec
// per returned value, named after it, with as many user outputs as ep
// has. Its errors name the placeholder, input or output concerned.
func (ep *ExportedProgram) WithState(g *graph.Graph, sig Signature, state map[string]*tensor.Tensor) (*ExportedProgram, error) {
	if ep == nil {
		return nil, fmt.Errorf("export: WithState: nil program")
	}
	if g == nil {
		return nil, fmt.Errorf("export: WithState: nil graph")
	}
	if err := g.Lint(); err != nil {
		return nil, fmt.Errorf("export: WithState: %w", err)
	}
	return ep.withState(g, sig, state, ep.constants)
}

// withState is WithState with the lifted constants that sig's
// CONSTANT_TENSOR inputs may name: known (ep's for WithState; Transform's
// include the constants its passes computed).
func (ep *ExportedProgram) withState(g *graph.Graph, sig Signature, state map[string]*tensor.Tensor, known []stateEntry) (*ExportedProgram, error) {
	entries, consts, err := ep.checkInputSpecs(g, sig, state, known)
	if err != nil {
		return nil, err
	}
	if err := ep.checkOutputSpecs(g, sig); err != nil {
		return nil, err
	}
	out := *ep
	out.Graph = g
	out.marks = newMarkCache()
	out.Signature = Signature{Inputs: slices.Clone(sig.Inputs), Outputs: slices.Clone(sig.Outputs)}
	out.state = entries
	out.constants = consts
	out.inputs = slices.Clone(ep.inputs)
	out.RangeConstraints = maps.Clone(ep.RangeConstraints)
	if ep.RangeConstraints == nil {
		out.RangeConstraints = map[string]sym.Range{}
	}
	out.EqualityConstraints = nil
	for _, group := range ep.EqualityConstraints {
		out.EqualityConstraints = append(out.EqualityConstraints, slices.Clone(group))
	}
	out.ModuleCallGraph = make([]ModuleCall, len(ep.ModuleCallGraph))
	for i, c := range ep.ModuleCallGraph {
		c.Inputs = slices.Clone(c.Inputs)
		c.Outputs = slices.Clone(c.Outputs)
		out.ModuleCallGraph[i] = c
	}
	out.dimOf = maps.Clone(ep.dimOf)
	return &out, nil
}

// checkInputSpecs checks g's placeholders against sig.Inputs and returns
// the state entries and the constants kept, in placeholder order.
func (ep *ExportedProgram) checkInputSpecs(g *graph.Graph, sig Signature, state map[string]*tensor.Tensor, constants []stateEntry) (entries, consts []stateEntry, err error) {
	phs := g.Placeholders()
	if len(phs) != len(sig.Inputs) {
		return nil, nil, fmt.Errorf("export: WithState: the graph has %d placeholders (%s), the signature %d inputs (%s)", len(phs), placeholderNames(phs), len(sig.Inputs), specNames(sig.Inputs))
	}
	known := make(map[string]*tensor.Tensor, len(constants))
	for _, c := range constants {
		known[c.name] = c.t
	}
	var users []string
	targets := map[string]string{}  // target -> input name
	kinds := map[string]InputKind{} // target -> kind
	last := TokenInput
	for i, in := range sig.Inputs {
		if phs[i].Name() != in.Name {
			return nil, nil, fmt.Errorf("export: WithState: placeholder %d is %s, but input %d of the signature is %s", i, phs[i].Name(), i, in.Name)
		}
		if in.Kind < Parameter || in.Kind > TokenInput {
			return nil, nil, fmt.Errorf("export: WithState: input %s has an unknown kind %s", in.Name, in.Kind)
		}
		if in.Kind.rank() < last.rank() {
			return nil, nil, fmt.Errorf("export: WithState: input %s (%s) comes after a %s input: the order is tokens, parameters, buffers, constants, user inputs", in.Name, in.Kind, last)
		}
		last = in.Kind
		if in.Kind == TokenInput {
			continue
		}
		if in.Kind == UserInput {
			if in.Target != "" {
				return nil, nil, fmt.Errorf("export: WithState: user input %s has a target (%s)", in.Name, in.Target)
			}
			users = append(users, in.Name)
			continue
		}
		if in.Target == "" {
			return nil, nil, fmt.Errorf("export: WithState: %s input %s has no target", in.Kind, in.Name)
		}
		if prev, dup := targets[in.Target]; dup {
			if kinds[in.Target] != in.Kind {
				return nil, nil, fmt.Errorf("export: WithState: inputs %s and %s have the same target %s", prev, in.Name, in.Target)
			}
			// Tied state: PyTorch gives each use of a tied parameter its
			// placeholder, with the same target.
			continue
		}
		targets[in.Target] = in.Name
		kinds[in.Target] = in.Kind
		switch in.Kind {
		case Parameter, Buffer:
			t, ok := state[in.Target]
			if !ok {
				return nil, nil, fmt.Errorf("export: WithState: %s input %s: no state for its target %s", in.Kind, in.Name, in.Target)
			}
			if t == nil {
				return nil, nil, fmt.Errorf("export: WithState: %s input %s: the state of %s is a nil tensor", in.Kind, in.Name, in.Target)
			}
			entries = append(entries, stateEntry{in.Target, t})
		case ConstantTensor:
			t, ok := known[in.Target]
			if !ok {
				return nil, nil, fmt.Errorf("export: WithState: constant input %s: the program has no constant %s (it has %s)", in.Name, in.Target, constantNames(constants))
			}
			consts = append(consts, stateEntry{in.Target, t})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(state)) {
		if k, ok := kinds[name]; !ok || (k != Parameter && k != Buffer) {
			return nil, nil, fmt.Errorf("export: WithState: state entry %s is no PARAMETER or BUFFER input of the signature", name)
		}
	}
	var want []string
	for _, in := range ep.inputs {
		if in.fake != nil || in.scalar || in.ph {
			want = append(want, in.name)
		}
	}
	if !slices.Equal(users, want) {
		return nil, nil, fmt.Errorf("export: WithState: the user inputs are %v, the program's are %v: a new program cannot change its inputs", users, want)
	}
	return entries, consts, nil
}

// checkOutputSpecs checks sig.Outputs against g's output node.
func (ep *ExportedProgram) checkOutputSpecs(g *graph.Graph, sig Signature) error {
	out := g.OutputNode()
	if out == nil {
		return fmt.Errorf("export: WithState: the graph has no output node")
	}
	if out.NumArgs() != 1 {
		return fmt.Errorf("export: WithState: output node %s has %d arguments, want 1 (a tuple following the signature's outputs)", out.Name(), out.NumArgs())
	}
	results, ok := out.Arg(0).(node.Tuple)
	if !ok {
		return fmt.Errorf("export: WithState: output node %s returns %v, not a tuple", out.Name(), out.Arg(0))
	}
	if len(results) != len(sig.Outputs) {
		return fmt.Errorf("export: WithState: output node %s returns %d values, the signature has %d outputs", out.Name(), len(results), len(sig.Outputs))
	}
	inputs := map[string]InputKind{}
	targets := map[string]InputKind{}
	for _, in := range sig.Inputs {
		inputs[in.Name] = in.Kind
		if in.Target != "" {
			targets[in.Target] = in.Kind
		}
	}
	user := 0
	last := TokenOutput
	for i, o := range sig.Outputs {
		r, ok := results[i].(*node.Node)
		if !ok {
			return fmt.Errorf("export: WithState: output %d (%s) is %v, not a node", i, o.Name, results[i])
		}
		if r.Name() != o.Name {
			return fmt.Errorf("export: WithState: output %d is node %s, but the signature names it %s", i, r.Name(), o.Name)
		}
		if o.Kind < BufferMutation || o.Kind > TokenOutput {
			return fmt.Errorf("export: WithState: output %s has an unknown kind %s", o.Name, o.Kind)
		}
		if o.Kind.rank() < last.rank() {
			return fmt.Errorf("export: WithState: output %s (%s) comes after a %s output: the order is tokens, buffer mutations, user input mutations, user outputs", o.Name, o.Kind, last)
		}
		last = o.Kind
		switch o.Kind {
		case BufferMutation:
			if targets[o.Target] != Buffer || o.Target == "" {
				return fmt.Errorf("export: WithState: output %s mutates %q, which is no BUFFER input's target", o.Name, o.Target)
			}
		case UserInputMutation:
			if k, ok := inputs[o.Target]; !ok || k != UserInput {
				return fmt.Errorf("export: WithState: output %s mutates %q, which is no user input", o.Name, o.Target)
			}
		case UserOutput, LossOutput:
			user++
		}
	}
	if want := ep.out.NumLeaves(); user != want {
		return fmt.Errorf("export: WithState: the signature has %d user outputs, the program returns %d", user, want)
	}
	return nil
}

func placeholderNames(phs []*node.Node) []string {
	out := make([]string, len(phs))
	for i, n := range phs {
		out[i] = n.Name()
	}
	return out
}

func specNames(ins []InputSpec) []string {
	out := make([]string, len(ins))
	for i, in := range ins {
		out[i] = in.Name
	}
	return out
}

func constantNames(cs []stateEntry) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}
