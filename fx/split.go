package fx

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	dgraph "github.com/dominikbraun/graph"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// ErrPartitionCycle is wrapped by the error SplitModule returns when the
// partitions depend on each other in a cycle (partition A uses a value of
// partition B and B, directly or not, one of A), so that no order of
// submodule calls computes the graph.
var ErrPartitionCycle = errors.New("cycle between partitions")

// A Partition is one submodule of a split module.
type Partition struct {
	// ID is the partition number the callback returned.
	ID int
	// Name is the submodule's name in the split module ("submod_0").
	Name string
	// Nodes are the names of the original graph's nodes it computes, in
	// program order.
	Nodes []string
	// Inputs are the names of the original nodes whose values it takes as
	// arguments (its placeholders, named after them), in order of first use.
	Inputs []string
	// Outputs are the names of the original nodes whose values it returns
	// (one value, or a tuple the split module unpacks with getitem).
	Outputs []string
	// DependsOn are the IDs of the partitions whose outputs it takes.
	DependsOn []int
	// Module is the submodule: its own graph, and the modules its
	// call_module nodes call, registered under their original dotted path
	// with dots turned into underscores ("layer1.0.conv1" is
	// "layer1_0_conv1").
	Module *GraphModule
}

// A Split is the result of SplitModuleWith.
type Split struct {
	// Module is the split module: the original placeholders and get_attr
	// nodes, one call_module node per partition in dependency order, and
	// the original output.
	Module *GraphModule
	// Partitions are the submodules in the order Module calls them.
	Partitions []*Partition
	// QualNames maps each module target inside a submodule
	// ("submod_0.layer1_0_conv1") to the original target ("layer1.0.conv1"),
	// as torch.fx's qualname_map.
	QualNames map[string]string
}

// SplitModule splits gm into submodules by partition, as torch.fx's
// split_module(gm, root, split_callback) does; see SplitModuleWith.
func SplitModule(gm *GraphModule, partition func(n *node.Node) int) (*GraphModule, error) {
	s, err := SplitModuleWith(gm, partition)
	if err != nil {
		return nil, err
	}
	return s.Module, nil
}

// SplitModuleWith groups the call_function, call_method and call_module
// nodes of gm by the partition number the callback returns (a number from
// 0 up) into submodules submod_N, and returns a module that calls them, with
// torch.fx 1.13's split_module semantics:
//
//   - placeholders and get_attr nodes stay in the top-level graph, and their
//     values are passed to the partitions that use them;
//   - each partition's placeholders are the values it needs from outside (in
//     order of first use, named after the original nodes), and its output is
//     the values that other partitions or the graph's output use: one value,
//     or a tuple that the top-level graph unpacks with operator.getitem;
//   - the top-level graph calls the partitions in a topological order of
//     their dependencies (torch.fx's order: a stack of the partitions whose
//     dependencies are met, seeded in order of first appearance);
//   - nodes keep their opcode, function or method, arguments and metadata,
//     but get new names derived from their targets, as torch.fx's do;
//   - call_module targets are resolved in gm and registered in the
//     partition's module under the path with dots replaced by underscores.
//
// The partitions and their dependencies form a graph (dominikbraun/graph,
// with cycle prevention): the dependency that would close a cycle is
// refused, and SplitModuleWith returns an error wrapping
// ErrPartitionCycle that names the partitions on the cycle and the nodes
// that link them; an error for a negative partition number, a panic
// in the callback, or a target that does not resolve. gm is not changed;
// the split module shares gm's modules, parameters and buffers.
func SplitModuleWith(gm *GraphModule, partition func(n *node.Node) int) (*Split, error) {
	if gm == nil || gm.Graph == nil {
		return nil, errors.New("fx: SplitModule: nil GraphModule")
	}
	if partition == nil {
		return nil, errors.New("fx: SplitModule: nil partition callback")
	}
	s := &splitter{
		gm: gm, part: make(map[*node.Node]*splitPart, gm.Graph.Len()), byID: map[int]*splitPart{},
		deps: dgraph.New(func(p *splitPart) int { return p.id }, dgraph.Directed(), dgraph.PreventCycles()),
	}
	if err := s.assign(partition); err != nil {
		return nil, fmt.Errorf("fx: SplitModule: %w", err)
	}
	order, err := s.sort()
	if err != nil {
		return nil, fmt.Errorf("fx: SplitModule: %w", err)
	}
	out, err := s.build(order)
	if err != nil {
		return nil, fmt.Errorf("fx: SplitModule: %w", err)
	}
	return out, nil
}

