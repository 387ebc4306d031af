package passes

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	dgraph "github.com/dominikbraun/graph"
	"github.com/dominikbraun/graph/draw"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
)

// DefaultMaxIterations is the number of rounds a Manager with FixedPoint
// set runs at most when MaxIterations is zero.
const DefaultMaxIterations = 10

// A Manager runs a pipeline of passes over a GraphModule, in order,
// optionally linting and verifying the graph after each pass, and reports
// what each pass did.
//
// The zero Manager runs its passes once with no checks; NewManager turns
// on linting and op counts, which is what most callers want.
type Manager struct {
	// Passes is the pipeline, run in order.
	Passes []Pass
	// Lint runs gm.Lint after every pass: a pass that leaves a graph that
	// fails it stops the pipeline with an error naming the pass and the
	// nodes Lint named.
	Lint bool
	// Verify, if set, runs after every pass (after Lint), for checks of
	// the pipeline's own: decomp.Verify keeps a graph in core ATen.
	Verify func(gm *fx.GraphModule) error
	// FixedPoint runs the whole pipeline again until a round changes
	// nothing, or MaxIterations rounds have run.
	FixedPoint bool
	// MaxIterations caps the rounds of a FixedPoint run
	// (DefaultMaxIterations when zero).
	MaxIterations int
	// Counts records, per pass, the number of nodes per opcode and target
	// before and after it (one walk over the graph per pass).
	Counts bool
	// Diff records, per pass that changed the graph, the nodes it removed,
	// added and rewrote as a unified-style diff of their lines (formatting
	// every node of the graph twice per pass: ask for it on small graphs
	// or when debugging).
	Diff bool
}

// NewManager returns a Manager running passes with Lint and Counts on.
func NewManager(passes ...Pass) *Manager {
	return &Manager{Passes: passes, Lint: true, Counts: true}
}

// Run is NewManager(passes...).Run(gm): it runs passes in order over gm,
// linting after each, and returns the report.
func Run(gm *fx.GraphModule, passes ...Pass) (*Report, error) {
	return NewManager(passes...).Run(gm)
}

// Check reports whether the pipeline is well formed, without running it:
// every pass has a name and a Run function, the requirements form no
// cycle (the error names the passes on it), every required pass is in
// the pipeline, and every pass that Requires another comes after it (the
// error then gives the order Order would use).
func (m *Manager) Check() error {
	for i, p := range m.Passes {
		if p.Name == "" {
			return fmt.Errorf("passes: pass %d of the pipeline has no name", i)
		}
		if p.Run == nil {
			return fmt.Errorf("passes: pass %q has no Run function", p.Name)
		}
	}
	g, err := requirementGraph(m.Passes)
	if err != nil {
		return err
	}
	first := firstPositions(m.Passes)
	for i, p := range m.Passes {
		for _, r := range p.Requires {
			if first[r] < i {
				continue
			}
			order, _ := stableOrder(g, m.Passes) // no cycle: requirementGraph refused them
			return fmt.Errorf("passes: pass %q requires %q to run before it, and the pipeline %v does not run it earlier (in requirement order: %v)", p.Name, r, names(m.Passes), names(order))
		}
	}
	return nil
}

// Order returns the passes in an order that runs every pass after the
// passes it Requires: the stable topological sort of the requirement graph
// (dominikbraun/graph's StableTopologicalSort), which takes the passes in
// rounds, first those that require nothing, then those whose requirements
// the earlier rounds ran, each round by position. A requirement refers to
// the first pass of its name.
// It returns an error naming the cycle when the requirements form one,
// and one naming the pass when a requirement is not in the list.
func Order(ps ...Pass) ([]Pass, error) {
	g, err := requirementGraph(ps)
	if err != nil {
		return nil, err
	}
	return stableOrder(g, ps)
}

// stableOrder sorts the requirement graph g of ps topologically, ties by
// position.
func stableOrder(g dgraph.Graph[int, int], ps []Pass) ([]Pass, error) {
	pos, err := dgraph.StableTopologicalSort(g, func(a, b int) bool { return a < b })
	if err != nil {
		return nil, fmt.Errorf("passes: ordering the pipeline %v: %w", names(ps), err)
	}
	out := make([]Pass, len(pos))
	for i, k := range pos {
		out[i] = ps[k]
	}
	return out, nil
}

