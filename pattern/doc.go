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
// value both times. Distinct placeholders may bind the same value (torch.fx
// refuses that; pattern add(x, y) here matches add(a, a)). The values the
// pattern returns are its outputs; the matched graph nodes of the other pattern
// nodes (the interior) may not have users outside the match. Matches do not
// overlap: candidates are tried in graph order of the anchor (the node
// matched to the pattern's first output that only the output uses) and the
// first match wins. A match whose replacement would make a cycle (a path from
// one of its outputs, through nodes outside the match, back to one of its
// inputs) is rejected. A placeholder may not bind a node that the same match
// uses as an interior node.
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
//   - Commutativity: a binary operator listed in Commutative matches with its
//     two tensor operands in either order (add.Tensor only with alpha 1, which
//     defaults normalization makes explicit). NoCommutativity turns this off.
//   - Multiple outputs: a pattern may return a tuple; a replacement must
//     return as many values.
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
// type (a pattern calling an *nn.Conv2d matches every Conv2d, whatever its
// path); where either side has no module tree (a *graph.Graph), or with
// ModulesByPath, call_module nodes match by target path. Replacements may call
// modules and read attributes only at paths the target GraphModule has.
//
// # Cost
//
// Anchor candidates come from the graph's (opcode, target) index, and each is
// matched backward from the anchor with an explicit stack (no recursion, so
// chains of any length work). A fixed pattern is matched in time linear in
// the number of candidates; the cycle check walks only the nodes between a
// match's first output and its last input in graph order, none for patterns
// whose inputs precede their outputs. Outputs that the first output's inputs
// do not reach are found among the users of nodes already matched; only a
// pattern made of disconnected parts falls back to the index for each part.
package pattern
