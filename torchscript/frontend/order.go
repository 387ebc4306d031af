package frontend

import (
	"sort"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/ir"
)

// overloads returns the overloads of ns::name in reg in the order of
// PyTorch's JIT operator registry (ir.RegistryRank), the order in which
// TorchScript's schema matching tries them; operators PyTorch does not list
// (user-defined ones) come after, in their registration order.
func overloads(reg *ops.Registry, ns, name string) []*ops.Operator {
	if reg == ops.Global() {
		return ir.Overloads(ns, name)
	}
	os := reg.Overloads(ns, name)
	const unlisted = 1 << 30
	rank := make(map[*ops.Operator]int, len(os))
	for i, o := range os {
		r, ok := ir.RegistryRank(o.Schema().QualifiedName())
		if !ok {
			r = unlisted + i
		}
		rank[o] = r
	}
	sort.SliceStable(os, func(i, j int) bool { return rank[os[i]] < rank[os[j]] })
	return os
}