// firstPositions maps each pass name to its first position in ps.
func firstPositions(ps []Pass) map[string]int {
	first := make(map[string]int, len(ps))
	for i := len(ps) - 1; i >= 0; i-- {
		first[ps[i].Name] = i
	}
	return first
}

// requirementGraph returns the requirement graph of ps: one vertex per
// position, and an edge to each pass from the first pass of each name it
// Requires. The graph prevents cycles: the edge that would close one is
// refused, and the error names the passes on the cycle.
func requirementGraph(ps []Pass) (dgraph.Graph[int, int], error) {
	g := dgraph.New(dgraph.IntHash, dgraph.Directed(), dgraph.PreventCycles())
	for i := range ps {
		if err := g.AddVertex(i, dgraph.VertexAttribute("label", strconv.Itoa(i)+" "+ps[i].Name)); err != nil {
			return nil, fmt.Errorf("passes: pass %d: %w", i, err)
		}
	}
	first := firstPositions(ps)
	for i, p := range ps {
		for _, r := range p.Requires {
			j, ok := first[r]
			if !ok {
				return nil, fmt.Errorf("passes: pass %q requires %q to run before it, and the pipeline %v does not run it", p.Name, r, names(ps))
			}
			err := g.AddEdge(j, i)
			switch {
			case err == nil, errors.Is(err, dgraph.ErrEdgeAlreadyExists):
			case errors.Is(err, dgraph.ErrEdgeCreatesCycle):
				return nil, requirementCycle(g, ps, j, i)
			default:
				return nil, fmt.Errorf("passes: pass %q requires %q: %w", p.Name, r, err)
			}
		}
	}
	return g, nil
}

// requirementCycle describes the cycle that pass i requiring pass j
// closes: g has a path from i to j.
func requirementCycle(g dgraph.Graph[int, int], ps []Pass, j, i int) error {
	if i == j {
		return fmt.Errorf("passes: the requirements form a cycle: %s requires itself", ps[i].Name)
	}
	path, err := dgraph.ShortestPath(g, i, j)
	if err != nil {
		return fmt.Errorf("passes: the requirements of %s and %s form a cycle", ps[i].Name, ps[j].Name)
	}
	// Each pass on the path is required by the next, and i requires j:
	// cyc[k] requires cyc[k+1], around. Start from the earliest pass.
	cyc := []int{i}
	for k := len(path) - 1; k >= 0; k-- {
		cyc = append(cyc, path[k])
	}
	cyc = cyc[:len(cyc)-1] // path[0] is i
	start := slices.Index(cyc, slices.Min(cyc))
	cyc = append(cyc[start:], cyc[:start]...)
	links := make([]string, len(cyc))
	for k, a := range cyc {
		links[k] = fmt.Sprintf("%s requires %s", ps[a].Name, ps[cyc[(k+1)%len(cyc)]].Name)
	}
	return fmt.Errorf("passes: the requirements form a cycle: %s", strings.Join(links, ", "))
}

// WriteRequirementsDOT writes the pipeline's requirement graph in
// Graphviz's DOT language, one vertex per pass labeled with its position
// and name ("2 cse") and an edge from each required pass to the pass
// requiring it, for debugging pipelines. The order of the statements is
// not specified.
func (m *Manager) WriteRequirementsDOT(w io.Writer) error {
	g, err := requirementGraph(m.Passes)
	if err != nil {
		return err
	}
	return draw.DOT(g, w)
}

func names(ps []Pass) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