// splitPart is the working state of one partition.
type splitPart struct {
	id    int
	name  string
	nodes []*node.Node

	inputs    []*node.Node
	inputSet  map[*node.Node]bool
	outputs   []*node.Node
	outputSet map[*node.Node]bool

	// dependsOn and dependents are ordered sets of partitions; via records,
	// per partition depended on, the first (user, value) pair that made
	// the dependency, for error messages.
	dependsOn  []*splitPart
	depSet     map[*splitPart]bool
	via        map[*splitPart][2]*node.Node
	dependents []*splitPart
	dentSet    map[*splitPart]bool
	pending    int // dependencies not yet sorted
}

type splitter struct {
	gm    *GraphModule
	part  map[*node.Node]*splitPart
	parts []*splitPart // in order of first appearance
	byID  map[int]*splitPart
	// deps is the partition graph: an edge from each partition to those
	// that use its values, added as the dependencies are found; it refuses
	// the edge that would close a cycle.
	deps dgraph.Graph[int, *splitPart]
}

// callPartition calls the callback, turning a panic into an error.
func callPartition(partition func(*node.Node) int, n *node.Node) (id int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("partition callback panicked on node %s: %v", n.Name(), r)
		}
	}()
	return partition(n), nil
}

// assign asks the callback for each computing node's partition and records
// the values that cross partitions.
func (s *splitter) assign(partition func(*node.Node) int) error {
	for n := range s.gm.Graph.Nodes() {
		switch n.Op() {
		case node.Placeholder, node.GetAttr:
			continue
		case node.Output:
			n.EachInput(func(d *node.Node) { _ = s.cross(d, nil) }) // no partition uses the output
			continue
		}
		id, err := callPartition(partition, n)
		if err != nil {
			return err
		}
		if id < 0 {
			return fmt.Errorf("partition callback returned %d for node %s (%s %s); partition numbers start at 0", id, n.Name(), n.Op(), n.Target())
		}
		p := s.byID[id]
		if p == nil {
			p = &splitPart{
				id: id, name: "submod_" + strconv.Itoa(id),
				inputSet: map[*node.Node]bool{}, outputSet: map[*node.Node]bool{},
				depSet: map[*splitPart]bool{}, dentSet: map[*splitPart]bool{},
				via: map[*splitPart][2]*node.Node{},
			}
			s.byID[id] = p
			s.parts = append(s.parts, p)
			if err := s.deps.AddVertex(p); err != nil {
				return fmt.Errorf("partition %d: %w", id, err)
			}
		}
		p.nodes = append(p.nodes, n)
		s.part[n] = p
		n.EachInput(func(d *node.Node) {
			if err == nil {
				err = s.cross(d, n)
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// cross records that use (nil: the graph's output) uses def's value, as
// torch.fx's record_cross_partition_use. It returns an error wrapping
// ErrPartitionCycle when the dependency closes a cycle of partitions.
func (s *splitter) cross(def, use *node.Node) error {
	dp, up := s.part[def], s.part[use] // nil for placeholders, get_attr and the output
	if dp == up {
		return nil
	}
	if dp != nil {
		if !dp.outputSet[def] {
			dp.outputSet[def] = true
			dp.outputs = append(dp.outputs, def)
		}
		if up != nil && !dp.dentSet[up] {
			dp.dentSet[up] = true
			dp.dependents = append(dp.dependents, up)
		}
	}
	if up != nil {
		if !up.inputSet[def] {
			up.inputSet[def] = true
			up.inputs = append(up.inputs, def)
		}
		if dp != nil && !up.depSet[dp] {
			up.depSet[dp] = true
			up.dependsOn = append(up.dependsOn, dp)
			up.via[dp] = [2]*node.Node{use, def}
			if err := s.deps.AddEdge(dp.id, up.id); err != nil {
				if errors.Is(err, dgraph.ErrEdgeCreatesCycle) {
					return s.cycle(dp, up)
				}
				return fmt.Errorf("partitions %d and %d: %w", dp.id, up.id, err)
			}
		}
	}
	return nil
}

// sort orders the partitions as torch.fx does: Kahn's algorithm with a
// stack, seeded in order of first appearance, which calls independent
// partitions last-seeded first. (The partition graph's
// StableTopologicalSort takes the partitions in rounds, in another order,
// and the split modules would no longer match torch.fx's node for node.)
func (s *splitter) sort() ([]*splitPart, error) {
	var stack []*splitPart
	for _, p := range s.parts {
		p.pending = len(p.dependsOn)
		if p.pending == 0 {
			stack = append(stack, p)
		}
	}
	order := make([]*splitPart, 0, len(s.parts))
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, p)
		for _, d := range p.dependents {
			d.pending--
			if d.pending == 0 {
				stack = append(stack, d)
			}
		}
	}
	if len(order) != len(s.parts) { // the partition graph refused every cycle
		return nil, fmt.Errorf("%w: %d of %d partitions sorted", ErrPartitionCycle, len(order), len(s.parts))
	}
	return order, nil
}

// cycle describes the cycle that the dependency of consumer on producer
// closes: the partition graph has a path from consumer to producer.
func (s *splitter) cycle(producer, consumer *splitPart) error {
	path, err := dgraph.ShortestPath(s.deps, consumer.id, producer.id)
	if err != nil {
		return fmt.Errorf("%w: partitions %d and %d: %v", ErrPartitionCycle, producer.id, consumer.id, err)
	}
	// flow is in data-flow order: each partition feeds the next, and the
	// last (producer) the first (consumer). Start it from the partition
	// that appears first in the graph.
	flow := make([]*splitPart, len(path))
	for i, id := range path {
		flow[i] = s.byID[id]
	}
	k := len(flow)
	first := 0
	for i, p := range flow {
		if s.index(p) < s.index(flow[first]) {
			first = i
		}
	}
	flow = append(flow[first:], flow[:first]...)
	ids := make([]string, 0, k+1)
	links := make([]string, 0, k)
	for i, producer := range flow {
		consumer := flow[(i+1)%k]
		v := consumer.via[producer]
		ids = append(ids, strconv.Itoa(producer.id))
		links = append(links, fmt.Sprintf("node %s of partition %d uses %s of partition %d", v[0].Name(), consumer.id, v[1].Name(), producer.id))
	}
	ids = append(ids, strconv.Itoa(flow[0].id))
	return fmt.Errorf("%w: partitions %s (%s)", ErrPartitionCycle, strings.Join(ids, " -> "), strings.Join(links, "; "))
}

// index returns p's position in order of first appearance.
func (s *splitter) index(p *splitPart) int {
	for i, q := range s.parts {
		if q == p {
			return i
		}
	}
	return -1
}

// module is a plain container module, as the empty torch.nn.Module that
// torch.fx puts on intermediate attribute paths.
type module struct{ nn.Base }

func newModule() *module {
	m := &module{}
	m.Init(m, "Module")
	return m
}

// resolveAttr returns the parameter, buffer or module at path below root.
func resolveAttr(root nn.Module, path string) (any, error) {
	if a, err := nn.Attr(root, path); err == nil {
		return a, nil
	}
	if m, err := nn.Submodule(root, path); err == nil {
		return m, nil
	}
	if _, err := nn.Attr(root, path); err != nil {
		return nil, fmt.Errorf("target %q does not resolve: %w", path, err)
	}
	return nil, fmt.Errorf("target %q does not resolve", path)
}

// installer registers attributes on a container module at dotted paths,
// creating container modules on the way, as torch.fx's GraphModule
// constructor does for a dict of attributes.
type installer struct {
	root  *module
	bases map[string]*nn.Base // container path -> its Base
	done  map[string]bool     // paths installed
}

func newInstaller() *installer {
	r := newModule()
	return &installer{root: r, bases: map[string]*nn.Base{"": &r.Base}, done: map[string]bool{}}
}

// install registers v (a *nn.Parameter, *nn.Buffer or nn.Module) at path
// unless something is there already. Registration errors (a name taken)
// are recorded in the modules and reported by nn.Err.
func (in *installer) install(path string, v any) error {
	if in.done[path] {
		return nil
	}
	in.done[path] = true
	atoms := strings.Split(path, ".")
	b := in.bases[""]
	for i, a := range atoms[:len(atoms)-1] {
		prefix := strings.Join(atoms[:i+1], ".")
		next, ok := in.bases[prefix]
		if !ok {
			c := newModule()
			b.AddModule(a, c)
			next = &c.Base
			in.bases[prefix] = next
		}
		b = next
	}
	leaf := atoms[len(atoms)-1]
	switch v := v.(type) {
	case *nn.Parameter:
		b.ShareParameter(leaf, v)
	case *nn.Buffer:
		b.ShareBuffer(leaf, v)
	case nn.Module:
		b.AddModule(leaf, v)
		in.bases[path] = v.ModuleBase()
	default:
		return fmt.Errorf("attribute %q is a %T, not a parameter, buffer or module", path, v)
	}
	return nil
}

// build makes the partitions' GraphModules and the top-level module.
func (s *splitter) build(order []*splitPart) (*Split, error) {
	res := &Split{QualNames: map[string]string{}}
	graphs := make(map[*splitPart]*graph.Graph, len(s.parts))
	roots := make(map[*splitPart]*installer, len(s.parts))
	env := make(map[*node.Node]*node.Node, s.gm.Graph.Len()) // original node -> node in its own partition
	penv := make(map[*splitPart]map[*node.Node]*node.Node, len(s.parts))
	for _, p := range order {
		pg := graph.New()
		graphs[p], roots[p] = pg, newInstaller()
		penv[p] = make(map[*node.Node]*node.Node, len(p.inputs))
		for _, in := range p.inputs {
			ph, err := pg.Placeholder(in.Name())
			if err != nil {
				return nil, fmt.Errorf("partition %d: input %s: %w", p.id, in.Name(), err)
			}
			ph.Meta = in.Meta.Clone()
			penv[p][in] = ph
		}
	}
	for n := range s.gm.Graph.Nodes() {
		p := s.part[n]
		if p == nil {
			continue
		}
		local := penv[p]
		remap := func(d *node.Node) node.Arg {
			if v, ok := local[d]; ok {
				return v
			}
			return env[d]
		}
		args := make([]node.Arg, n.NumArgs())
		for i, a := range n.Args() {
			args[i] = node.MapArg(a, remap)
		}
		var kwargs node.Kwargs
		for _, f := range n.Kwargs() {
			kwargs = append(kwargs, node.Field{Name: f.Name, Value: node.MapArg(f.Value, remap)})
		}
		target := n.Target()
		if n.Op() == node.CallModule {
			path := n.Target().String()
			sub, err := nn.Submodule(s.gm, path)
			if err != nil {
				return nil, fmt.Errorf("node %s: call_module target %q does not resolve: %w", n.Name(), path, err)
			}
			flat := strings.ReplaceAll(path, ".", "_")
			if err := roots[p].install(flat, sub); err != nil {
				return nil, fmt.Errorf("node %s: partition %d: %w", n.Name(), p.id, err)
			}
			res.QualNames[p.name+"."+flat] = path
			target = node.Path(flat)
		}
		nw, err := graphs[p].CreateNode(n.Op(), target, args, kwargs, "")
		if err != nil {
			return nil, fmt.Errorf("node %s: partition %d: %w", n.Name(), p.id, err)
		}
		nw.Meta = n.Meta.Clone()
		env[n] = nw
	}

	base := graph.New()
	top := newInstaller()
	benv := make(map[*node.Node]node.Arg, s.gm.Graph.Len())
	for n := range s.gm.Graph.Nodes() {
		var (
			nw  *node.Node
			err error
		)
		switch n.Op() {
		case node.Placeholder:
			if n.NumArgs() > 0 {
				nw, err = base.PlaceholderWithDefault(n.Target().String(), n.Arg(0))
			} else {
				nw, err = base.Placeholder(n.Target().String())
			}
		case node.GetAttr:
			path := n.Target().String()
			if !top.done[path] {
				v, rerr := resolveAttr(s.gm, path)
				if rerr != nil {
					return nil, fmt.Errorf("node %s: get_attr %w", n.Name(), rerr)
				}
				if ierr := top.install(path, v); ierr != nil {
					return nil, fmt.Errorf("node %s: get_attr %q: %w", n.Name(), path, ierr)
				}
			}
			nw, err = base.GetAttr(path)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name(), err)
		}
		nw.Meta = n.Meta.Clone()
		benv[n] = nw
	}
	for _, p := range order {
		pg := graphs[p]
		outs := make(node.Tuple, len(p.outputs))
		for i, o := range p.outputs {
			outs[i] = env[o]
		}
		var result node.Arg = outs
		switch len(outs) {
		case 0:
			result = node.None
		case 1:
			result = outs[0]
		}
		if _, err := pg.Output(result); err != nil {
			return nil, fmt.Errorf("partition %d: output: %w", p.id, err)
		}
		sub, err := NewGraphModule(roots[p].root, pg)
		if err != nil {
			return nil, fmt.Errorf("partition %d: %w", p.id, err)
		}
		if top.done[p.name] || top.bases[p.name] != nil {
			return nil, fmt.Errorf("partition %d: the split module already has an attribute %q", p.id, p.name)
		}
		if err := top.install(p.name, sub); err != nil {
			return nil, fmt.Errorf("partition %d: %w", p.id, err)
		}
		args := make([]node.Arg, len(p.inputs))
		for i, in := range p.inputs {
			args[i] = benv[in]
		}
		call, err := base.CallModule(p.name, args, nil)
		if err != nil {
			return nil, fmt.Errorf("partition %d: %w", p.id, err)
		}
		if len(p.outputs) > 1 {
			for i, o := range p.outputs {
				gi, err := base.CallFunction(nn.GetItem, []node.Arg{call, node.Int(i)}, nil)
				if err != nil {
					return nil, fmt.Errorf("partition %d: %w", p.id, err)
				}
				benv[o] = gi
			}
		} else if len(p.outputs) == 1 {
			benv[p.outputs[0]] = call
		}
		part := &Partition{ID: p.id, Name: p.name, Module: sub}
		for _, n := range p.nodes {
			part.Nodes = append(part.Nodes, n.Name())
		}
		for _, n := range p.inputs {
			part.Inputs = append(part.Inputs, n.Name())
		}
		for _, n := range p.outputs {
			part.Outputs = append(part.Outputs, n.Name())
		}
		for _, d := range p.dependsOn {
			part.DependsOn = append(part.DependsOn, d.id)
		}
		res.Partitions = append(res.Partitions, part)
	}
	if o := s.gm.Graph.OutputNode(); o != nil {
		result := node.MapArg(o.Arg(0), func(d *node.Node) node.Arg { return benv[d] })
		on, err := base.Output(result)
		if err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
		on.Meta = o.Meta.Clone()
	}
	gm, err := NewGraphModule(top.root, base)
	if err != nil {
		return nil, err
	}
	if err := gm.Lint(); err != nil {
		return nil, fmt.Errorf("split module fails Lint: %w", err)
	}
	res.Module = gm
	return res, nil
}
