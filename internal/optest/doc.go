// Package optest is the one call-an-operator helper of the repository's
// tests: look an operator up in the global registry by name, call it, and
// build the small tensors the calls take, failing the test (naming the
// operator) instead of returning errors where a test only wants the result.
//
// It imports no kernels: a test that runs operators imports
// github.com/gofx/gofx/kernels as it would anyway.
package optest
