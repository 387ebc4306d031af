package ops

import (
	"fmt"
	"strings"
)

// Resolve returns the overload of name ("aten::add", "aten.add") that args
// and kwargs bind to, trying overloads in the registry's order with the
// mutating ones (out= variants) last, as a caller who names only the
// operator packet expects. A name with an overload ("aten::add.Tensor") is
// looked up directly. The error lists why each candidate was refused.
func (r *Registry) Resolve(name string, args []any, kwargs map[string]any) (*Operator, error) {
	ns, base, ok := strings.Cut(name, "::")
	if !ok {
		ns, base, ok = strings.Cut(name, ".")
		if !ok {
			return nil, fmt.Errorf("ops: %q is not a qualified operator name (namespace::name)", name)
		}
	}
	if strings.Contains(base, ".") {
		o, found := r.Lookup(ns + "." + base)
		if !found {
			return nil, fmt.Errorf("ops: unknown operator %s::%s", ns, base)
		}
		return o, nil
	}
	cands := r.Overloads(ns, base)
	if len(cands) == 0 {
		return nil, fmt.Errorf("ops: unknown operator %s::%s", ns, base)
	}
	var reasons []string
	for pass := 0; pass < 2; pass++ {
		for _, o := range cands {
			if (pass == 0) == o.Has(Mutable) {
				continue
			}
			if _, err := o.Bind(args, kwargs); err != nil {
				reasons = append(reasons, "  "+o.schema.String()+": "+strings.TrimPrefix(err.Error(), o.schema.QualifiedName()+": "))
				continue
			}
			return o, nil
		}
	}
	return nil, fmt.Errorf("ops: no overload of %s::%s accepts these arguments:\n%s", ns, base, strings.Join(reasons, "\n"))
}

// Invoke resolves name in the global registry (see Registry.Resolve) and
// calls the overload found.
func Invoke(name string, args []any, kwargs map[string]any) ([]any, error) {
	o, err := Global().Resolve(name, args, kwargs)
	if err != nil {
		return nil, err
	}
	return o.Call(args, kwargs)
}
