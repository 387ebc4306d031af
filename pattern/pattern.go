package pattern

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Option configures Compile, Find, Replace and ReplaceFunc. Options that
// shape a pattern (Name, Literal, AnyLiterals, NoCommutativity,
// ModulesByPath, ModulesByType, MatchAttrsByPath, StrictOverloads,
// StrictSpelling, AllowSharedPlaceholders) act when the pattern is compiled,
// so they are ignored when an already compiled *Pattern is passed to Find or
// Replace; filters given to Compile belong to the pattern and those given to
// Find or Replace are added to them for that call. OnSkip acts in the
// Replace or ReplaceFunc call it is given to.
type Option func(*config)

type literalSpec struct{ node, arg string }

type config struct {
	name               string
	literals           []literalSpec
	anyLiterals        bool
	noCommute          bool
	modulesByPath      bool
	modulesByType      bool
	attrsByPath        bool
	strictOverloads    bool
	strictSpelling     bool
	sharedPlaceholders bool
	filters            []func(*Match) bool
	onSkip             func(*Match, error)
}

// Name names the pattern in errors, explanations and the stack_trace of the
// nodes a replacement creates (default: the output node names, "relu").
func Name(name string) Option { return func(c *config) { c.name = name } }

// Literal makes argument arg of the pattern node called nodeName a literal
// wildcard: it matches any value that is not a node (a number, a list of
// numbers, None, a dtype, ...), bound under the name nodeName+"."+arg.
// arg is the schema argument name for operator nodes ("other", "alpha"),
// and the position ("1") or keyword name for other nodes. Compile fails when
// the node or argument does not exist, or when the pattern passes a node
// there.
func Literal(nodeName, arg string) Option {
	return func(c *config) { c.literals = append(c.literals, literalSpec{nodeName, arg}) }
}

// AnyLiterals makes every literal argument of the pattern a wildcard
// (torch.fx's ignore_literals), each bound under "node.arg".
func AnyLiterals() Option { return func(c *config) { c.anyLiterals = true } }

// NoCommutativity makes commutative operators match with their operands in
// the pattern's order only.
func NoCommutativity() Option { return func(c *config) { c.noCommute = true } }

// ModulesByPath makes call_module nodes match by target path, not by module
// type and configuration (torch.fx's rule).
func ModulesByPath() Option { return func(c *config) { c.modulesByPath = true } }

// ModulesByType makes call_module nodes of a pattern traced from modules
// match every module of the same Go type, whatever its configuration (a
// GELU("tanh") pattern then matches a GELU("none") layer): the rule before
// configurations were compared.
func ModulesByType() Option { return func(c *config) { c.modulesByType = true } }

// MatchAttrsByPath makes get_attr nodes match only get_attr nodes reading
// the same path. By default, as torch.fx, a get_attr of a pattern traced from
// a module that reads a parameter or buffer matches a get_attr reading any
// parameter or buffer of the target.
func MatchAttrsByPath() Option { return func(c *config) { c.attrsByPath = true } }

// StrictOverloads makes an operator node match only nodes calling the same
// overload. By default, as torch.fx (whose graphs record torch.add whatever
// the argument types), an operator matches every overload of its packet
// whose arguments line up by schema name: the pattern pow(x, num) records
// aten.pow.Tensor_Tensor and matches the aten.pow.Tensor_Scalar of y ** 2,
// binding num to 2.
func StrictOverloads() Option { return func(c *config) { c.strictOverloads = true } }

// StrictSpelling makes call_method nodes match only call_method nodes of
// the same name, and call_function nodes only call_function nodes. By
// default the method spelling of an aten operator (x.Sigmoid() records
// call_method "sigmoid") matches its function spelling (call_function
// aten.sigmoid.default, as export records it) and back, arguments bound by
// the schema of the overload the method resolves to.
func StrictSpelling() Option { return func(c *config) { c.strictSpelling = true } }

