package kernels

import (
	"regexp"

	"github.com/gofx/gofx/ops"
)

// Named-tensor overloads. gofx has no named tensors: the overloads that
// take Dimname arguments (softmax.Dimname, sum.dim_DimnameList,
// empty.names, rename, align_to, ...; the registry spells Dimname as str)
// get a kernel and a meta function that fail with one error, naming the
// operator and saying that named tensors are unsupported, instead of the
// dispatcher's missing-kernel error. registerNames runs after every
// family, so an overload a family implements keeps its kernel.

// namedOverload matches the overload names of the Dimname overloads.
var namedOverload = regexp.MustCompile(`(?i)dimname|names|named_|ellipsis_idx`)

// namedOps are the named-tensor operators whose every overload takes
// names.
var namedOps = map[string]bool{
	"rename": true, "rename_": true, "refine_names": true, "align_to": true,
	"align_as": true, "align_tensors": true,
}

// isNamedOverload reports whether o is a named-tensor (Dimname) overload.
func isNamedOverload(o *ops.Operator) bool {
	s := o.Schema()
	if s.Namespace != "aten" {
		return false
	}
	return namedOps[s.Name] || namedOverload.MatchString(s.Overload)
}

// registerNames registers the error kernel of every named-tensor overload
// that has no kernel.
func registerNames() {
	for _, o := range ops.Global().All() {
		if !isNamedOverload(o) || o.HasKernel() {
			continue
		}
		name := o.String()
		k := func(c *ops.Call) ([]any, error) {
			arg := "self"
			for _, a := range c.Schema().Args {
				if a.Type.String() == "str" || a.Type.String() == "str[]" || a.Type.String() == "str[]?" || a.Type.String() == "str?" || a.Type.String() == "str[1]" {
					arg = a.Name
					break
				}
			}
			return nil, c.Errorf(arg, "%s is a named-tensor overload (Dimname arguments); gofx does not support named tensors: call the overload that takes dimension indices instead", name)
		}
		register(name, k, k)
	}
}
