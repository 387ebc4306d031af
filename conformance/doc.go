// Package conformance reads ATen conformance vectors (reference inputs and
// outputs recorded from PyTorch, one JSON Lines file per operator overload,
// in the format of ../shared/conformance/README.md), runs each case through
// the ops dispatch point and compares the results with PyTorch's under the
// case's tolerance.
//
// The kernels must be registered for cases to pass: import
// github.com/gofx/gofx/kernels.
package conformance