// AllowSharedPlaceholders lets distinct pattern placeholders bind the same
// graph node (pattern add(x, y) then matches add(a, a)). By default, as
// torch.fx, distinct placeholders bind distinct nodes; they may still bind
// equal literals.
func AllowSharedPlaceholders() Option { return func(c *config) { c.sharedPlaceholders = true } }

// OnSkip has Replace and ReplaceFunc call report for each match they leave
// alone because replacing it together with an earlier replaced match would
// make a cycle (two multi-output matches, each fine alone, where an output of
// each reaches an input of the other); the matches returned are the
// replaced ones, as torch.fx's replace_pattern returns. Without OnSkip such
// matches are skipped silently.
func OnSkip(report func(m *Match, reason error)) Option {
	return func(c *config) { c.onSkip = report }
}

// WithFilter keeps only the matches for which keep returns true. Filters run
// once a candidate matches structurally, before non-overlap is decided, so a
// rejected candidate leaves its nodes free for later candidates.
func WithFilter(keep func(*Match) bool) Option {
	return func(c *config) {
		if keep != nil {
			c.filters = append(c.filters, keep)
		}
	}
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// Pattern is a compiled pattern: a graph whose placeholders are wildcards and
// whose returned values are the outputs to match. It is immutable and may be
// used by several goroutines at once (on different graphs).
type Pattern struct {
	name  string
	g     *graph.Graph
	root  nn.Module // module tree of call_module nodes, or nil
	cfg   config
	phs   []*node.Node // placeholders, in order
	nodes []*node.Node // compute nodes, in program order
	outs  []*node.Node // returned nodes, in output order
	tuple bool         // the output is a tuple (multi-output pattern)

	idx      map[*node.Node]int // pattern node -> index in all
	all      []*pnode           // placeholders then compute nodes
	anchor   int                // index in all of the first anchor
	literals []string           // names of the literal wildcards, in order
}

// pnode is one pattern node prepared for matching.
type pnode struct {
	n  *node.Node
	ph int // placeholder number, -1 for compute nodes
	// key is what a graph node spelled as the pattern node must have.
	key key
	// raw is the argument form compared with a graph node of the same
	// opcode and target; res, for operator nodes (fam not ""), the form in
	// the schema of the overload the node resolves to, compared with the
	// other spellings and overloads of its family.
	raw, res form
	fam      string        // operator family ("aten::add"), or ""
	op       *ops.Operator // the overload the node calls or resolves to
	modType  reflect.Type
	modCfg   string // module configuration ("" with ModulesByType)
	attrT    bool   // get_attr of a tensor: matches any tensor attribute
	users    []int  // indexes of pattern users (compute)
	inputs   []int  // indexes of distinct pattern inputs
	isOut    bool   // returned by the pattern
}

// form is a pattern node's arguments in one canonical order.
type form struct {
	args  []any // normalized arguments (node.Arg, *node.Node for nodes)
	names []string
	wild  []int // per argument: literal wildcard number, or -1
	swap  bool  // commutative: args 0 and 1 may be swapped
}

// key identifies what a node calls, as the graph's index does.
type key struct {
	op     node.Opcode
	target string
}

// Name returns the pattern's name.
func (p *Pattern) Name() string { return p.name }

// Graph returns the pattern's graph. It must not be modified.
func (p *Pattern) Graph() *graph.Graph { return p.g }

// Placeholders returns the pattern's placeholder names, in order.
func (p *Pattern) Placeholders() []string {
	out := make([]string, len(p.phs))
	for i, n := range p.phs {
		out[i] = n.Name()
	}
	return out
}

// Literals returns the names of the pattern's literal wildcards, in order.
func (p *Pattern) Literals() []string { return append([]string(nil), p.literals...) }

// NumOutputs returns the number of values the pattern returns.
func (p *Pattern) NumOutputs() int { return len(p.outs) }

// String returns the pattern's name and graph.
func (p *Pattern) String() string { return "pattern " + p.name + "\n" + p.g.String() }

// Compile prepares a pattern for matching. src is a Go function over
// nn.Values (traced with fx.SymbolicTraceFunc, placeholders named after
// ArgNames-less defaults x or x0, x1, ...), an nn.Module (traced with
// fx.SymbolicTrace), a *fx.GraphModule, a *graph.Graph or a *Pattern
// (returned as is). The pattern must compute something, use every
// placeholder, have no dead code and call only known operators.
func Compile(src any, opts ...Option) (*Pattern, error) {
	return compile(src, newConfig(opts))
}

func compile(src any, c *config) (*Pattern, error) {
	if p, ok := src.(*Pattern); ok {
		if p == nil {
			return nil, errors.New("pattern.Compile: nil *Pattern")
		}
		return p, nil
	}
	g, root, err := toGraph(src)
	if err != nil {
		return nil, fmt.Errorf("pattern.Compile: %w", err)
	}
	p := &Pattern{g: g, root: root, cfg: *c, idx: map[*node.Node]int{}}
	if err := p.prepare(); err != nil {
		return nil, fmt.Errorf("pattern.Compile: pattern %s: %w", p.name, err)
	}
	return p, nil
}

// toGraph turns a pattern or replacement source into a graph and its module
// tree.
func toGraph(src any) (*graph.Graph, nn.Module, error) {
	switch s := src.(type) {
	case nil:
		return nil, nil, errors.New("nil pattern")
	case *graph.Graph:
		if s == nil {
			return nil, nil, errors.New("nil *graph.Graph")
		}
		return s, nil, nil
	case *fx.GraphModule:
		if s == nil || s.Graph == nil {
			return nil, nil, errors.New("nil *fx.GraphModule")
		}
		return s.Graph, s, nil
	case nn.Module:
		gm, err := fx.SymbolicTrace(s)
		if err != nil {
			return nil, nil, err
		}
		return gm.Graph, gm, nil
	}
	if reflect.TypeOf(src).Kind() == reflect.Func {
		gm, err := fx.SymbolicTraceFunc(src)
		if err != nil {
			return nil, nil, err
		}
		return gm.Graph, gm, nil
	}
	return nil, nil, fmt.Errorf("cannot make a graph of %T: expected a func over nn.Values, an nn.Module, a *fx.GraphModule or a *graph.Graph", src)
}

func (p *Pattern) prepare() error {
	g := p.g
	out := g.OutputNode()
	if out == nil || out.NumArgs() == 0 {
		if p.name == "" {
			p.name = "<unnamed>"
		}
		return errors.New("the graph has no output")
	}
	switch r := out.Arg(0).(type) {
	case *node.Node:
		p.outs = []*node.Node{r}
	case node.Tuple, node.List:
		p.tuple = true
		var elems []node.Arg
		if t, ok := r.(node.Tuple); ok {
			elems = t
		} else {
			elems = r.(node.List)
		}
		for i, e := range elems {
			n, ok := e.(*node.Node)
			if !ok {
				return fmt.Errorf("output %d is the literal %v, not a node", i, e)
			}
			p.outs = append(p.outs, n)
		}
	default:
		return fmt.Errorf("output is the literal %v, not a node", r)
	}
	if p.cfg.name != "" {
		p.name = p.cfg.name
	} else {
		for i, o := range p.outs {
			if i > 0 {
				p.name += ","
			}
			p.name += o.Name()
		}
	}
	for n := range g.Nodes() {
		switch n.Op() {
		case node.Output:
			continue
		case node.Placeholder:
			p.phs = append(p.phs, n)
		default:
			p.nodes = append(p.nodes, n)
		}
		if n.NumUsers() == 0 {
			what := "node %" + n.Name()
			if n.Op() == node.Placeholder {
				what = "placeholder %" + n.Name()
			}
			return fmt.Errorf("dead code: %s is not used by the pattern's output (%s)", what, graph.FormatNode(n))
		}
	}
	if len(p.nodes) == 0 {
		return errors.New("empty pattern: it computes nothing (a pattern needs at least one node besides placeholders)")
	}
	for i, n := range p.phs {
		p.idx[n] = len(p.all)
		p.all = append(p.all, &pnode{n: n, ph: i})
	}
	for _, n := range p.nodes {
		p.idx[n] = len(p.all)
		p.all = append(p.all, &pnode{n: n, ph: -1})
	}
	for _, o := range p.outs {
		if o.Op() == node.Placeholder {
			return fmt.Errorf("output %%%s is a placeholder: every output must be computed by the pattern", o.Name())
		}
		p.all[p.idx[o]].isOut = true
	}
	wild := map[literalSpec]int{}
	for _, s := range p.cfg.literals {
		if _, dup := wild[s]; !dup {
			wild[s] = -1
		}
	}
	used := 0
	for _, pn := range p.all[len(p.phs):] {
		n := pn.n
		if err := checkTarget(n); err != nil {
			return err
		}
		pn.key = keyOf(n)
		args, names, err := normalize(n)
		if err != nil {
			return fmt.Errorf("node %%%s: %w", n.Name(), err)
		}
		pn.raw.args, pn.raw.names = args, names
		pn.raw.wild = make([]int, len(args))
		for i := range pn.raw.wild {
			pn.raw.wild[i] = -1
			s := literalSpec{n.Name(), names[i]}
			_, named := wild[s]
			if !named && !p.cfg.anyLiterals {
				continue
			}
			if hasNode(args[i]) {
				if named {
					return fmt.Errorf("Literal(%q, %q): the pattern passes a node there (%v), not a literal", s.node, s.arg, fmtArg(args[i]))
				}
				continue
			}
			if named {
				wild[s] = i
				used++
			}
			pn.raw.wild[i] = len(p.literals)
			p.literals = append(p.literals, s.node+"."+s.arg)
		}
		if !p.cfg.noCommute && commutative(n.Target().String(), args) {
			pn.raw.swap = true
		}
		p.prepareFamily(pn)
		if n.Op() == node.CallModule && p.root != nil && !p.cfg.modulesByPath {
			if m, err := nn.Submodule(p.root, n.Target().String()); err == nil {
				pn.modType = reflect.TypeOf(m)
				if !p.cfg.modulesByType {
					pn.modCfg = moduleConfig(m)
				}
			}
		}
		if n.Op() == node.GetAttr && !p.cfg.attrsByPath && isTensorAttr(p.root, n.Target().String()) {
			pn.attrT = true
		}
		seen := map[int]bool{}
		n.EachInput(func(in *node.Node) {
			j := p.idx[in]
			if !seen[j] {
				seen[j] = true
				pn.inputs = append(pn.inputs, j)
			}
		})
	}
	if used < len(wild) {
		for _, s := range p.cfg.literals {
			if wild[s] >= 0 {
				continue
			}
			n, ok := g.Node(s.node)
			if !ok || n.Op() == node.Placeholder || n.Op() == node.Output {
				return fmt.Errorf("Literal(%q, %q): the pattern has no node called %q", s.node, s.arg, s.node)
			}
			_, names, _ := normalize(n)
			return fmt.Errorf("Literal(%q, %q): node %%%s has no argument %q (it has %v)", s.node, s.arg, s.node, s.arg, names)
		}
	}
	for i, pn := range p.all {
		for _, j := range pn.inputs {
			p.all[j].users = append(p.all[j].users, i)
		}
	}
	// The anchor: the first output that only the output node uses, as
	// torch.fx's anchors are the sinks of the pattern.
	p.anchor = -1
	for _, o := range p.outs {
		if o.NumUsers() == 1 {
			p.anchor = p.idx[o]
			break
		}
	}
	if p.anchor < 0 {
		p.anchor = p.idx[p.outs[len(p.outs)-1]]
	}
	return nil
}

// prepareFamily gives an operator node its family and the argument form
// of the overload it calls (a call_method node: resolves to).
func (p *Pattern) prepareFamily(pn *pnode) {
	n := pn.n
	fam := family(n)
	if fam == "" {
		return
	}
	op := operatorOf(n)
	if op == nil {
		return
	}
	pn.fam, pn.op = fam, op
	if n.Op() == node.CallFunction {
		pn.res = pn.raw
		return
	}
	vals, names, err := placeArgs(op, n.Args(), n.Kwargs(), pn.raw.wild)
	if err != nil {
		pn.fam, pn.op = "", nil
		return
	}
	f := form{args: vals, names: names, wild: make([]int, len(vals))}
	for i, v := range vals {
		f.wild[i] = -1
		if w, ok := v.(wildSlot); ok {
			f.wild[i] = int(w)
		}
	}
	f.swap = !p.cfg.noCommute && commutative(op.String(), vals)
	pn.res = f
}

// checkTarget refuses call_function targets that no registry knows.
func checkTarget(n *node.Node) error {
	if n.Op() != node.CallFunction {
		return nil
	}
	f := n.Function()
	if _, ok := f.(*ops.Operator); ok {
		return nil
	}
	if g, ok := node.LookupFunction(f.String()); ok && g == f {
		return nil
	}
	if g, ok := node.LookupFunction(f.String()); ok && g.String() == f.String() {
		return nil
	}
	return fmt.Errorf("node %%%s calls %s, an unknown operator (neither an ops operator nor a registered node.Function)", n.Name(), f)
}

func keyOf(n *node.Node) key { return key{n.Op(), n.Target().String()} }

// normalize returns n's arguments in a canonical order with names: for an
// operator, one per schema argument with defaults filled in; otherwise the
// positional arguments ("0", "1", ...) then the keyword arguments by name.
func normalize(n *node.Node) ([]any, []string, error) {
	if op, ok := n.Target().(*ops.Operator); ok && n.Op() == node.CallFunction {
		return normalizeOp(op, n)
	}
	args := n.Args()
	kw := n.Kwargs()
	out := make([]any, 0, len(args)+len(kw))
	names := make([]string, 0, len(args)+len(kw))
	for i, a := range args {
		out = append(out, a)
		names = append(names, strconv.Itoa(i))
	}
	for _, f := range kw {
		out = append(out, f.Value)
		names = append(names, f.Name)
	}
	return out, names, nil
}

var opNameCache sync.Map // *ops.Operator -> []string

// opNames returns the schema argument names of op (shared; not to be
// modified).
func opNames(op *ops.Operator) []string {
	if v, ok := opNameCache.Load(op); ok {
		return v.([]string)
	}
	s := op.Schema()
	names := make([]string, len(s.Args))
	for i, a := range s.Args {
		names[i] = a.Name
	}
	opNameCache.Store(op, names)
	return names
}

func normalizeOp(op *ops.Operator, n *node.Node) ([]any, []string, error) {
	args := n.Args()
	in := make([]any, len(args))
	for i, a := range args {
		in[i] = a
	}
	var kw map[string]any
	if k := n.Kwargs(); len(k) > 0 {
		kw = make(map[string]any, len(k))
		for _, f := range k {
			kw[f.Name] = f.Value
		}
	}
	vals, err := op.Place(in, kw)
	if err != nil {
		return nil, nil, err
	}
	for i, v := range vals {
		vals[i] = toArg(v)
	}
	return vals, opNames(op), nil
}

// toArg converts a decoded schema default to its graph argument.
func toArg(v any) any {
	if a, ok := v.(node.Arg); ok {
		return a
	}
	if a, ok := node.ArgOf(v); ok {
		return a
	}
	return v
}

func hasNode(a any) bool {
	switch x := a.(type) {
	case *node.Node:
		return true
	case node.List:
		for _, e := range x {
			if hasNode(e) {
				return true
			}
		}
	case node.Tuple:
		for _, e := range x {
			if hasNode(e) {
				return true
			}
		}
	case node.Dict:
		for _, f := range x {
			if hasNode(f.Value) {
				return true
			}
		}
	}
	return false
}

// fmtArg writes an argument as the graph's printed forms do: nodes as
// %name, floats as Python writes them (1.0).
func fmtArg(a any) string {
	switch x := a.(type) {
	case *node.Node:
		return "%" + x.Name()
	case node.Float:
		s := strconv.FormatFloat(float64(x), 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	}
	return fmt.Sprint(a)
}
