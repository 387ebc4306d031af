package interp

import (
	"fmt"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// Interpreter runs a graph on values. Create one with New; run it with Run
// or RunWithEnv. Its steps are the methods of Steps; see the package
// documentation for overriding them.
type Interpreter struct {
	// Steps is the value whose methods Run calls for every step: set it to
	// a type that embeds this *Interpreter and overrides some steps. Nil
	// means the interpreter itself (the default steps).
	Steps Steps
	// Reuse says whether runs recycle the buffers of dead values (the
	// zero value, ReuseAuto: with the default steps only; see Reuse).
	Reuse Reuse

	g     *graph.Graph
	root  nn.Module
	plans []nodePlan
	index map[*node.Node]int32 // node → position in plans

	modules map[string]nn.Module // submodules by path, resolved on first use
	modvals map[string]nn.Value  // get_attr values of submodules, made on first use

	// State of the run in progress.
	env    []nn.Value // by node position
	live   []bool     // whether env[i] holds a value
	nlive  int        // number of true entries of live
	cur    int        // position of the node being run (-1: none)
	inputs []nn.Value // Run's inputs
	next   int        // next input to hand to a placeholder
	bufs   reuse      // buffer reuse bookkeeping
}

// New returns an interpreter of g whose get_attr and call_module nodes
// look their targets up below root (nil for a graph without such nodes).
// It takes a snapshot of g's nodes, and remembers the submodule each
// module path resolves to the first time it does: create a new
// interpreter after changing g or replacing modules of the tree.
func New(g *graph.Graph, root nn.Module) *Interpreter {
	in := &Interpreter{g: g, root: root, cur: -1}
	in.plan()
	in.reset()
	return in
}

// Graph returns the graph being interpreted.
func (in *Interpreter) Graph() *graph.Graph { return in.g }

// Root returns the module tree get_attr and call_module nodes refer to.
func (in *Interpreter) Root() nn.Module { return in.root }

// steps returns the value whose methods run the steps.
func (in *Interpreter) steps() Steps {
	if in.Steps != nil {
		return in.Steps
	}
	return in
}

// Run runs the graph with inputs fed to its placeholders in order and
// returns the value of its output node (None for a graph without one). A
// placeholder with a default takes the default when the inputs have run
// out; missing or extra inputs are errors. A failing node stops the run
// with a *NodeError.
func (in *Interpreter) Run(inputs ...nn.Value) (nn.Value, error) {
	return in.RunWithEnv(nil, inputs...)
}

// RunWithEnv is Run with an initial environment: the nodes in env are not
// run, and their values in env are used instead (torch.fx's initial_env,
// for partial evaluation). Placeholders in env take no input. env itself
// is not modified.
func (in *Interpreter) RunWithEnv(env map[*node.Node]nn.Value, inputs ...nn.Value) (out nn.Value, err error) {
	in.reset()
	in.bufs.start(in.reuses(), len(in.plans))
	defer func() {
		in.bufs.on = false
		in.cur = -1
		in.inputs = nil
		in.reset() // drop what is left: unused initial values, or a failed run's
	}()
	for n, v := range env {
		i, ok := in.index[n]
		if !ok {
			return nn.None, fmt.Errorf("interp: the initial environment holds node %s, which is not in the graph", n)
		}
		in.set(int(i), v)
		in.bufs.add(int(i), v, true)
	}
	want := 0
	for i := range in.plans {
		if in.plans[i].op == node.Placeholder && !in.live[i] {
			want++
		}
	}
	if len(inputs) > want {
		return nn.None, fmt.Errorf("interp: the graph takes %d inputs, got %d", want, len(inputs))
	}
	in.inputs, in.next = inputs, 0
	s := in.steps()
	for i := range in.plans {
		p := &in.plans[i]
		if !in.live[i] {
			in.cur = i
			v, err := in.runStep(s, p.n)
			if err != nil {
				return nn.None, wrapNodeError(p.n, err)
			}
			in.set(i, v)
			if p.constant && in.Steps == nil {
				markConstant(v)
			}
			if p.op == node.Output {
				in.bufs.pin(v)
			} else if in.bufs.on {
				in.bufs.add(i, v, in.pinPlan(p))
			}
		}
		for _, j := range p.free {
			in.bufs.release(int(j))
			in.drop(int(j))
		}
		if p.op == node.Output {
			v := in.env[i]
			in.drop(i)
			return v, nil
		}
	}
	return nn.None, nil
}

// reuses reports whether a run recycles buffers (see Reuse).
func (in *Interpreter) reuses() bool {
	switch in.Reuse {
	case ReuseOn:
		return true
	case ReuseOff:
		return false
	}
	return in.Steps == nil
}

// runStep runs one node through s, turning a panic into an error.
func (in *Interpreter) runStep(s Steps, n *node.Node) (v nn.Value, err error) {
	defer nn.Recover(&err)
	return s.RunNode(n)
}

func (in *Interpreter) reset() {
	if len(in.env) != len(in.plans) {
		in.env = make([]nn.Value, len(in.plans))
		in.live = make([]bool, len(in.plans))
	} else if in.nlive > 0 {
		clear(in.env)
		clear(in.live)
	}
	in.nlive = 0
}

func (in *Interpreter) set(i int, v nn.Value) {
	if !in.live[i] {
		in.live[i] = true
		in.nlive++
	}
	in.env[i] = v
}

func (in *Interpreter) drop(i int) {
	if in.live[i] {
		in.live[i] = false
		in.nlive--
		in.env[i] = nn.None
	}
}

// Env returns the values the environment holds now, by node: during a run
// (from an overridden step), the values computed, or given in the initial
// environment, that a node still to run uses. Between runs it is empty:
// a run drops every value it holds when it returns, successful or not. The
// map is a copy.
func (in *Interpreter) Env() map[*node.Node]nn.Value {
	out := make(map[*node.Node]nn.Value, in.nlive)
	for i, ok := range in.live {
		if ok {
			out[in.plans[i].n] = in.env[i]
		}
	}
	return out
}

// EnvLen returns the number of values the environment holds now: len(Env())
// without building the map.
func (in *Interpreter) EnvLen() int { return in.nlive }

// NextInput hands out the next of Run's inputs, as the default Placeholder
// step does; ok is false when they have run out.
func (in *Interpreter) NextInput() (v nn.Value, ok bool) {
	if in.next >= len(in.inputs) {
		return nn.None, false
	}
	v = in.inputs[in.next]
	in.next++
	return v, true
}
