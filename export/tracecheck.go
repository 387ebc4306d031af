package export

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// CheckInputs makes Export check its trace as torch.jit.trace's
// check_inputs does ("Automatic Trace Checking"): for each check input
// (the module's positional inputs, as Export's args; keyword inputs stay
// those given with Kwargs) Export traces the module again, with the same
// dims and options, and compares the two graphs node by node; then it runs
// the first trace's graph on the check input (without the program's input
// checks: a static size that the trace baked in is what the check is
// about) and compares its tensor outputs with those of the module's Go
// Forward on the same input, and, when they agree, with those of the
// repeated trace. The first check input that fails stops Export with a
// *TraceCheckError: the diff of the two graphs and the first diverging
// node with its Go line, a lifted constant whose value differs, the first
// output that differs, or the error the trace's graph returned on the
// check input.
//
// A trace is specialized to what the example input makes Go code do: a Go
// loop over x.Size(0) of a static dimension is unrolled, a size read from
// a static dimension is a constant in the graph. Check inputs of other
// sizes show that (the loop's graph differs across invocations); declare
// such a dimension dynamic (Dims) or record the loop with
// functional.WhileLoop or Map instead.
//
// Buffers the model updates (a batch norm in training mode) are restored
// after each run of the check, so that a checked Export leaves the module
// as an unchecked one does.
func CheckInputs(inputs ...[]any) Option {
	return func(c *config) { c.checks = append(c.checks, inputs...) }
}

// CheckTolerance sets the relative tolerance of CheckInputs' output
// comparison (torch.jit.trace's check_tolerance; default 1e-5). The
// absolute tolerance is torch.testing's default for the outputs' dtype
// (1e-5 for float32, 1e-7 for float64, 0 for integers and bools).
func CheckTolerance(rtol float64) Option {
	return func(c *config) { c.checkTol = rtol; c.checkTolSet = true }
}

// TraceCheckKind says what a trace check found first.
type TraceCheckKind int

// The kinds of TraceCheckError, in the order they are reported.
const (
	// CheckRunFailed: the trace's graph (or the Go Forward, or the
	// repeated trace) returned an error on the check input.
	CheckRunFailed TraceCheckKind = iota + 1
	// GraphsDiffered: the graph traced on the check input differs.
	GraphsDiffered
	// ConstantsDiffered: a tensor constant the trace lifted (a tensor Go
	// code made outside the traced operators) has another value.
	ConstantsDiffered
	// OutputsDiffered: an output of the trace's graph differs from the Go
	// Forward's (or the repeated trace's) beyond the tolerance.
	OutputsDiffered
)

func (k TraceCheckKind) String() string {
	switch k {
	case CheckRunFailed:
		return "check run failed"
	case GraphsDiffered:
		return "graphs differed"
	case ConstantsDiffered:
		return "constants differed"
	case OutputsDiffered:
		return "outputs differed"
	}
	return fmt.Sprintf("TraceCheckKind(%d)", int(k))
}

// TraceCheckError is the error of a check input that the trace fails (see
// CheckInputs): torch.jit's TracingCheckError, with the output mismatch
// that PyTorch only warns about as an error too. Error prints it as
// PyTorch does ("Tracing failed sanity checks!", "ERROR: Graphs differed
// across invocations!" and the graph diff, ...).
type TraceCheckError struct {
	Check  int            // the check input's index in CheckInputs
	Inputs string         // the check input, summarized (x: f32[4, 5, 6])
	Kind   TraceCheckKind // the first problem found (see the constants)
	// GraphDiff is the diff of the two graphs as printed (Graph.String):
	// lines of the first trace only prefixed "- ", of the check's trace
	// only "+ ", of both "  " (difflib.ndiff's form, as PyTorch prints
	// it). Empty when the graphs are the same.
	GraphDiff string
	// Diverging is the first node that differs, nil when the graphs are
	// the same.
	Diverging *DivergingNode
	// Constant is the first lifted constant whose value differs.
	Constant *ConstantDiff
	// Output is the first output that differs.
	Output *OutputDiff
	// Nondeterministic lists the trace's random nodes (dropout in
	// training mode, rand, bernoulli, ...) when an output differed: the
	// likely cause, as PyTorch's "Trace had nondeterministic nodes".
	Nondeterministic []string
	// Err is the error of a run on the check input (CheckRunFailed).
	Err error
	// Ran says what Err came from: "trace", "Go function" or "repeated trace".
	Ran string
}

