// Package dot draws a graph in Graphviz's DOT language, and renders it
// with Graphviz's dot program when that is installed.
//
// WriteDOT (and DOT, its string form) writes one record per node (name,
// opcode and target, arguments, keyword arguments and the val metadata)
// and an edge from each value to each of its users; Options.Cluster boxes
// the nodes of each module on their nn_module_stack, nested as the modules
// are, and Options.Root names the module type of call_module nodes.
// Options.Subgraphs draws the graphs of the higher-order calls (cond's
// branches, while_loop's cond and body, map_impl's body) each in its own
// box, nested as they nest, with a dashed edge from the get_attr node
// that reads a graph to its box; gofx draw passes a .pt2 program's. SVG
// and Render run dot -T; without Graphviz they return an error wrapping
// ErrNoGraphviz. gofx draw is the command-line front end.
//
// The package is an encoding of package graph, kept beside it so that
// graph itself does not depend on nn or on os/exec.
package dot
