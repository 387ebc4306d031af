package frontend

import (
	_ "embed"
	"sort"
	"strings"
	"sync"

	"github.com/gofx/gofx/ops"
)

// registryOrder lists every operator's qualified name ("aten::add.Tensor")
// in the order of PyTorch's JIT operator registry
// (torch._C._jit_get_all_schemas()), the order in which TorchScript's
// schema matching tries the overloads of a name.
//
//go:embed registry_order.txt
var registryOrder string

var (
	orderOnce sync.Once
	orderRank map[string]int
	overMu    sync.Mutex
	overCache = map[string][]*ops.Operator{}
)

func rankOf(qualified string) (int, bool) {
	orderOnce.Do(func() {
		orderRank = map[string]int{}
		for i, line := range strings.Split(registryOrder, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if _, dup := orderRank[line]; !dup {
				orderRank[line] = i
			}
		}
	})
	r, ok := orderRank[qualified]
	return r, ok
}

// overloads returns the overloads of ns::name in the reg in PyTorch's
// registry order; operators PyTorch does not list (user-defined ones) come
// after, in their registration order.
func overloads(reg *ops.Registry, ns, name string) []*ops.Operator {
	key := ns + "::" + name
	if reg == ops.Global() {
		overMu.Lock()
		c, ok := overCache[key]
		overMu.Unlock()
		if ok {
			return c
		}
	}
	os := reg.Overloads(ns, name)
	const unlisted = 1 << 30
	rank := make(map[*ops.Operator]int, len(os))
	for i, o := range os {
		r, ok := rankOf(o.Schema().QualifiedName())
		if !ok {
			r = unlisted + i
		}
		rank[o] = r
	}
	sort.SliceStable(os, func(i, j int) bool { return rank[os[i]] < rank[os[j]] })
	if reg == ops.Global() {
		overMu.Lock()
		overCache[key] = os
		overMu.Unlock()
	}
	return os
}
