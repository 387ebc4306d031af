// Package pattern finds and replaces subgraphs: torch.fx's SubgraphMatcher and
// replace_pattern for gofx graphs, with what torch.fx lacks.
//
// A pattern is a Go function over nn.Values (traced with
// fx.SymbolicTraceFunc), an nn.Module (traced with fx.SymbolicTrace), a
// *fx.GraphModule or a *graph.Graph:
//
//	p, err := pattern.Compile(func(x nn.Value) nn.Value { return x.Add(1.0).Relu() })
//	ms, err := pattern.Replace(gm, p, func(x nn.Value) nn.Value {
//		return nn.CallOp(clampMin, x.Add(1.0), 0.0)
//	})
//
// # Semantics (as torch.fx)
//
// The pattern's placeholders are wildcards: each binds any value of the
// graph (a node or a literal), and a placeholder used twice must bind the same
// value both times. Distinct placeholders bind distinct nodes (pattern
// add(x, y) does not match add(a, a); AllowSharedPlaceholders allows it),
// though they may bind equal literals. The values the pattern returns are its
// outputs; the matched graph nodes of the other pattern nodes (the interior)
// may not have users outside the match. Matches do not overlap: candidates
// are tried in graph order of the anchor (the node matched to the pattern's
// first output that only the output uses) and the first match wins. A match
// whose replacement would make a cycle (a path from one of its outputs,
// through nodes outside the match, back to one of its inputs) is rejected. A
// placeholder may not bind a node that the same match uses as an interior
// node.
//
// An operator node matches every overload of its packet whose arguments
// line up by schema name, as torch.fx's graphs record torch.add whatever the
// argument types: the pattern pow(x, num) records aten.pow.Tensor_Tensor and
// matches the aten.pow.Tensor_Scalar of y ** 2, binding num to 2
// (StrictOverloads asks for the same overload). Replace then re-resolves the
// overload of each node it creates from what it binds: a replacement
// x ** num bound to 2 becomes aten.pow.Tensor_Scalar, while x * num bound
// to 2 stays aten.mul.Tensor(x, 2), as PyTorch's Python path records it
// (add, sub, mul and div take a number as a wrapped number).
//
// A get_attr node of a pattern traced from a module that reads a parameter
// or buffer matches a get_attr reading any parameter or buffer of the target
// (MatchAttrsByPath compares paths, as for patterns without a module tree).
//
// A replacement may call modules and read attributes the target
// GraphModule lacks when its own module tree has them: Replace installs them
// in the target (on shallow copies of the target's modules, so the traced
// model is not edited), and afterwards deletes the modules that the replaced
// nodes called and nothing calls any more (torch.fx deletes every unused
// submodule).
//
// In a GraphModule whose graph calls higher-order operators (cond,
// while_loop, map_impl: their branch and body graphs are GraphModule
// attributes read with get_attr), Find and Replace also match inside each
// of those graphs, nested ones included, each on its own: a match lies
// inside one graph and never spans the boundary between a graph and a
// branch (the higher-order node is opaque to the graph around it, and a
// branch's placeholders are its inputs). The matches come in that order:
// the GraphModule's own graph first, then its subgraphs.
//
// These rules are checked against torch.fx itself: the cases of PyTorch's
// test/fx/test_subgraph_rewriter.py, ported to Go, give the graphs
// torch.fx's replace_pattern gives, node for node.
//
// # Beyond torch.fx
//
//   - Filters: WithFilter(func(*Match) bool) sees the bindings (Match.Binding:
//     placeholder name to bound value) and the matched nodes (Match.Node, with
//     their metadata).
//   - Literal wildcards per argument: Literal("add", "other") makes argument
//     other of the pattern node called add match any literal (not a node),
//     bound under the name "add.other". Arguments are named by their schema
//     name for operators (call_function nodes whose target is an *ops.Operator)
//     and by position ("0", "1", ...) or keyword name otherwise. AnyLiterals
//     does it for every literal argument of the pattern (torch.fx's
//     ignore_literals).
//   - Spellings: a tensor method (x.Sigmoid() records call_method "sigmoid")
//     matches the aten operator of the same name (call_function
//     aten.sigmoid.default, as export records it) and back, its arguments
//     bound by the schema of the overload the method resolves to
//     (StrictSpelling turns this off).
//   - Commutativity: a binary operator listed in Commutative matches with its
//     two tensor operands in either order (add.Tensor only with alpha 1, which
//     defaults normalization makes explicit). NoCommutativity turns this off.
//   - Multiple outputs: a pattern may return a tuple; a replacement must
//     return as many values. Two multi-output matches that are fine alone
//     may form a cycle together (an output of each reaches an input of the
//     other): Replace keeps a conflict graph of the multi-output matches it
//     replaces (github.com/dominikbraun/graph, which refuses an edge that
//     closes a cycle), skips the later match and reports it to OnSkip.
//   - Schema defaults: arguments of operators are compared in schema order
//     with defaults filled in, so add(x, y) matches add(x, y, alpha=1) and
//     keyword and positional forms are the same.
//   - Per-match replacements: ReplaceFunc calls a function with each match;
//     it returns the replacement (any form Compile accepts) or an error.
//   - Explanations: Explain says why a pattern does or does not match at a
//     node, one reason per tried alternative.
//   - Metadata: new nodes carry the anchor's metadata (nn_module_stack and
//     free-form entries), a stack_trace made of the anchor's followed by a
//     line naming the pattern and the replacement, and, when the matched
//     outputs had a val, a val re-inferred with shapeprop.FakeProp from the
//     vals of the bound inputs.
//
// # Modules
//
// A call_module node of a pattern traced from a module (or a GraphModule)
// matches a call_module node of a GraphModule whose module has the same Go
// type and configuration, whatever its path: a pattern calling GELU("tanh")
// matches no GELU("none") layer. The configuration is what nn.Repr prints
// (extra_repr, children) and the module's exported fields of basic kinds;
// tensors are not configuration. ModulesByType compares the Go type only;
// where either side has no module tree (a *graph.Graph), or with
// ModulesByPath (torch.fx's rule), call_module nodes match by target path.
//
// # Cost
//
// Anchor candidates come from the graph's (opcode, target) index (one
// lookup per spelling and overload of an operator family), and each is
// matched backward from the anchor with an explicit stack (no recursion, so
// chains of any length work). A fixed pattern is matched in time linear in
// the number of candidates; the cycle check walks only the nodes between a
// match's first output and its last input in graph order, none for patterns
// whose inputs precede their outputs. Outputs that the first output's inputs
// do not reach are found among the users of nodes already matched; only a
// pattern made of disconnected parts falls back to the index for each part.
// The conflict graph exists only for multi-output patterns, and costs a
// search from each match's outputs up to the last input of a match.
package pattern
