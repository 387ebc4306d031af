package passes

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

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
// every pass has a name and a Run function, and every pass that Requires
// another comes after it.
func (m *Manager) Check() error {
	seen := make(map[string]bool, len(m.Passes))
	for i, p := range m.Passes {
		if p.Name == "" {
			return fmt.Errorf("passes: pass %d of the pipeline has no name", i)
		}
		if p.Run == nil {
			return fmt.Errorf("passes: pass %q has no Run function", p.Name)
		}
		for _, r := range p.Requires {
			if !seen[r] {
				return fmt.Errorf("passes: pass %q requires %q to run before it, and the pipeline %v does not run it earlier", p.Name, r, names(m.Passes))
			}
		}
		seen[p.Name] = true
	}
	return nil
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