// DivergingNode is the first pair of nodes, at the same position, that
// differs between the two traces.
type DivergingNode struct {
	Index        int    // the position in the graph (0: the first node)
	Trace, Check string // the nodes as printed; "" where a graph ended
	// TraceSource and CheckSource are the Go lines of model code that
	// made them (their stack_trace's last frame).
	TraceSource, CheckSource string
}

// ConstantDiff is a lifted tensor constant of another value in the
// check's trace.
type ConstantDiff struct {
	Name       string // the constant's placeholder (c_lifted_tensor_0)
	MaxAbsDiff float64
	Detail     string // the comparison's message
}

// OutputDiff is the first output of the trace's graph that differs.
type OutputDiff struct {
	Index   int    // the output's index among the tensor outputs (0-based)
	Against string // "Go function" or "repeated trace"
	// Detail is the comparison's message, as torch.testing.assert_close
	// (PyTorch 2.6) words it: the shapes that differ, or the mismatched
	// elements and the greatest absolute and relative differences.
	Detail     string
	MaxAbsDiff float64 // NaN when the shapes differ
	MaxRelDiff float64 // |got - want| / |want|, NaN when the shapes differ
	At         []int   // the index of the greatest absolute difference
	// Mismatched of Total elements are not within tolerance.
	Mismatched, Total int
}

