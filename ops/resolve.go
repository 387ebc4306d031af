package ops

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/tensor"
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
	// As the JIT's matchSchemas, a first round takes the arguments as
	// they are, a second allows a conversion (a number wrapped for a
	// Tensor parameter): mul(x, 2) is mul.Scalar, mul(2, x) mul.Tensor.
	for _, convert := range []bool{false, true} {
		for pass := 0; pass < 2; pass++ {
			for _, o := range cands {
				if (pass == 0) == o.Has(Mutable) {
					continue
				}
				bind := o.Bind
				if !convert {
					bind = o.BindExact
				}
				if _, err := bind(args, kwargs); err != nil {
					if convert {
						reasons = append(reasons, "  "+o.schema.String()+": "+strings.TrimPrefix(err.Error(), o.schema.QualifiedName()+": "))
					}
					continue
				}
				return o, nil
			}
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

// BindExact is Bind without conversions, as the first round of the
// JIT's overload matching: a call that binds only by wrapping a number
// given for a Tensor parameter is refused with an error naming it.
func (o *Operator) BindExact(args []any, kwargs map[string]any) (*Call, error) {
	c, err := o.Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	given := map[*tensor.Tensor]bool{}
	for _, a := range args {
		if t, ok := a.(*tensor.Tensor); ok {
			given[t] = true
		}
	}
	for _, a := range kwargs {
		if t, ok := a.(*tensor.Tensor); ok {
			given[t] = true
		}
	}
	for i, v := range c.vals {
		if t, ok := v.(*tensor.Tensor); ok && t != nil && t.IsWrappedNumber() && !given[t] {
			return nil, &CallError{Op: c.schema.QualifiedName(), Arg: c.schema.Args[i].Name, Err: fmt.Errorf("expected Tensor, got a number (a conversion)")}
		}
	}
	return c, nil
}
