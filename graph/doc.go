// Package graph holds a program as an ordered list of nodes: the torch.fx
// Graph, in Go.
//
// A Graph creates nodes (Placeholder, GetAttr, CallFunction, CallMethod,
// CallModule, Output, CreateNode) at its insertion point, gives them unique
// names as torch.fx does, erases and moves them with order checks, copies
// nodes and whole graphs, finds nodes by opcode and target through an index
// that every mutation keeps current, checks every invariant (Lint) and
// removes dead code.
//
// A graph has four printed forms: String, torch.fx's own format; Tabular,
// torch.fx's print_tabular; Code, readable Python-like code that frees each
// value after its last use; and Text, a canonical form that Parse reads back
// into an identical graph (names, order, targets, arguments and the
// metadata that has a text form). View presents a graph through gonum's
// graph interfaces so that gonum's algorithms run on it.
//
// Every method that can fail on bad input returns an error that names the
// node concerned; none panics.
package graph
