// Package graph holds a program as an ordered list of nodes: the torch.fx
// Graph, in Go.
//
// A Graph creates nodes (Placeholder, GetAttr, CallFunction, CallMethod,
// CallModule, Output, CreateNode) at its insertion point, gives them unique
// names as torch.fx does, erases and moves them with order checks, copies
// nodes and whole graphs, finds nodes by opcode and target through an index
// that every mutation keeps current, checks every invariant (Lint) and
// removes dead code. Every mutation also changes the graph's Version, so
// that what is computed from a graph can be cached until it changes.
//
// A graph has four printed forms: String, torch.fx's own format; Tabular,
// torch.fx's print_tabular; Code, readable Python-like code that frees each
// value after its last use (Python's operators written as expressions,
// x[0] and a * b, as torch.fx's codegen writes them); and Text, a
// canonical form that Parse reads back into an identical graph (names,
// order, targets, arguments and the metadata that has a text form). View
// presents a graph through gonum's graph interfaces so that gonum's
// algorithms run on it.
//
// # Graphs inside graphs
//
// PyTorch 2.x's higher-order operators (torch.ops.higher_order.cond,
// while_loop, map_impl) take graphs as arguments: a branch, a loop's cond
// and body, a mapped body. A graph holds such a call as a call_function
// whose graph arguments are get_attr nodes naming attributes of its module
// (true_graph_0 = self.true_graph_0, then cond(pred, true_graph_0,
// false_graph_0, [x]), results read with getitem), as torch.export does.
// The graphs themselves are Subgraph values (Name, Graph, and their own
// Subgraphs): fx.GraphModule keeps them as submodules, export's programs
// as their Subgraphs. TextWithSubgraphs writes a graph and its subgraphs
// as one text, each subgraph a nested "subgraph NAME { ... }" section,
// and ParseWithSubgraphs reads it back (print(parse(print(g))) is
// print(g)). LintWithSubgraphs checks every graph and the signatures
// between each higher-order call and its graphs: operand and output
// counts, a while_loop's bool-scalar cond and the dtype and shape of its
// carried values, map_impl's slices, and dangling references.
//
// Every method that can fail on bad input returns an error that names the
// node concerned; none panics.
package graph
