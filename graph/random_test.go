package graph_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// TestRandomMutations applies long random sequences of graph mutations and,
// after every step, checks every invariant Lint checks plus use-def edges
// recomputed from scratch, the FindNodes index against a brute-force
// filter, and (every rmTextEvery steps) the Text/Parse round trip.
func TestRandomMutations(t *testing.T) {
	steps := 2000
	if testing.Short() {
		steps = 250
	}
	for _, seed := range []uint64{1, 2, 3, 0x5eed, 0xdeadbeef} {
		t.Run(fmt.Sprintf("seed=%#x", seed), func(t *testing.T) {
			s := newRMState(t, seed)
			s.check()
			s.textRoundTrip()
			for s.step = 1; s.step <= steps; s.step++ {
				op := s.pickOp()
				s.op = op.name
				s.hist = append(s.hist, op.name)
				if len(s.hist) > 12 {
					s.hist = s.hist[1:]
				}
				op.fn()
				s.check()
				if s.step%rmTextEvery == 0 {
					s.textRoundTrip()
				}
			}
			s.textRoundTrip()
		})
	}
}

const rmTextEvery = 100

// rmOpaque is a metadata value with no text form: Text leaves it out and
// Equal ignores it.
type rmOpaque struct{ X int }

type rmOp struct {
	name string
	w    int
	fn   func()
}

type rmPair struct {
	op     node.Opcode
	target node.Target
}

type rmEdge struct{ from, to *node.Node }

type rmState struct {
	t       *testing.T
	r       *rand.Rand
	seed    uint64
	step    int
	op      string
	hist    []string
	g       *graph.Graph
	other   *graph.Graph // another graph, whose nodes must be refused
	funcs   []*node.Func
	byName  map[string]*node.Func
	erased  []*node.Node
	pairs   []rmPair
	ops     []rmOp
	created int
}

func newRMState(t *testing.T, seed uint64) *rmState {
	s := &rmState{t: t, r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), seed: seed, byName: map[string]*node.Func{}}
	for _, name := range []string{"rnd.add", "rnd.mul", "rnd.relu", "rnd.cat", "quantized.rnd_q.default"} {
		f, err := node.NewFunc(name, false)
		require.NoError(t, err)
		s.funcs = append(s.funcs, f)
		s.byName[name] = f
	}
	side, err := node.NewFunc("rnd.side_effect", true)
	require.NoError(t, err)
	s.funcs = append(s.funcs, side)
	s.byName[side.String()] = side

	g := graph.New()
	must := func(n *node.Node, err error) *node.Node {
		t.Helper()
		require.NoError(t, err)
		return n
	}
	add, mul, relu, cat := s.funcs[0], s.funcs[1], s.funcs[2], s.funcs[3]
	x := must(g.Placeholder("x"))
	y := must(g.Placeholder("y"))
	z := must(g.PlaceholderWithDefault("z", node.Float(1.5)))
	w := must(g.GetAttr("p.weight"))
	a := must(g.CallFunction(add, []node.Arg{x, y}, nil))
	b := must(g.CallFunction(mul, []node.Arg{a, w}, node.Kwargs{{Name: "alpha", Value: node.Int(2)}}))
	c := must(g.CallMethod("relu", []node.Arg{b}, nil))
	d := must(g.CallFunction(cat, []node.Arg{node.List{a, b, c}}, node.Kwargs{{Name: "dim", Value: node.Int(1)}}))
	e := must(g.CallModule("sub.mod", []node.Arg{d, z}, nil))
	r := must(g.CallFunction(relu, []node.Arg{e}, nil))
	must(g.CallFunction(side, []node.Arg{r, node.Str("log")}, nil))
	must(g.Output(node.Tuple{r, c}))
	s.g = g
	oc, _, err := g.Clone()
	require.NoError(t, err)
	s.other = oc

	s.pairs = []rmPair{
		{node.CallFunction, add}, {node.CallFunction, mul}, {node.CallFunction, side},
		{node.CallFunction, nil}, {node.Placeholder, nil}, {node.Placeholder, node.Path("x")},
		{node.Output, nil}, {node.CallMethod, node.Path("relu")}, {node.GetAttr, nil},
		{node.CallModule, node.Path("sub.mod")}, {node.CallModule, nil},
	}
	s.ops = []rmOp{
		{"create", 20, s.opCreate},
		{"create-default", 4, s.opCreateDefault},
		{"create-burst", 1, s.opCreateBurst},
		{"erase", 10, s.opErase},
		{"erase-used", 3, s.opEraseUsed},
		{"rauw", 6, s.opRAUW},
		{"update-args", 12, s.opUpdateArgs},
		{"bad-args", 4, s.opBadArgs},
		{"replace-input", 5, s.opReplaceInput},
		{"move", 12, s.opMove},
		{"node-copy", 5, s.opNodeCopy},
		{"graph-copy", 1, s.opGraphCopy},
		{"clone", 1, s.opClone},
		{"dce", 1, s.opDCE},
		{"rename", 4, s.opRename},
		{"set-target", 2, s.opSetTarget},
		{"meta", 3, s.opMeta},
		{"output", 1, s.opOutput},
		{"placeholder", 1, s.opPlaceholder},
	}
	return s
}

func (s *rmState) where() string {
	return fmt.Sprintf("seed %#x, step %d, op %s (recent ops %v)", s.seed, s.step, s.op, s.hist)
}

func (s *rmState) failf(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("%s: %s\ngraph:\n%s", s.where(), fmt.Sprintf(format, args...), s.g.Text())
}

func (s *rmState) pickOp() rmOp {
	total := 0
	weight := func(o rmOp) int {
		n := s.g.Len()
		switch {
		case o.name == "erase" && n > 80:
			return o.w * 4
		case o.name == "dce" && n > 120:
			return o.w * 10
		case (o.name == "create" || o.name == "create-burst") && n > 150:
			return 0
		case o.name == "create" && n < 12:
			return o.w * 3
		}
		return o.w
	}
	for _, o := range s.ops {
		total += weight(o)
	}
	k := s.r.IntN(total)
	for _, o := range s.ops {
		if k < weight(o) {
			return o
		}
		k -= weight(o)
	}
	panic("unreachable")
}

// --- small helpers ---

func rmNames(ns []*node.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Name()
	}
	return out
}

func (s *rmState) sameNodes(want, got []*node.Node, what string) {
	s.t.Helper()
	if !slices.Equal(want, got) {
		s.failf("%s: want %v, got %v", what, rmNames(want), rmNames(got))
	}
}