func (e *TraceCheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "export: check input %d (%s): Tracing failed sanity checks!\n", e.Check, e.Inputs)
	if e.Err != nil {
		fmt.Fprintf(&b, "encountered an exception while running the %s with test inputs.\nException:\n%s\n", e.Ran, indent(e.Err.Error()))
	}
	if e.GraphDiff != "" {
		b.WriteString("ERROR: Graphs differed across invocations!\n")
		var d strings.Builder
		d.WriteString("Graph diff:\n" + indent(e.GraphDiff) + "\n")
		if n := e.Diverging; n != nil {
			d.WriteString("First diverging operator:\n")
			d.WriteString("Node diff:\n" + indent(nodeDiff(n.Trace, n.Check)) + "\n")
			if n.TraceSource != "" {
				d.WriteString("Trace source location:\n" + indent(n.TraceSource) + "\n")
			}
			if n.CheckSource != "" {
				d.WriteString("Check source location:\n" + indent(n.CheckSource) + "\n")
			}
		}
		b.WriteString(indent(strings.TrimSuffix(d.String(), "\n")) + "\n")
	}
	if c := e.Constant; c != nil {
		b.WriteString("ERROR: Tensor-valued Constant nodes differed in value across invocations. " +
			"This often indicates that the tracer has encountered untraceable code.\n")
		b.WriteString(indent(fmt.Sprintf("Node:\n%s\nComparison exception: %s", indent(c.Name), c.Detail)) + "\n")
	}
	if o := e.Output; o != nil {
		fmt.Fprintf(&b, "ERROR: Output nr %d. of the traced function does not match the corresponding output of the %s. Detailed error:\n%s\n",
			o.Index+1, o.Against, indent(o.Detail))
	}
	if len(e.Nondeterministic) > 0 {
		b.WriteString("Trace had nondeterministic nodes. Did you forget call nn.Eval on your model? Nodes:\n")
		for _, n := range e.Nondeterministic {
			b.WriteString(indent(n) + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Unwrap returns the error of the run on the check input (CheckRunFailed),
// or nil.
func (e *TraceCheckError) Unwrap() error { return e.Err }

func nodeDiff(a, b string) string {
	var lines []string
	if a != "" {
		lines = append(lines, "- "+a)
	}
	if b != "" {
		lines = append(lines, "+ "+b)
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t")
}

// exportChecked exports m on args and checks the trace on each of
// cfg.checks (see CheckInputs).
func exportChecked(m nn.Module, args []any, dims Dims, cfg config, opts []Option) (*ExportedProgram, error) {
	plain := append(slices.Clone(opts), func(c *config) { c.checks = nil })
	ep, err := Export(m, args, dims, plain...)
	if err != nil {
		return nil, err
	}
	rtol := 1e-5
	if cfg.checkTolSet {
		rtol = cfg.checkTol
	}
	restore := saveBuffers(m)
	defer restore()
	for i, in := range cfg.checks {
		if err := checkTrace(m, ep, i, in, dims, cfg, plain, rtol, restore); err != nil {
			return nil, err
		}
	}
	return ep, nil
}

// saveBuffers returns a function that writes m's buffers back to their
// values now.
func saveBuffers(m nn.Module) func() {
	type saved struct{ dst, val *tensor.Tensor }
	var all []saved
	for _, b := range nn.NamedBuffers(m) {
		if t := b.Tensor(); t != nil {
			all = append(all, saved{t, t.Clone()})
		}
	}
	return func() {
		for _, s := range all {
			_ = s.dst.CopyFrom(s.val)
		}
	}
}

func checkTrace(m nn.Module, ep *ExportedProgram, i int, args []any, dims Dims, cfg config, plain []Option, rtol float64, restore func()) error {
	b, err := bindInputs(m, args, cfg.kwargs)
	if err != nil {
		return fmt.Errorf("export: check input %d: %w", i, err)
	}
	check, err := Export(m, args, dims, plain...)
	if err != nil {
		return fmt.Errorf("export: check input %d: tracing again: %w", i, err)
	}
	e := &TraceCheckError{Check: i, Inputs: summarize(b)}
	diagnose(e, ep, check)

	fail := func(ran string, err error) error {
		e.Kind, e.Ran, e.Err = CheckRunFailed, ran, err
		return e
	}
	traced, err := runTrace(ep, b)
	restore()
	if err != nil {
		return fail("trace", err)
	}
	eager, err := runEager(m, b)
	restore()
	if err != nil {
		return fail("Go function", err)
	}
	e.Output = compareOutputs(traced, eager, "Go function", rtol)
	if e.Output == nil {
		again, err := runTrace(check, b)
		restore()
		if err != nil {
			return fail("repeated trace", err)
		}
		e.Output = compareOutputs(traced, again, "repeated trace", rtol)
	}
	if e.Output != nil {
		e.Nondeterministic = nondeterministic(ep.Graph)
	}
	switch {
	case e.GraphDiff != "":
		e.Kind = GraphsDiffered
	case e.Constant != nil:
		e.Kind = ConstantsDiffered
	case e.Output != nil:
		e.Kind = OutputsDiffered
	default:
		return nil
	}
	return e
}

// summarize describes a check input: each leaf's name and its dtype and
// shape (or value).
func summarize(b *boundInputs) string {
	parts := make([]string, len(b.leaves))
	for i, l := range b.leaves {
		if t := l.val.Tensor(); t != nil {
			dims := make([]string, len(t.Shape()))
			for k, d := range t.Shape() {
				dims[k] = fmt.Sprint(d)
			}
			parts[i] = fmt.Sprintf("%s: %s[%s]", l.name, t.DType(), strings.Join(dims, ", "))
		} else {
			parts[i] = fmt.Sprintf("%s: %v", l.name, l.val)
		}
	}
	return strings.Join(parts, ", ")
}

// diagnose compares the two programs' graphs and lifted constants.
func diagnose(e *TraceCheckError, ep, check *ExportedProgram) {
	a, b := graphText(ep), graphText(check)
	if a != b {
		e.GraphDiff = lineDiff(strings.Split(a, "\n"), strings.Split(b, "\n"))
		e.Diverging = diverging(ep.Graph, check.Graph)
	}
	ca, cb := ep.Constants(), check.Constants()
	for _, in := range ep.Signature.Inputs {
		if in.Kind != ConstantTensor {
			continue
		}
		x, y := ca[in.Target], cb[in.Target]
		if x == nil || y == nil {
			continue // the graphs differ already
		}
		if c := assertClose(x, y, 1e-5, 0); c.detail != "" {
			e.Constant = &ConstantDiff{Name: in.Name, MaxAbsDiff: c.maxAbs, Detail: c.detail}
			return
		}
	}
}

// graphText is the program's graph and its subgraphs, printed as
// Graph.String prints them without the users' counts (as PyTorch's check
// erases what is not the computation: a node's extra user shows in that
// user's line).
func graphText(ep *ExportedProgram) string {
	var b strings.Builder
	write := func(g *graph.Graph) {
		b.WriteString("graph():")
		for n := range g.Nodes() {
			b.WriteString("\n    " + formatNode(n))
		}
	}
	write(ep.Graph)
	for _, s := range ep.subgraphs {
		fmt.Fprintf(&b, "\n%s = ", s.Name)
		write(s.Graph)
	}
	return b.String()
}

// formatNode is graph.FormatNode without the users' count.
func formatNode(n *node.Node) string {
	s := graph.FormatNode(n)
	if i := strings.Index(s, " : [num_users="); i >= 0 {
		if j := strings.Index(s[i:], "] = "); j >= 0 {
			s = s[:i] + s[i+j+1:]
		}
	}
	return s
}

// diverging returns the first pair of nodes at the same position that
// print differently.
func diverging(a, b *graph.Graph) *DivergingNode {
	na, nb := slices.Collect(a.Nodes()), slices.Collect(b.Nodes())
	for i := 0; i < max(len(na), len(nb)); i++ {
		d := &DivergingNode{Index: i}
		if i < len(na) {
			d.Trace, d.TraceSource = formatNode(na[i]), source(na[i])
		}
		if i < len(nb) {
			d.Check, d.CheckSource = formatNode(nb[i]), source(nb[i])
		}
		if d.Trace != d.Check {
			return d
		}
	}
	return nil
}

// source is the last frame of a node's stack_trace: the model's Go line.
func source(n *node.Node) string {
	st, ok := node.StackTrace.Get(&n.Meta)
	if !ok {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(st), "\n")
	for k := len(lines) - 1; k >= 0; k-- {
		if l := strings.TrimSpace(lines[k]); strings.HasPrefix(l, "File ") {
			return l
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}

// lineDiff is difflib.ndiff's form of the line diff of a and b: lines of
// both prefixed "  ", of a only "- ", of b only "+ "; in a run of changed
// lines, a line of a and one of b that are alike (PyTorch's example:
// "return (%15)" and "return (%19)") are paired, each followed by a "? "
// line marking the characters that differ (^ replaced, - deleted,
// + inserted).
func lineDiff(a, b []string) string {
	ops := lcsOps(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
	var out []string
	i, j := 0, 0
	for k := 0; k < len(ops); {
		if ops[k] == '=' {
			out = append(out, "  "+a[i])
			i, j, k = i+1, j+1, k+1
			continue
		}
		i0, j0 := i, j
		for ; k < len(ops) && ops[k] != '='; k++ {
			if ops[k] == '-' {
				i++
			} else {
				j++
			}
		}
		out = fancyReplace(out, a[i0:i], b[j0:j])
	}
	return strings.Join(out, "\n")
}

// lcsOps aligns two sequences of lengths n and m by their longest common
// subsequence: '=' (both), '-' (the first only), '+' (the second only).
func lcsOps(n, m int, eq func(i, j int) bool) []byte {
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if eq(i, j) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []byte
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && eq(i, j):
			ops = append(ops, '=')
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, '-')
			i++
		default:
			ops = append(ops, '+')
			j++
		}
	}
	return ops
}

// fancyReplace writes a run of changed lines as ndiff does: the most alike
// pair (similarity at least 0.75) with its "? " lines, the lines before it
// and after it recursively; without such a pair, the lines of a then
// those of b.
func fancyReplace(out, a, b []string) []string {
	best, bi, bj := 0.74, -1, -1
	if len(a)*len(b) <= 400 {
		for i := range a {
			for j := range b {
				if r := ratio(a[i], b[j]); r > best {
					best, bi, bj = r, i, j
				}
			}
		}
	}
	if bi < 0 {
		for _, l := range a {
			out = append(out, "- "+l)
		}
		for _, l := range b {
			out = append(out, "+ "+l)
		}
		return out
	}
	out = fancyReplace(out, a[:bi], b[:bj])
	ha, hb := hints(a[bi], b[bj])
	out = append(out, "- "+a[bi])
	if ha != "" {
		out = append(out, "? "+ha)
	}
	out = append(out, "+ "+b[bj])
	if hb != "" {
		out = append(out, "? "+hb)
	}
	return fancyReplace(out, a[bi+1:], b[bj+1:])
}

// ratio is the similarity of two lines: twice the characters in common
// over the characters of both (difflib's SequenceMatcher.ratio).
func ratio(a, b string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	common := 0
	for _, op := range lcsOps(len(a), len(b), func(i, j int) bool { return a[i] == b[j] }) {
		if op == '=' {
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}

// hints returns ndiff's "? " lines of a paired line: ^ under characters
// replaced, - under those only a has, + under those only b has.
func hints(a, b string) (ha, hb string) {
	ops := lcsOps(len(a), len(b), func(i, j int) bool { return a[i] == b[j] })
	var x, y []byte
	for k := 0; k < len(ops); {
		if ops[k] == '=' {
			x, y = append(x, ' '), append(y, ' ')
			k++
			continue
		}
		da, db := 0, 0
		for ; k < len(ops) && ops[k] != '='; k++ {
			if ops[k] == '-' {
				da++
			} else {
				db++
			}
		}
		ca, cb := byte('-'), byte('+')
		if da > 0 && db > 0 {
			ca, cb = '^', '^'
		}
		x = append(x, bytes.Repeat([]byte{ca}, da)...)
		y = append(y, bytes.Repeat([]byte{cb}, db)...)
	}
	return strings.TrimRight(string(x), " "), strings.TrimRight(string(y), " ")
}

// runTrace runs the program's graph on the check input's leaves, without
// the program's input checks.
func runTrace(ep *ExportedProgram, b *boundInputs) (out nn.Value, err error) {
	defer nn.Recover(&err)
	gm, err := ep.Module()
	if err != nil {
		return nn.None, err
	}
	leaves := cloneLeaves(b)
	return nn.Run(gm, leaves...)
}

// runEager runs the module's Go Forward on the check input.
func runEager(m nn.Module, b *boundInputs) (out nn.Value, err error) {
	defer nn.Recover(&err)
	leaves := cloneLeaves(b)
	specs := append(slices.Clone(b.spec.Children[0].Children), b.spec.Children[1].Children...)
	in := make([]nn.Value, len(b.args))
	next := 0
	for i, ts := range specs {
		k := ts.NumLeaves()
		v, err := ts.modelValue(b.values[i], leaves[next:next+k])
		if err != nil {
			return nn.None, fmt.Errorf("input %s: %w", b.args[i], err)
		}
		in[i] = v
		next += k
	}
	return nn.Run(m, in...)
}

// cloneLeaves returns the leaves with their tensors cloned, so that a run
// that mutates its inputs leaves the check input as it was.
func cloneLeaves(b *boundInputs) []nn.Value {
	out := make([]nn.Value, len(b.leaves))
	for i, l := range b.leaves {
		out[i] = l.val
		if t := l.val.Tensor(); t != nil {
			out[i] = nn.Tensor(t.Clone())
		}
	}
	return out
}

// tensors returns the tensors of an output, depth first (tuples in
// order, dicts in key order).
func tensors(v nn.Value, out []*tensor.Tensor) []*tensor.Tensor {
	switch {
	case v.IsTensor():
		return append(out, v.Tensor())
	case v.IsTuple():
		for _, e := range v.Tuple() {
			out = tensors(e, out)
		}
	case v.IsDict():
		for _, k := range v.Keys() {
			out = tensors(v.Get(k), out)
		}
	}
	return out
}

// compareOutputs returns the first tensor output of got that is not close
// to want's.
func compareOutputs(got, want nn.Value, against string, rtol float64) *OutputDiff {
	g, w := tensors(got, nil), tensors(want, nil)
	if len(g) != len(w) {
		return &OutputDiff{Index: min(len(g), len(w)), Against: against, MaxAbsDiff: math.NaN(),
			Detail: fmt.Sprintf("the trace returned %d tensors, the %s %d", len(g), against, len(w))}
	}
	for i := range g {
		if c := assertClose(g[i], w[i], rtol, defaultAtol(g[i], w[i])); c.detail != "" {
			return &OutputDiff{Index: i, Against: against, Detail: c.detail, MaxAbsDiff: c.maxAbs, MaxRelDiff: c.maxRel,
				At: c.at, Mismatched: c.mismatched, Total: c.total}
		}
	}
	return nil
}

// defaultAtol is torch.testing's default absolute tolerance for the
// dtypes compared (the larger of the two).
func defaultAtol(a, b *tensor.Tensor) float64 {
	atol := func(dt tensor.DType) float64 {
		switch dt {
		case tensor.Float64:
			return 1e-7
		case tensor.Float32, tensor.Float16, tensor.BFloat16:
			return 1e-5
		}
		return 0
	}
	return max(atol(a.DType()), atol(b.DType()))
}

// closeness is the outcome of comparing two tensors element by element.
type closeness struct {
	detail            string // assert_close's message; "" when close
	maxAbs, maxRel    float64
	at                []int // the index of the greatest absolute difference
	mismatched, total int
}

// assertClose compares a and b as torch.testing.assert_close does (as
// float64, NaN equal to NaN) and words a mismatch as PyTorch 2.6 does
// ("Tensor-likes are not close!", the mismatched elements, the greatest
// absolute and relative differences and where they are).
func assertClose(a, b *tensor.Tensor, rtol, atol float64) closeness {
	if !slices.Equal(a.Shape(), b.Shape()) {
		return closeness{detail: fmt.Sprintf("The values for attribute 'shape' do not match: %v != %v.", torchSize(a.Shape()), torchSize(b.Shape())),
			maxAbs: math.NaN(), maxRel: math.NaN()}
	}
	av, bv := a.Contiguous().Float64s(), b.Contiguous().Float64s()
	c := closeness{total: len(av)}
	absAt, relAt := -1, -1
	for i := range av {
		x, y := av[i], bv[i]
		if math.IsNaN(x) && math.IsNaN(y) || x == y {
			continue
		}
		d := math.Abs(x - y)
		if math.IsNaN(d) {
			d = math.Inf(1)
		}
		r := d / math.Abs(y)
		if absAt < 0 || d > c.maxAbs {
			c.maxAbs, absAt = d, i
		}
		if relAt < 0 || r > c.maxRel {
			c.maxRel, relAt = r, i
		}
		if !(d <= atol+rtol*math.Abs(y)) {
			c.mismatched++
		}
	}
	if c.mismatched == 0 {
		return c
	}
	c.at = unravel(absAt, a.Shape())
	c.detail = fmt.Sprintf("Tensor-likes are not close!\n\nMismatched elements: %d / %d (%.1f%%)\n"+
		"Greatest absolute difference: %s at index %s (up to %s allowed)\n"+
		"Greatest relative difference: %s at index %s (up to %s allowed)",
		c.mismatched, c.total, 100*float64(c.mismatched)/float64(c.total),
		pyFloat(c.maxAbs), pyIndex(c.at), pyFloat(atol),
		pyFloat(c.maxRel), pyIndex(unravel(relAt, a.Shape())), pyFloat(rtol))
	return c
}

// pyFloat formats x as Python's repr does (1e-05, 2.53125, inf).
func pyFloat(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsNaN(x):
		return "nan"
	case x == math.Trunc(x) && math.Abs(x) < 1e16:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// pyIndex formats an index as a Python tuple: (0, 0), (3,).
func pyIndex(idx []int) string {
	parts := make([]string, len(idx))
	for i, k := range idx {
		parts[i] = strconv.Itoa(k)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func torchSize(shape []int) string {
	parts := make([]string, len(shape))
	for i, k := range shape {
		parts[i] = strconv.Itoa(k)
	}
	return "torch.Size([" + strings.Join(parts, ", ") + "])"
}

func unravel(i int, shape []int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			idx[k] = i % shape[k]
			i /= shape[k]
		}
	}
	return idx
}

// randomOps are the operators PyTorch's Node::isNondeterministic names
// (torch/csrc/jit/ir/ir.cpp); dropout's count only with train true.
var randomOps = map[string]bool{
	"dropout": true, "_fused_dropout": true, "_standard_gamma": true, "bernoulli": true,
	"multinomial": true, "native_dropout": true, "normal": true, "poisson": true,
	"binomial": true, "rrelu": true, "rrelu_with_noise": true, "rand": true,
	"rand_like": true, "randint": true, "randint_like": true, "randn": true,
	"randn_like": true, "randperm": true,
}

// nondeterministic returns the graph's random nodes, as printed.
func nondeterministic(g *graph.Graph) []string {
	var out []string
	for n := range g.Nodes() {
		if n.Op() != node.CallFunction {
			continue
		}
		name := n.Target().String()
		name = strings.TrimPrefix(name, "aten.")
		if k := strings.IndexByte(name, '.'); k >= 0 {
			name = name[:k]
		}
		if !randomOps[name] {
			continue
		}
		if name == "native_dropout" || name == "dropout" {
			if n.NumArgs() > 2 {
				if t, ok := n.Arg(2).(node.Bool); ok && !bool(t) {
					continue
				}
			}
		}
		out = append(out, formatNode(n))
		if len(out) == 20 {
			break
		}
	}
	return out
}