// Run checks the pipeline (Check), then runs it over gm and returns the
// report. A pass that fails, or that leaves a graph failing Lint or
// Verify, stops the run: the error names the pass, and the report holds
// the passes that ran, the failing one last.
func (m *Manager) Run(gm *fx.GraphModule) (*Report, error) {
	if gm == nil || gm.Graph == nil {
		return nil, errors.New("passes: Manager.Run: nil GraphModule")
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	rounds := 1
	if m.FixedPoint {
		rounds = m.MaxIterations
		if rounds <= 0 {
			rounds = DefaultMaxIterations
		}
	}
	rep := &Report{NodesBefore: gm.Graph.Len()}
	if m.Counts {
		rep.OpsBefore = CountOps(gm.Graph)
	}
	start := time.Now()
	defer func() {
		rep.Time = time.Since(start)
		rep.NodesAfter = gm.Graph.Len()
		if m.Counts {
			rep.OpsAfter = CountOps(gm.Graph)
		}
	}()
	for round := 1; round <= rounds; round++ {
		rep.Rounds = round
		changed := false
		for _, p := range m.Passes {
			pr, err := m.runOne(gm, p, round)
			rep.Passes = append(rep.Passes, pr)
			if err != nil {
				return rep, err
			}
			changed = changed || pr.Changed
		}
		rep.Changed = rep.Changed || changed
		if !changed {
			rep.Converged = true
			break
		}
	}
	if !m.FixedPoint {
		rep.Converged = false
	}
	return rep, nil
}

func (m *Manager) runOne(gm *fx.GraphModule, p Pass, round int) (pr PassReport, err error) {
	pr = PassReport{Name: p.Name, Round: round, NodesBefore: gm.Graph.Len()}
	if m.Counts {
		pr.OpsBefore = CountOps(gm.Graph)
	}
	var before map[string]string
	var order []string
	if m.Diff {
		before, order = snapshot(gm.Graph)
	}
	start := time.Now()
	pr.Changed, err = p.Apply(gm)
	pr.Time = time.Since(start)
	pr.NodesAfter = gm.Graph.Len()
	if m.Counts {
		pr.OpsAfter = CountOps(gm.Graph)
	}
	if m.Diff {
		pr.Diff = diff(before, order, gm.Graph)
	}
	if err != nil {
		return pr, err
	}
	if m.Lint {
		if lerr := gm.Lint(); lerr != nil {
			return pr, fmt.Errorf("passes: pass %q left a graph that fails Lint: %w", p.Name, lerr)
		}
	}
	if m.Verify != nil {
		if verr := m.Verify(gm); verr != nil {
			return pr, fmt.Errorf("passes: pass %q left a graph that fails verification: %w", p.Name, verr)
		}
	}
	return pr, nil
}

// OpCounts counts nodes by opcode and target, keyed "opcode target"
// ("call_function aten.add.Tensor", "call_module layer1.0.conv1").
type OpCounts map[string]int

// CountOps counts g's nodes by opcode and target.
func CountOps(g *graph.Graph) OpCounts {
	c := OpCounts{}
	for n := range g.Nodes() {
		c[n.Op().String()+" "+n.Target().String()]++
	}
	return c
}

// Keys returns the counted keys, sorted.
func (c OpCounts) Keys() []string { return slices.Sorted(maps.Keys(c)) }

// Delta returns, for every key whose count differs between c and after,
// the line "key before→after", sorted by key.
func (c OpCounts) Delta(after OpCounts) []string {
	keys := map[string]bool{}
	for k := range c {
		keys[k] = true
	}
	for k := range after {
		keys[k] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if c[k] != after[k] {
			out = append(out, fmt.Sprintf("%s %d→%d", k, c[k], after[k]))
		}
	}
	return out
}

// A Report says what a Manager's run did.
type Report struct {
	// Passes has one entry per pass run, in order (a FixedPoint run lists
	// every round's).
	Passes []PassReport
	// Rounds is the number of rounds run.
	Rounds int
	// Changed reports whether any pass changed the graph.
	Changed bool
	// Converged reports, for a FixedPoint run, that the last round changed
	// nothing (false when MaxIterations ran out first).
	Converged bool
	// NodesBefore and NodesAfter are the graph's sizes around the run.
	NodesBefore, NodesAfter int
	// OpsBefore and OpsAfter count the nodes by opcode and target around
	// the run (nil unless the Manager's Counts was set).
	OpsBefore, OpsAfter OpCounts
	// Time is the run's wall time, checks included.
	Time time.Duration
}

// A PassReport says what one pass did.
type PassReport struct {
	// Name is the pass's name, Round the round it ran in (from 1).
	Name  string
	Round int
	// Changed is what the pass reported.
	Changed bool
	// NodesBefore and NodesAfter are the graph's sizes around the pass.
	NodesBefore, NodesAfter int
	// OpsBefore and OpsAfter count nodes by opcode and target (nil unless
	// the Manager's Counts was set).
	OpsBefore, OpsAfter OpCounts
	// Time is the pass's own wall time (without the checks).
	Time time.Duration
	// Diff is the change to the graph's lines (empty unless the Manager's
	// Diff was set, or when nothing changed): "-" lines for removed or
	// rewritten nodes, "+" lines for added or rewritten ones, in program
	// order.
	Diff string
}

// String returns the report as a table, with times.
func (r *Report) String() string { return r.Table(true) }

// Table returns the report as a table with one row per pass run:
//
//	pass  changed  nodes     time
//	cse   yes      12 → 10   41µs
//	dce   no       10 → 10   8µs
//	total yes      12 → 10   60µs
//
// With times false the time column is left out (for golden output).
func (r *Report) Table(times bool) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	multi := r.Rounds > 1
	head := "pass\tchanged\tnodes"
	if multi {
		head = "pass\tround\tchanged\tnodes"
	}
	if times {
		head += "\ttime"
	}
	fmt.Fprintln(w, head)
	row := func(name string, round int, changed bool, before, after int, d time.Duration) {
		s := name
		if multi {
			if round > 0 {
				s += fmt.Sprintf("\t%d", round)
			} else {
				s += "\t"
			}
		}
		s += fmt.Sprintf("\t%s\t%d → %d", yesNo(changed), before, after)
		if times {
			s += "\t" + fmtDuration(d)
		}
		fmt.Fprintln(w, s)
	}
	for _, p := range r.Passes {
		row(p.Name, p.Round, p.Changed, p.NodesBefore, p.NodesAfter, p.Time)
	}
	row("total", 0, r.Changed, r.NodesBefore, r.NodesAfter, r.Time)
	w.Flush()
	return b.String()
}

