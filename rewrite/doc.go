// Package rewrite keeps graph rewrites as rules on the pattern engine
// (package pattern), in the manner of cmd/compile's rules files, tinygrad's
// PatternMatcher and MLIR's RewritePattern: a rule is data (a name, a
// pattern, a constraint, a rewrite and a benefit), and a greedy driver
// applies a set of them until nothing fires.
//
// # Rules
//
// A Rule's Pattern is anything pattern.Compile accepts: a Go function over
// nn.Values, an nn.Module, a *fx.GraphModule or a *graph.Graph (graph text
// through graph.Parse). Its placeholders bind nodes or literals by schema
// argument, with pattern's filters, literal wildcards and commutativity.
// Constraint sees each structural match (bindings, matched nodes and their
// metadata, the GraphModule's modules) and returns nil to fire or an error
// saying why not. The rewrite is one of
//
//   - Replacement: a fixed replacement (a Go function, a module, a graph),
//     copied for every match by pattern.ReplaceFunc;
//   - Rewrite: a function returning the replacement of one match;
//   - Edit: an in-place rewrite of one match (MLIR's matchAndRewrite), for
//     rewrites that keep nodes and names, or edit the module tree and the
//     state, as the batch-norm folds of package passes do.
//
// Weight math and other computation stays in plain functions that the
// rewrites call.
//
// # The driver
//
// NewRuleSet compiles rules and orders them by descending Benefit; Apply
// runs rounds in which every rule, in that order, rewrites all its
// non-overlapping accepted matches, until a round changes nothing. A set
// that still fires after its round bound (DefaultMaxRounds, WithMaxRounds)
// does not converge, and Apply's error names the rules that kept firing.
// Errors and panics inside a rule come back as errors naming the rule and
// the match's anchor. Func turns a set into the Run function of a
// passes.Pass (passes.FromRules wraps it; rewrite does not import passes).
//
// Explain says, rule by rule, whether a set fires at a node and why not:
// pattern.Explain's reasons when the pattern does not match there, the
// constraint's verdict when it does.
//
//	set, err := rewrite.NewRuleSet("simplify", rewrite.Rule{
//		Name:        "neg_neg",
//		Pattern:     func(x nn.Value) nn.Value { return x.Neg().Neg() },
//		Replacement: func(x nn.Value) nn.Value { return x },
//	})
//	changed, err := set.Apply(gm)
//
// # Rules as text
//
// ParseRules reads rules from a txtar archive: per rule R, a file
// "pattern R" and a file "replacement R" holding graph text, and an
// optional header "rule R" (benefit, doc, literal wildcards and the other
// pattern options). FormatRules writes them back. Text rules carry no Go
// code; a program may add a Constraint to a parsed rule before building
// its set. The tests of this package are such archives with an input and
// an output graph (testdata/*.txtar, run by internal/passtest).
package rewrite
