package kernels

import "github.com/gofx/gofx/ops"

// Origin exposes to the tests where the kernel of o comes from: the file
// of the family that registered it, and for a derived in-place or out=
// kernel the functional overload it calls.
func Origin(o *ops.Operator) (file string, derivedFrom *ops.Operator, ok bool) {
	or, ok := origins[o]
	return or.file, or.derivedFrom, ok
}

// FamilyFiles returns the files of the families in registration order.
func FamilyFiles() []string {
	var out []string
	for _, f := range families {
		out = append(out, f.file)
	}
	return out
}
