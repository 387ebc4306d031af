package aten

import "github.com/gofx/gofx/ops"

// handle pairs a generated handle with its Go name.
type handle struct {
	name string
	op   *ops.Operator
}

// mustLookup returns the operator of ops.Global() called name. Every
// generated name is registered there (the package's tests check each), so
// a failure is a generator bug or a stale aten.go.
func mustLookup(name string) *ops.Operator {
	op, ok := ops.Global().Lookup(name)
	if !ok {
		panic("aten: operator " + name + " is not in ops.Global(); aten.go is stale: run go generate ./ops/aten")
	}
	return op
}

// All returns every handle of the package, sorted by Go name.
func All() []*ops.Operator {
	out := make([]*ops.Operator, len(handles))
	for i, h := range handles {
		out[i] = h.op
	}
	return out
}
