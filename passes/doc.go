// Package passes is gofx's library of graph transformations and the
// PassManager that runs them.
//
// A Pass is a value: a name, a one-line doc, the passes it requires to have
// run before it, and a function that edits a *fx.GraphModule in place and
// reports whether it changed it. Passes never leave a graph that fails
// Lint; a Manager runs them in order, optionally linting after each, and
// reports per pass the nodes before and after, the time and the diff.
package passes