func rmFilter(ns []*node.Node, keep func(*node.Node) bool) []*node.Node {
	var out []*node.Node
	for _, n := range ns {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

func rmNotOutput(n *node.Node) bool { return n.Op() != node.Output }

func (s *rmState) pick(ns []*node.Node) *node.Node { return ns[s.r.IntN(len(ns))] }

// rmWalk calls fn for every node reference in a, independently of the
// library's own walker.
func rmWalk(a node.Arg, fn func(*node.Node)) {
	switch v := a.(type) {
	case *node.Node:
		fn(v)
	case node.List:
		for _, x := range v {
			rmWalk(x, fn)
		}
	case node.Tuple:
		for _, x := range v {
			rmWalk(x, fn)
		}
	case node.Dict:
		for _, f := range v {
			rmWalk(f.Value, fn)
		}
	case node.Slice:
		rmWalk(v.Start, fn)
		rmWalk(v.Stop, fn)
		rmWalk(v.Step, fn)
	}
}

// rmInputs recomputes the distinct inputs of n from its arguments, in order
// of first appearance.
func rmInputs(n *node.Node) []*node.Node {
	var out []*node.Node
	add := func(x *node.Node) {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	for _, a := range n.Args() {
		rmWalk(a, add)
	}
	for _, f := range n.Kwargs() {
		rmWalk(f.Value, add)
	}
	return out
}

// strictlyBefore returns the non-output nodes that come before m.
func (s *rmState) strictlyBefore(m *node.Node) []*node.Node {
	return rmFilter(s.g.NodeList(), func(n *node.Node) bool { return rmNotOutput(n) && s.g.Before(n, m) })
}

// upTo returns the non-output nodes up to and including m.
func (s *rmState) upTo(m *node.Node) []*node.Node {
	return rmFilter(s.g.NodeList(), func(n *node.Node) bool { return rmNotOutput(n) && (n == m || s.g.Before(n, m)) })
}

// --- random values ---

var (
	rmInts   = []int64{0, 1, -1, 2, 7, 42, -3, math.MaxInt64, math.MinInt64, 1 << 40}
	rmFloats = []float64{0, math.Copysign(0, -1), 1, 1.5, -2.25, 1e-05, 0.0001, 1e16, 1e300, 5e-324,
		math.Inf(1), math.Inf(-1), math.NaN(), 0.1, 123456789.125}
	rmStrs = []string{"", "a", "log", `quote " and \ backslash`, "tab\tnewline\n", "héllo, 世界 🚀",
		"\x00nul", "\xff\xfe invalid utf8", "# not a comment", "%x", "{val: f32[2]}"}
	rmDTypes  = []node.DType{node.Float32, node.Float64, node.BFloat16, node.Int64, node.BoolDType, node.Complex64}
	rmDevices = []node.Device{"cpu", "cuda", "cuda:0", "cuda:12", "meta"}
	rmLayouts = []node.Layout{"strided", "sparse_coo", "_mkldnn"}
	rmMemFmts = []node.MemoryFormat{"contiguous_format", "channels_last", "preserve_format"}
	rmKwNames = []string{"alpha", "dim", "keepdim", "out_dtype", "device", "in", "True"}
	rmKeys    = []string{"a", "b", "key with space", "ключ", `"q"`, ""}
)

func (s *rmState) genArg(cands []*node.Node, depth int) node.Arg {
	r := s.r
	if len(cands) > 0 && r.IntN(10) < 4 {
		return s.pick(cands)
	}
	k := r.IntN(16)
	if depth >= 3 && k >= 12 {
		k = r.IntN(12)
	}
	switch k {
	case 0, 1:
		return node.Int(rmInts[r.IntN(len(rmInts))])
	case 2, 3:
		return node.Float(rmFloats[r.IntN(len(rmFloats))])
	case 4:
		return node.Str(rmStrs[r.IntN(len(rmStrs))])
	case 5:
		return node.Bool(r.IntN(2) == 0)
	case 6:
		return node.None
	case 7:
		return rmDTypes[r.IntN(len(rmDTypes))]
	case 8:
		return rmDevices[r.IntN(len(rmDevices))]
	case 9:
		return rmLayouts[r.IntN(len(rmLayouts))]
	case 10:
		switch r.IntN(3) {
		case 0:
			return node.Ellipsis
		case 1:
			var parts [3]node.Arg
			for i := range parts {
				switch j := r.IntN(3); {
				case j == 0 && len(cands) > 0:
					parts[i] = s.pick(cands)
				case j == 1:
					parts[i] = node.Int(rmInts[r.IntN(len(rmInts))])
				default:
					parts[i] = node.None
				}
			}
			return node.Slice{Start: parts[0], Stop: parts[1], Step: parts[2]}
		}
		return rmMemFmts[r.IntN(len(rmMemFmts))]
	case 11:
		if len(cands) > 0 {
			return s.pick(cands)
		}
		return node.Int(r.Int64())
	case 12, 13:
		l := node.List{}
		for range r.IntN(4) {
			l = append(l, s.genArg(cands, depth+1))
		}
		return l
	case 14:
		tp := node.Tuple{}
		for range r.IntN(4) {
			tp = append(tp, s.genArg(cands, depth+1))
		}
		return tp
	default:
		d := node.Dict{}
		for _, i := range r.Perm(len(rmKeys))[:r.IntN(3)] {
			d = append(d, node.Field{Name: rmKeys[i], Value: s.genArg(cands, depth+1)})
		}
		return d
	}
}

func (s *rmState) genArgs(cands []*node.Node, min int) []node.Arg {
	n := min + s.r.IntN(4-min)
	args := make([]node.Arg, n)
	for i := range args {
		args[i] = s.genArg(cands, 0)
	}
	return args
}

func (s *rmState) genKwargs(cands []*node.Node) node.Kwargs {
	var kw node.Kwargs
	for _, i := range s.r.Perm(len(rmKwNames))[:s.r.IntN(3)] {
		kw = append(kw, node.Field{Name: rmKwNames[i], Value: s.genArg(cands, 0)})
	}
	return kw
}

func (s *rmState) setRandomMeta(n *node.Node) {
	r := s.r
	switch r.IntN(8) {
	case 0:
		shape := []node.Dim{{Size: 2}, {Sym: "s0"}}
		if r.IntN(2) == 0 {
			shape = append(shape, node.Dim{Sym: "2*s0"}, node.Dim{Size: -1})
		}
		node.Val.Set(&n.Meta, node.TensorMeta{DType: rmDTypes[r.IntN(len(rmDTypes))], Shape: shape})
	case 1:
		node.Val.Set(&n.Meta, node.ValueTuple{
			node.TensorMeta{DType: node.Float32, Shape: node.Dims(2, 3)},
			node.ValueTuple{node.TensorMeta{DType: node.Int64, Shape: []node.Dim{}}},
		})
	case 2:
		node.StackTrace.Set(&n.Meta, "model.go:12\n\t\"quoted\" ünï "+fmt.Sprint(r.IntN(100)))
	case 3:
		node.ModuleStack.Set(&n.Meta, []node.ModuleFrame{{Path: "layer1", Type: "torch.nn.Sequential"}, {Path: "layer1.0", Type: "Block"}})
	case 4:
		n.Meta.Set("custom", int64(r.IntN(10)))
	case 5:
		n.Meta.Set("ratio", rmFloats[r.IntN(len(rmFloats))])
	case 6:
		n.Meta.Set("flag", r.IntN(2) == 0)
		n.Meta.Set("odd key", "v")
	default:
		n.Meta.Set("opaque", rmOpaque{r.IntN(5)})
	}
}

// --- invariants ---

func (s *rmState) check() {
	t, g := s.t, s.g
	t.Helper()
	if err := lintBody(g); err != nil {
		s.failf("Lint: %v", err)
	}
	list := g.NodeList()
	if len(list) != g.Len() {
		s.failf("NodeList has %d nodes, Len says %d", len(list), g.Len())
	}
	pos := make(map[*node.Node]int, len(list))
	for i, n := range list {
		pos[n] = i
	}
	i := len(list)
	for n := range g.Backward() {
		i--
		if i < 0 || list[i] != n {
			s.failf("Backward disagrees with Nodes at %d", i)
		}
	}
	if i != 0 {
		s.failf("Backward visited %d nodes, Nodes %d", len(list)-i, len(list))
	}
	if len(list) == 0 {
		if g.First() != nil || g.Last() != nil {
			s.failf("empty graph with First/Last set")
		}
	} else if g.First() != list[0] || g.Last() != list[len(list)-1] {
		s.failf("First/Last are %v/%v", g.First(), g.Last())
	}

	// Use-def recomputed from the arguments.
	edges := map[rmEdge]bool{}
	numUsers := map[*node.Node]int{}
	for i, n := range list {
		if graph.Of(n) != g || n.Erased() || !g.Contains(n) {
			s.failf("%%%s: live node not owned by the graph", n.Name())
		}
		if m, ok := g.Node(n.Name()); !ok || m != n {
			s.failf("%%%s: Node(name) does not find it", n.Name())
		}
		if i > 0 {
			if n.Prev() != list[i-1] || !g.Before(list[i-1], n) || g.Before(n, list[i-1]) {
				s.failf("%%%s: Prev/Before disagree with the order", n.Name())
			}
		} else if n.Prev() != nil {
			s.failf("%%%s: first node has a Prev", n.Name())
		}
		if i+1 < len(list) {
			if n.Next() != list[i+1] {
				s.failf("%%%s: Next disagrees with the order", n.Name())
			}
		} else if n.Next() != nil {
			s.failf("%%%s: last node has a Next", n.Name())
		}
		ins := rmInputs(n)
		s.sameNodes(ins, n.AllInputNodes(), "AllInputNodes of %"+n.Name())
		for _, in := range ins {
			p, live := pos[in]
			switch {
			case !live:
				s.failf("%%%s uses %%%s, which is not a live node of the graph (erased=%v)", n.Name(), in.Name(), in.Erased())
			case p >= i:
				s.failf("%%%s uses %%%s, which comes after it", n.Name(), in.Name())
			case !in.HasUser(n):
				s.failf("%%%s uses %%%s but is not among its users", n.Name(), in.Name())
			}
			edges[rmEdge{in, n}] = true
			numUsers[in]++
		}
	}
	for _, n := range list {
		users := n.Users()
		if len(users) != n.NumUsers() || len(users) != numUsers[n] {
			s.failf("%%%s: %d users listed, NumUsers %d, %d recomputed", n.Name(), len(users), n.NumUsers(), numUsers[n])
		}
		for _, u := range users {
			if !edges[rmEdge{n, u}] {
				s.failf("%%%s lists %%%s as a user, but it does not use it", n.Name(), u.Name())
			}
			if _, live := pos[u]; !live || !slices.Contains(u.AllInputNodes(), n) {
				s.failf("%%%s: user %%%s is dead or does not list it as input", n.Name(), u.Name())
			}
		}
	}

	// Erased nodes stay unreachable.
	for _, e := range s.erased {
		if !e.Erased() || g.Contains(e) || graph.Of(e) != nil || e.NumUsers() != 0 || len(rmInputs(e)) != 0 || len(e.AllInputNodes()) != 0 {
			s.failf("erased node %%%s is still reachable or keeps edges", e.Name())
		}
		if m, ok := g.Node(e.Name()); ok && m == e {
			s.failf("erased node %%%s is still in the name table", e.Name())
		}
	}

	// FindNodes against a brute-force filter.
	pairs := s.pairs
	if len(list) > 0 {
		n := s.pick(list)
		pairs = append(pairs[:len(pairs):len(pairs)], rmPair{n.Op(), n.Target()})
	}
	for _, p := range pairs {
		want := rmFilter(list, func(n *node.Node) bool {
			return n.Op() == p.op && (p.target == nil || n.Target().String() == p.target.String())
		})
		s.sameNodes(want, g.FindNodes(p.op, p.target), fmt.Sprintf("FindNodes(%s, %v)", p.op, p.target))
	}
	if out := g.OutputNode(); len(list) > 0 && list[len(list)-1].Op() == node.Output {
		if out != list[len(list)-1] {
			s.failf("OutputNode is not the last node")
		}
	} else if out != nil {
		s.failf("OutputNode %%%s, but the last node is not an output", out.Name())
	}
	s.sameNodes(rmFilter(list, func(n *node.Node) bool { return n.Op() == node.Placeholder }), g.Placeholders(), "Placeholders")
}

func (s *rmState) resolve(name string) (node.Function, error) {
	if f, ok := s.byName[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("rnd resolver: unknown function %q", name)
}

func (s *rmState) textRoundTrip() {
	t := s.t
	t.Helper()
	txt := s.g.Text()
	p, err := graph.Parse(txt, graph.WithResolver(s.resolve))
	require.NoError(t, err, "%s\ntext:\n%s", s.where(), txt)
	require.NoError(t, lintBody(p), s.where())
	require.NoError(t, graph.Equal(s.g, p), "%s\ntext:\n%s", s.where(), txt)
	require.Equal(t, txt, p.Text(), s.where())
}

// --- operations ---

// insertionPoint sets a random insertion point and returns the restore
// function, the nodes that come before it (candidate inputs) and a check
// of where the created nodes went.
func (s *rmState) insertionPoint() (restore func(), cands []*node.Node, verify func([]*node.Node)) {
	g := s.g
	list := g.NodeList()
	nonOut := rmFilter(list, rmNotOutput)
	out := g.OutputNode()
	k := s.r.IntN(5)
	switch {
	case k == 0 && len(list) > 0:
		m := s.pick(list)
		return g.InsertingBefore(m), s.strictlyBefore(m), func(c []*node.Node) {
			if c[len(c)-1].Next() != m {
				s.failf("InsertingBefore(%%%s): created nodes are not just before it", m.Name())
			}
		}
	case k <= 2 && len(nonOut) > 0:
		m := s.pick(nonOut)
		return g.InsertingAfter(m), s.upTo(m), func(c []*node.Node) {
			if c[0].Prev() != m {
				s.failf("InsertingAfter(%%%s): created nodes are not just after it", m.Name())
			}
		}
	case k == 3:
		return g.InsertingBefore(nil), nil, func(c []*node.Node) {
			if c[0] != g.First() {
				s.failf("InsertingBefore(nil): created nodes are not at the start")
			}
		}
	case out != nil:
		return g.InsertingBefore(out), nonOut, func(c []*node.Node) {
			if c[len(c)-1].Next() != out {
				s.failf("InsertingBefore(output): created nodes are not just before the output")
			}
		}
	default:
		return g.InsertingAfter(nil), nonOut, func(c []*node.Node) {
			if c[len(c)-1] != g.Last() {
				s.failf("InsertingAfter(nil): created nodes are not at the end")
			}
		}
	}
}

var rmNameCands = []string{"", "foo", "add", "x", "len", "inf", "3d", "a-b c", "add_7", "add_007", "output", "ünï", "_", "self"}

// createRandom creates a random node whose inputs are taken from cands.
func (s *rmState) createRandom(cands []*node.Node) *node.Node {
	g, r := s.g, s.r
	var (
		op     node.Opcode
		target node.Target
		args   []node.Arg
		kwargs node.Kwargs
	)
	switch k := r.IntN(20); {
	case k < 14:
		op, target = node.CallFunction, s.funcs[r.IntN(len(s.funcs))]
		args, kwargs = s.genArgs(cands, 0), s.genKwargs(cands)
	case k < 16:
		op, target = node.CallMethod, node.Path([]string{"relu", "view", "add_"}[r.IntN(3)])
		args, kwargs = s.genArgs(cands, 1), s.genKwargs(cands)
	case k < 18:
		op, target = node.CallModule, node.Path([]string{"sub.mod", "layer1.0.conv"}[r.IntN(2)])
		args, kwargs = s.genArgs(cands, 0), s.genKwargs(cands)
	case k < 19:
		op, target = node.GetAttr, node.Path([]string{"p.weight", "p.bias", "layer1.0.w"}[r.IntN(3)])
	default:
		op, target = node.Placeholder, node.Path([]string{"x", "inp", "*args", "**kwargs"}[r.IntN(4)])
		if r.IntN(2) == 0 {
			args = []node.Arg{s.genArg(nil, 0)}
		}
	}
	name := ""
	if r.IntN(4) == 0 {
		name = rmNameCands[r.IntN(len(rmNameCands))]
	}
	n, err := g.CreateNode(op, target, args, kwargs, name)
	if err != nil {
		s.failf("CreateNode(%s, %s): %v", op, target, err)
	}
	if n.Op() != op || n.Target() != target || !node.IsIdentifier(n.Name()) {
		s.failf("created node %%%s has op %s target %v", n.Name(), n.Op(), n.Target())
	}
	if !node.EqualArgs(node.Tuple(args), node.Tuple(n.Args())) || !node.EqualKwargs(kwargs, n.Kwargs()) {
		s.failf("created node %%%s does not hold the given arguments", n.Name())
	}
	if r.IntN(3) == 0 {
		s.setRandomMeta(n)
	}
	s.created++
	return n
}

func (s *rmState) opCreate() {
	restore, cands, verify := s.insertionPoint()
	var created []*node.Node
	for range 1 + s.r.IntN(3) {
		n := s.createRandom(cands)
		created = append(created, n)
		cands = append(cands, n)
	}
	restore()
	for i := 1; i < len(created); i++ {
		if created[i].Prev() != created[i-1] {
			s.failf("nodes created at one insertion point are not consecutive: %v", rmNames(created))
		}
	}
	verify(created)
}

// opCreateBurst inserts many nodes at one point so that order labels run
// out and get respread.
func (s *rmState) opCreateBurst() {
	g := s.g
	nonOut := rmFilter(g.NodeList(), rmNotOutput)
	if len(nonOut) == 0 {
		return
	}
	m := s.pick(nonOut)
	cands := s.strictlyBefore(m)
	before := s.r.IntN(2) == 0
	var restore func()
	if before {
		restore = g.InsertingBefore(m)
	} else {
		restore = g.InsertingAfter(m)
		cands = append(cands, m)
	}
	for range 40 {
		n, err := g.CallFunction(s.funcs[s.r.IntN(4)], s.genArgs(cands, 0), nil)
		if err != nil {
			s.failf("burst: %v", err)
		}
		cands = append(cands, n)
	}
	restore()
}

func (s *rmState) opCreateDefault() {
	g := s.g
	out := g.OutputNode()
	cands := rmFilter(g.NodeList(), rmNotOutput)
	n, err := g.CallFunction(s.funcs[s.r.IntN(len(s.funcs))], s.genArgs(cands, 0), s.genKwargs(cands))
	require.NoError(s.t, err, s.where())
	if out != nil && n.Next() != out {
		s.failf("default insertion point: %%%s is not just before the output", n.Name())
	}
	if out == nil && n != g.Last() {
		s.failf("default insertion point: %%%s is not last in a graph without output", n.Name())
	}
}

func (s *rmState) opErase() {
	g := s.g
	unused := rmFilter(g.NodeList(), func(n *node.Node) bool { return n.NumUsers() == 0 && rmNotOutput(n) })
	if len(unused) == 0 {
		return
	}
	n := s.pick(unused)
	ins := n.AllInputNodes()
	name, l := n.Name(), g.Len()
	require.NoError(s.t, g.EraseNode(n), s.where())
	if !n.Erased() || g.Contains(n) || g.Len() != l-1 {
		s.failf("%%%s: not erased", name)
	}
	if _, ok := g.Node(name); ok {
		s.failf("erased name %s still resolves", name)
	}
	for _, in := range ins {
		if in.HasUser(n) {
			s.failf("%%%s still lists erased %%%s as a user", in.Name(), name)
		}
	}
	s.erased = append(s.erased, n)
	require.Error(s.t, g.EraseNode(n), "erasing twice: %s", s.where())
	require.Error(s.t, g.EraseNode(nil), s.where())
}

func (s *rmState) opEraseUsed() {
	g := s.g
	used := rmFilter(g.NodeList(), func(n *node.Node) bool { return n.NumUsers() > 0 })
	if len(used) == 0 {
		return
	}
	n := s.pick(used)
	users, txt := n.Users(), g.Text()
	require.Error(s.t, g.EraseNode(n), s.where())
	if n.Erased() || !g.Contains(n) || g.Text() != txt {
		s.failf("failed EraseNode(%%%s) changed the graph", n.Name())
	}
	s.sameNodes(users, n.Users(), "users after a failed erase")
	// Nodes of another graph are refused too.
	if on := s.other.Last(); on != nil {
		require.Error(s.t, g.EraseNode(on), s.where())
		require.False(s.t, on.Erased(), s.where())
	}
}

func (s *rmState) opRAUW() {
	g, t := s.g, s.t
	list := g.NodeList()
	used := rmFilter(list, func(n *node.Node) bool { return n.NumUsers() > 0 })
	if len(used) == 0 {
		return
	}
	n := s.pick(used)
	cands := rmFilter(list, func(x *node.Node) bool { return x != n && rmNotOutput(x) })
	if earlier := s.strictlyBefore(n); len(earlier) > 0 && s.r.IntN(4) != 0 {
		cands = earlier
	}
	if len(cands) == 0 {
		return
	}
	repl := s.pick(cands)

	// Refusals change nothing.
	txt := g.Text()
	_, err := n.ReplaceAllUsesWith(n, nil, false)
	require.Error(t, err, s.where())
	_, err = n.ReplaceAllUsesWith(nil, nil, false)
	require.Error(t, err, s.where())
	if on := s.other.First(); on != nil {
		_, err = n.ReplaceAllUsesWith(on, nil, false)
		require.Error(t, err, s.where())
	}
	if len(s.erased) > 0 {
		e := s.erased[s.r.IntN(len(s.erased))]
		_, err = n.ReplaceAllUsesWith(e, nil, false)
		require.Error(t, err, s.where())
		_, err = e.ReplaceAllUsesWith(n, nil, false)
		require.Error(t, err, s.where())
	}
	require.Equal(t, txt, g.Text(), s.where())

	oldUsers := n.Users()
	var want []*node.Node
	allAfter := true
	for _, u := range oldUsers {
		if u != repl && g.Before(repl, u) {
			want = append(want, u)
		} else if u != repl {
			allAfter = false
		}
	}
	propagate := s.r.IntN(3) == 0
	var filter func(*node.Node) bool
	if !allAfter || s.r.IntN(2) == 0 {
		filter = func(u *node.Node) bool {
			if u == repl {
				s.failf("RAUW called the filter on the replacement %%%s", u.Name())
			}
			return g.Before(repl, u)
		}
	}
	got, err := n.ReplaceAllUsesWith(repl, filter, propagate)
	require.NoError(t, err, s.where())
	s.sameNodes(want, got, fmt.Sprintf("RAUW(%%%s -> %%%s) rewired users", n.Name(), repl.Name()))
	for _, u := range got {
		ins := u.AllInputNodes()
		if slices.Contains(ins, n) || !slices.Contains(ins, repl) || n.HasUser(u) || !repl.HasUser(u) {
			s.failf("RAUW: %%%s still uses %%%s or does not use %%%s", u.Name(), n.Name(), repl.Name())
		}
	}
	for _, u := range oldUsers {
		if !slices.Contains(got, u) && !n.HasUser(u) {
			s.failf("RAUW: %%%s was not rewired but no longer uses %%%s", u.Name(), n.Name())
		}
	}
	if propagate {
		for _, k := range n.Meta.Keys() {
			if _, ok := repl.Meta.Get(k); !ok {
				s.failf("RAUW with propagateMeta: %%%s lacks meta %q", repl.Name(), k)
			}
		}
	}
}

// opUpdateArgs changes the arguments of a node to values that come before
// it, through the various setters.
func (s *rmState) opUpdateArgs() {
	g, t, r := s.g, s.t, s.r
	list := g.NodeList()
	if len(list) == 0 {
		return
	}
	n := s.pick(list)
	cands := s.strictlyBefore(n)
	switch n.Op() {
	case node.Placeholder:
		var args []node.Arg
		if r.IntN(2) == 0 {
			args = []node.Arg{s.genArg(nil, 0)}
		}
		require.NoError(t, n.SetArgs(args), s.where())
		require.True(t, node.EqualArgs(node.Tuple(args), node.Tuple(n.Args())), s.where())
		if len(cands) > 0 {
			txt := g.Text()
			require.Error(t, n.SetArgs([]node.Arg{node.List{s.pick(cands)}}), "placeholder default refers to a node: %s", s.where())
			require.Equal(t, txt, g.Text(), s.where())
		}
		return
	case node.GetAttr:
		return
	case node.Output:
		a := s.genArg(cands, 0)
		require.NoError(t, n.UpdateArg(0, a), s.where())
		require.True(t, node.EqualArgs(a, n.Arg(0)), s.where())
		return
	}
	min := 0
	if n.Op() == node.CallMethod {
		min = 1
	}
	switch k := r.IntN(6); {
	case k == 0 && n.NumArgs() > 0:
		i, a := r.IntN(n.NumArgs()), s.genArg(cands, 0)
		require.NoError(t, n.UpdateArg(i, a), s.where())
		require.True(t, node.EqualArgs(a, n.Arg(i)), s.where())
	case k <= 1:
		i, a := r.IntN(n.NumArgs()+1), s.genArg(cands, 0)
		before := n.Args()
		require.NoError(t, n.InsertArg(i, a), s.where())
		want := slices.Insert(before, i, a)
		require.True(t, node.EqualArgs(node.Tuple(want), node.Tuple(n.Args())), s.where())
	case k == 2:
		name, a := rmKwNames[r.IntN(len(rmKwNames))], s.genArg(cands, 0)
		_, had := n.Kwarg(name)
		nk := len(n.Kwargs())
		require.NoError(t, n.UpdateKwarg(name, a), s.where())
		v, ok := n.Kwarg(name)
		require.True(t, ok && node.EqualArgs(a, v), s.where())
		if had {
			require.Len(t, n.Kwargs(), nk, s.where())
		} else {
			require.Len(t, n.Kwargs(), nk+1, s.where())
			require.Equal(t, name, n.Kwargs()[nk].Name, s.where())
		}
	case k == 3:
		name := rmKwNames[r.IntN(len(rmKwNames))]
		_, had := n.Kwarg(name)
		ok, err := n.DeleteKwarg(name)
		require.NoError(t, err, s.where())
		require.Equal(t, had, ok, s.where())
		_, still := n.Kwarg(name)
		require.False(t, still, s.where())
	case k == 4:
		args := s.genArgs(cands, min)
		require.NoError(t, n.SetArgs(args), s.where())
		require.True(t, node.EqualArgs(node.Tuple(args), node.Tuple(n.Args())), s.where())
	default:
		args, kw := s.genArgs(cands, min), s.genKwargs(cands)
		if r.IntN(2) == 0 {
			require.NoError(t, n.SetKwargs(kw), s.where())
		} else {
			require.NoError(t, n.SetArgsKwargs(args, kw), s.where())
			require.True(t, node.EqualArgs(node.Tuple(args), node.Tuple(n.Args())), s.where())
		}
		require.True(t, node.EqualKwargs(kw, n.Kwargs()), s.where())
	}
}

// opBadArgs tries invalid argument updates: each must fail and change
// nothing.
func (s *rmState) opBadArgs() {
	g, t, r := s.g, s.t, s.r
	calls := rmFilter(g.NodeList(), func(n *node.Node) bool {
		return n.Op() == node.CallFunction || n.Op() == node.CallMethod || n.Op() == node.CallModule
	})
	if len(calls) == 0 {
		return
	}
	n := s.pick(calls)
	txt := g.Text()
	ins := n.AllInputNodes()
	var bad []node.Arg
	bad = append(bad, n, node.List{node.Int(1), node.Tuple{n}}, node.Dict{{Name: "k", Value: n}},
		node.DType("float33"), node.Device("cuda:x"), node.Device(""), node.Layout("jagged"),
		node.MemoryFormat("channels_first"), node.Dict{{Name: "a", Value: node.Int(1)}, {Name: "a", Value: node.Int(2)}},
		node.List{nil})
	if len(s.erased) > 0 {
		bad = append(bad, s.erased[r.IntN(len(s.erased))])
	}
	if on := s.other.First(); on != nil {
		bad = append(bad, node.Tuple{on})
	}
	a := bad[r.IntN(len(bad))]
	var err error
	switch k := r.IntN(7); {
	case k == 0 && n.NumArgs() > 0:
		err = n.UpdateArg(r.IntN(n.NumArgs()), a)
	case k <= 1:
		err = n.InsertArg(r.IntN(n.NumArgs()+1), a)
	case k == 2:
		err = n.UpdateKwarg("alpha", a)
	case k == 3:
		err = n.SetArgs([]node.Arg{node.Int(0), a})
	case k == 4:
		switch r.IntN(4) {
		case 0:
			err = n.UpdateArg(n.NumArgs(), node.Int(0))
		case 1:
			err = n.UpdateArg(-1, node.Int(0))
		case 2:
			err = n.InsertArg(n.NumArgs()+1, node.Int(0))
		default:
			err = n.InsertArg(-1, node.Int(0))
		}
	case k == 5:
		kw := node.Kwargs{{Name: "a", Value: node.Int(1)}, {Name: "a", Value: node.Int(2)}}
		if r.IntN(2) == 0 {
			kw = node.Kwargs{{Name: "not-ident", Value: node.Int(1)}}
		}
		err = n.SetKwargs(kw)
	default:
		err = n.UpdateArg(0, nil)
		if n.Op() == node.CallMethod && r.IntN(2) == 0 {
			err = n.SetArgs(nil) // call_method needs its object
		}
	}
	require.Error(t, err, "%s: bad update of %%%s succeeded", s.where(), n.Name())
	require.Equal(t, txt, g.Text(), s.where())
	s.sameNodes(ins, n.AllInputNodes(), "inputs after a refused update")
	require.Error(t, n.ReplaceInputWith(nil, n), s.where())

	// get_attr takes no arguments; output exactly one.
	if ga := g.FindNodes(node.GetAttr, nil); len(ga) > 0 {
		require.Error(t, ga[0].SetArgs([]node.Arg{node.Int(1)}), s.where())
	}
	if out := g.OutputNode(); out != nil {
		require.Error(t, out.SetArgs([]node.Arg{node.Int(1), node.Int(2)}), s.where())
		require.Error(t, out.SetKwargs(node.Kwargs{{Name: "a", Value: node.Int(1)}}), s.where())
	}
	require.Equal(t, txt, g.Text(), s.where())
}

func (s *rmState) opReplaceInput() {
	g, t := s.g, s.t
	withIns := rmFilter(g.NodeList(), func(n *node.Node) bool { return len(n.AllInputNodes()) > 0 })
	if len(withIns) == 0 {
		return
	}
	n := s.pick(withIns)
	old := s.pick(n.AllInputNodes())
	repl := s.pick(s.strictlyBefore(n)) // old itself is a candidate
	require.NoError(t, n.ReplaceInputWith(old, repl), s.where())
	ins := n.AllInputNodes()
	if !slices.Contains(ins, repl) || !repl.HasUser(n) {
		s.failf("ReplaceInputWith: %%%s does not use %%%s", n.Name(), repl.Name())
	}
	if old != repl && (slices.Contains(ins, old) || old.HasUser(n)) {
		s.failf("ReplaceInputWith: %%%s still uses %%%s", n.Name(), old.Name())
	}
}

// moveLegal reports whether moving n next to mark keeps the graph
// topologically ordered with the output last.
func (s *rmState) moveLegal(n, mark *node.Node, before bool) bool {
	g := s.g
	if n == mark || n.Op() == node.Output || (!before && mark.Op() == node.Output) {
		return false
	}
	for _, in := range n.AllInputNodes() {
		if before && !g.Before(in, mark) || !before && in != mark && !g.Before(in, mark) {
			return false
		}
	}
	for _, u := range n.Users() {
		if before && u != mark && !g.Before(mark, u) || !before && !g.Before(mark, u) {
			return false
		}
	}
	return true
}

func (s *rmState) opMove() {
	g := s.g
	list := g.NodeList()
	if len(list) < 2 {
		return
	}
	n, mark := s.pick(list), s.pick(list)
	if s.r.IntN(3) == 0 {
		// Favour short moves, which hit the no-op and adjacency cases.
		if x := mark.Next(); x != nil && s.r.IntN(2) == 0 {
			n = x
		} else if x := mark.Prev(); x != nil {
			n = x
		}
	}
	before := s.r.IntN(2) == 0
	legal := s.moveLegal(n, mark, before)
	names := rmNames(list)
	var err error
	if before {
		err = g.MoveBefore(n, mark)
	} else {
		err = g.MoveAfter(n, mark)
	}
	if err != nil {
		if got := rmNames(g.NodeList()); !slices.Equal(names, got) {
			s.failf("failed move (%v) changed the order:\nbefore %v\nafter  %v", err, names, got)
		}
		if legal {
			s.failf("move of %%%s (before=%v) %%%s is legal but failed: %v", n.Name(), before, mark.Name(), err)
		}
		return
	}
	if !legal {
		s.failf("move of %%%s (before=%v) %%%s breaks the order but succeeded", n.Name(), before, mark.Name())
	}
	if err := lintBody(g); err != nil {
		s.failf("Lint after a successful move: %v", err)
	}
	if before && n.Next() != mark || !before && n.Prev() != mark {
		s.failf("moved %%%s is not next to %%%s", n.Name(), mark.Name())
	}
	without := func(ns []string) []string {
		return slices.DeleteFunc(slices.Clone(ns), func(x string) bool { return x == n.Name() })
	}
	if !slices.Equal(without(names), without(rmNames(g.NodeList()))) {
		s.failf("move of %%%s changed the order of other nodes", n.Name())
	}
}

func (s *rmState) opNodeCopy() {
	g, t, r := s.g, s.t, s.r
	list := g.NodeList()
	srcs := rmFilter(list, func(n *node.Node) bool { return n.Op() != node.Output && n.Op() != node.Placeholder })
	if len(srcs) == 0 {
		return
	}
	n := s.pick(srcs)
	ins := n.AllInputNodes()
	identity := func(x *node.Node) node.Arg { return x }

	// Refusals: nil remap, a remap returning nil, identity into another graph.
	l, txt := g.Len(), g.Text()
	_, err := g.NodeCopy(n, nil)
	require.Error(t, err, s.where())
	if len(ins) > 0 {
		_, err = g.NodeCopy(n, func(*node.Node) node.Arg { return nil })
		require.Error(t, err, s.where())
		ol := s.other.Len()
		_, err = s.other.NodeCopy(n, identity)
		require.Error(t, err, s.where())
		require.Equal(t, ol, s.other.Len(), s.where())
	}
	require.Equal(t, l, g.Len(), s.where())
	require.Equal(t, txt, g.Text(), s.where())

	constants := r.IntN(4) == 0
	remap := identity
	if constants {
		remap = func(*node.Node) node.Arg { return node.Int(0) }
	}
	var points []*node.Node
	for _, m := range list {
		if !rmNotOutput(m) {
			continue
		}
		ok := true
		for _, in := range ins {
			if !constants && in != m && !g.Before(in, m) {
				ok = false
				break
			}
		}
		if ok {
			points = append(points, m)
		}
	}
	restore := func() {}
	if len(points) > 0 && r.IntN(4) != 0 {
		m := s.pick(points)
		restore = g.InsertingAfter(m)
	}
	c, err := g.NodeCopy(n, remap)
	restore()
	require.NoError(t, err, s.where())
	if c == n || c.Op() != n.Op() || c.Target() != n.Target() || c.Name() == n.Name() {
		s.failf("NodeCopy of %%%s gave %%%s (%s %v)", n.Name(), c.Name(), c.Op(), c.Target())
	}
	wantArgs, wantKw := node.Arg(node.Tuple(n.Args())), node.Arg(node.Dict(n.Kwargs()))
	if constants {
		wantArgs, wantKw = node.MapArg(wantArgs, remap), node.MapArg(wantKw, remap)
	}
	if !node.EqualArgs(wantArgs, node.Tuple(c.Args())) || !node.EqualArgs(wantKw, node.Dict(c.Kwargs())) {
		s.failf("NodeCopy of %%%s: arguments differ", n.Name())
	}
	require.Equal(t, n.Meta.Keys(), c.Meta.Keys(), s.where())
	for _, k := range n.Meta.Keys() {
		v1, _ := n.Meta.Get(k)
		v2, _ := c.Meta.Get(k)
		if f, ok := v1.(float64); ok && math.IsNaN(f) {
			continue
		}
		require.Equal(t, v1, v2, s.where())
	}
	if !constants {
		for _, in := range ins {
			if !in.HasUser(c) {
				s.failf("NodeCopy: %%%s does not list the copy %%%s as a user", in.Name(), c.Name())
			}
		}
	}
}

func (s *rmState) opGraphCopy() {
	g, t := s.g, s.t
	list := g.NodeList()
	out := g.OutputNode()

	_, err := g.GraphCopy(g, map[*node.Node]node.Arg{})
	require.Error(t, err, s.where())
	_, err = graph.New().GraphCopy(nil, map[*node.Node]node.Arg{})
	require.Error(t, err, s.where())
	_, err = graph.New().GraphCopy(g, nil)
	require.Error(t, err, s.where())

	g2 := graph.New()
	vm := map[*node.Node]node.Arg{}
	// Optionally bind the placeholders to placeholders made beforehand.
	phs := g.Placeholders()
	bind := s.r.IntN(2) == 0
	prefix := true
	for i, p := range phs {
		prefix = prefix && list[i] == p
	}
	if bind {
		for _, p := range phs {
			np, err := g2.CreateNode(node.Placeholder, p.Target(), p.Args(), nil, p.Name())
			require.NoError(t, err, s.where())
			np.Meta = p.Meta.Clone()
			vm[p] = np
		}
	}
	res, err := g2.GraphCopy(g, vm)
	require.NoError(t, err, s.where())
	if out == nil {
		require.Nil(t, res, s.where())
	} else {
		require.NotNil(t, res, s.where())
		// GraphCopy returns the output value; the output node, with its
		// metadata, is the caller's to make.
		o2, err := g2.CreateNode(node.Output, out.Target(), []node.Arg{res}, nil, out.Name())
		require.NoError(t, err, s.where())
		o2.Meta = out.Meta.Clone()
	}
	require.NoError(t, lintBody(g2), s.where())
	want := len(list)
	if out != nil {
		want--
	}
	require.Len(t, vm, want, s.where())
	for k, v := range vm {
		vn, ok := v.(*node.Node)
		require.True(t, ok, s.where())
		require.Same(t, g2, graph.Of(vn), s.where())
		require.Equal(t, k.Name(), vn.Name(), s.where())
	}
	if !bind || prefix {
		require.NoError(t, graph.Equal(g, g2), s.where())
	}
}

func (s *rmState) opClone() {
	g, t := s.g, s.t
	c, m, err := g.Clone()
	require.NoError(t, err, s.where())
	require.NoError(t, lintBody(c), s.where())
	require.NoError(t, graph.Equal(g, c), s.where())
	txt := g.Text()
	require.Equal(t, txt, c.Text(), s.where())
	require.Len(t, m, g.Len(), s.where())
	for n := range g.Nodes() {
		cn := m[n]
		if cn == nil || cn == n || cn.Name() != n.Name() || graph.Of(cn) != c {
			s.failf("Clone map: %%%s maps to %v", n.Name(), cn)
		}
	}
	// The clone is independent of the original.
	c.EliminateDeadCode()
	for n := range c.Nodes() {
		if n.NumUsers() == 0 && n.Op() != node.Output {
			require.NoError(t, c.EraseNode(n), s.where())
		}
	}
	if f := c.First(); f != nil {
		_, err := c.Rename(f, "renamed_in_clone")
		require.NoError(t, err, s.where())
	}
	require.NoError(t, lintBody(c), s.where())
	require.Equal(t, txt, g.Text(), s.where())
	s.other = c
}

func (s *rmState) opDCE() {
	g := s.g
	list := g.NodeList()
	impure := (*node.Node).IsImpure
	custom := s.r.IntN(3) == 0
	if custom {
		impure = func(n *node.Node) bool { return n.IsImpure() || len(n.Name())%2 == 0 }
	}
	keep := map[*node.Node]bool{}
	for i := len(list) - 1; i >= 0; i-- {
		n := list[i]
		if impure(n) {
			keep[n] = true
			continue
		}
		for _, u := range n.Users() {
			if keep[u] {
				keep[n] = true
				break
			}
		}
	}
	want := rmFilter(list, func(n *node.Node) bool { return keep[n] })
	var changed bool
	if custom {
		changed = g.EliminateDeadCodeFunc(impure)
	} else {
		changed = g.EliminateDeadCode()
	}
	if changed != (len(want) != len(list)) {
		s.failf("EliminateDeadCode reported %v, but %d of %d nodes are dead", changed, len(list)-len(want), len(list))
	}
	s.sameNodes(want, g.NodeList(), "nodes after dead-code elimination")
	for _, n := range list {
		if !keep[n] {
			s.erased = append(s.erased, n)
		}
	}
	if g.EliminateDeadCode() && !custom {
		s.failf("a second EliminateDeadCode still found dead code")
	}
	s.erased = append(s.erased, rmFilter(list, func(n *node.Node) bool { return keep[n] && n.Erased() })...)
}

func (s *rmState) opRename() {
	g, t := s.g, s.t
	list := g.NodeList()
	if len(list) == 0 {
		return
	}
	n := s.pick(list)
	old := n.Name()
	cands := append(slices.Clone(rmNameCands), old, s.pick(list).Name())
	cand := cands[s.r.IntN(len(cands))]
	name, err := g.Rename(n, cand)
	require.NoError(t, err, s.where())
	require.Equal(t, name, n.Name(), s.where())
	require.True(t, node.IsIdentifier(name), s.where())
	switch name {
	case "len", "inf", "self", "nan", "torch", "device", "None", "True":
		s.failf("Rename gave the reserved name %q", name)
	}
	if m, ok := g.Node(name); !ok || m != n {
		s.failf("Rename: Node(%q) does not find the node", name)
	}
	if cand == old {
		require.Equal(t, old, name, s.where())
	} else if _, ok := g.Node(old); ok || name == old {
		s.failf("Rename(%%%s, %q) = %q: the old name still resolves", old, cand, name)
	}
	if len(s.erased) > 0 {
		_, err := g.Rename(s.erased[s.r.IntN(len(s.erased))], "zombie")
		require.Error(t, err, s.where())
	}
	if on := s.other.First(); on != nil {
		_, err := g.Rename(on, "foreign")
		require.Error(t, err, s.where())
	}
}

func (s *rmState) opSetTarget() {
	g, t := s.g, s.t
	list := g.NodeList()
	if len(list) == 0 {
		return
	}
	n := s.pick(list)
	txt := g.Text()
	switch n.Op() {
	case node.CallFunction:
		require.Error(t, n.SetTarget(node.Path("rnd.add")), s.where())
		require.Error(t, n.SetTarget(nil), s.where())
		require.Equal(t, txt, g.Text(), s.where())
		f := s.funcs[s.r.IntN(len(s.funcs))]
		require.NoError(t, n.SetTarget(f), s.where())
		require.True(t, n.Target() == node.Target(f), s.where())
	case node.CallMethod:
		require.Error(t, n.SetTarget(node.Path("a.b")), s.where())
		require.Error(t, n.SetTarget(s.funcs[0]), s.where())
		require.Equal(t, txt, g.Text(), s.where())
		require.NoError(t, n.SetTarget(node.Path("view")), s.where())
	case node.CallModule, node.GetAttr:
		require.Error(t, n.SetTarget(node.Path("a..b")), s.where())
		require.Equal(t, txt, g.Text(), s.where())
		require.NoError(t, n.SetTarget(node.Path("layer2.1")), s.where())
	case node.Output:
		require.Error(t, n.SetTarget(node.Path("out")), s.where())
		require.Equal(t, txt, g.Text(), s.where())
	case node.Placeholder:
		require.Error(t, n.SetTarget(node.Path("1x")), s.where())
		require.Equal(t, txt, g.Text(), s.where())
		require.NoError(t, n.SetTarget(node.Path("*rest")), s.where())
	}
}

func (s *rmState) opMeta() {
	list := s.g.NodeList()
	if len(list) == 0 {
		return
	}
	n := s.pick(list)
	s.setRandomMeta(n)
	if s.r.IntN(4) == 0 {
		n.Meta.Delete("custom")
	}
}

// opOutput erases the output node, or makes one when there is none; a
// second output node is refused.
func (s *rmState) opOutput() {
	g, t := s.g, s.t
	if out := g.OutputNode(); out != nil {
		_, err := g.Output(node.None)
		require.Error(t, err, s.where())
		n := rmFilter(g.NodeList(), rmNotOutput)
		if len(n) > 0 {
			require.Error(t, g.MoveBefore(out, n[0]), s.where())
			require.Error(t, g.MoveAfter(n[len(n)-1], out), s.where())
		}
		if s.r.IntN(2) == 0 {
			require.NoError(t, g.EraseNode(out), s.where())
			s.erased = append(s.erased, out)
		}
		return
	}
	cands := rmFilter(g.NodeList(), rmNotOutput)
	// Even with an insertion point elsewhere, the output goes last.
	restore := func() {}
	if len(cands) > 0 {
		restore = g.InsertingBefore(s.pick(cands))
	}
	out, err := g.Output(node.Tuple{s.genArg(cands, 0), s.genArg(cands, 0)})
	restore()
	require.NoError(t, err, s.where())
	require.Same(t, out, g.Last(), s.where())
	require.Same(t, out, g.OutputNode(), s.where())
}

func (s *rmState) opPlaceholder() {
	g, t := s.g, s.t
	restore := g.InsertingBefore(nil)
	defer restore()
	name := []string{"x", "y", "extra", "in_put"}[s.r.IntN(4)]
	p, err := g.Placeholder(name)
	require.NoError(t, err, s.where())
	require.Same(t, p, g.First(), s.where())
	require.True(t, strings.HasPrefix(p.Name(), strings.TrimLeft(name, "*")), s.where())
}