// fmtDuration rounds d to three or four significant digits.
func fmtDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d >= time.Microsecond:
		return d.Round(10 * time.Nanosecond).String()
	}
	return d.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Diffs returns the diffs of the passes that have one, each under a
// "--- pass NAME" header.
func (r *Report) Diffs() string {
	var b strings.Builder
	for _, p := range r.Passes {
		if p.Diff == "" {
			continue
		}
		fmt.Fprintf(&b, "--- pass %s", p.Name)
		if r.Rounds > 1 {
			fmt.Fprintf(&b, " (round %d)", p.Round)
		}
		b.WriteString("\n")
		b.WriteString(p.Diff)
	}
	return b.String()
}

// snapshot records each node's line by name, and the names in order.
func snapshot(g *graph.Graph) (map[string]string, []string) {
	lines := make(map[string]string, g.Len())
	order := make([]string, 0, g.Len())
	for n := range g.Nodes() {
		lines[n.Name()] = diffLine(n)
		order = append(order, n.Name())
	}
	return lines, order
}

// diff compares the snapshot with g's nodes: names are unique and never
// reused in a graph, so a node is matched with its earlier self by name.
// Removed nodes are listed in their old order, then added and rewritten
// nodes in the new order.
func diff(before map[string]string, order []string, g *graph.Graph) string {
	var b strings.Builder
	now := make(map[string]bool, g.Len())
	for n := range g.Nodes() {
		now[n.Name()] = true
	}
	for _, name := range order {
		if !now[name] {
			b.WriteString("- " + before[name] + "\n")
		}
	}
	for n := range g.Nodes() {
		line := diffLine(n)
		old, ok := before[n.Name()]
		switch {
		case !ok:
			b.WriteString("+ " + line + "\n")
		case old != line:
			b.WriteString("- " + old + "\n+ " + line + "\n")
		}
	}
	return b.String()
}

// diffLine is n's line as graph.String prints it, without the user count
// (which changes whenever a user is added or removed, and is noise in a
// diff).
func diffLine(n *node.Node) string {
	line := graph.FormatNode(n)
	if i := strings.Index(line, " : [num_users="); i >= 0 {
		if j := strings.Index(line[i:], "] = "); j >= 0 {
			return line[:i] + line[i+j+1:]
		}
	}
	return line
}

// Apply runs the pipeline over gm (Run, with the Manager's checks) and
// reports whether it changed the graph. With it a Manager is an
// export.Pass: ep.Transform(passes.NewManager(passes.Default()...))
// optimizes an exported program.
func (m *Manager) Apply(gm *fx.GraphModule) (changed bool, err error) {
	rep, err := m.Run(gm)
	if rep == nil {
		return false, err
	}
	return rep.Changed, err
}

// String names the pipeline: "pipeline[cse dce]".
func (m *Manager) String() string { return fmt.Sprintf("pipeline%v", names(m.Passes)) }
