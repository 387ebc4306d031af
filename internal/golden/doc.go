// Package golden compares test output with golden files, and rewrites them
// when the tests run with -update. It is the one -update flag of the
// repository: every package's tests that keep golden files go through it, so
// `go test ./... -update` rewrites them all.
package golden
