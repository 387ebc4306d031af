package passes

import (
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// DCE removes the nodes whose value is unused and that have no effect
// beyond it (fx.GraphModule.EliminateDeadCode): chains of dead nodes and
// unused get_attr nodes go, while placeholders, the output, operators that
// write an argument, in-place methods and calls of impure modules
// (fx.Impurer) stay even when unused.
var DCE = Pass{
	Name: "dce",
	Doc:  "remove unused nodes without side effects",
	Run:  eliminateDeadCode,
}

func eliminateDeadCode(gm *fx.GraphModule) (bool, error) {
	return gm.EliminateDeadCode(), nil
}

// DeleteUnusedSubmodules removes from the GraphModule's module tree the
// submodules that no call_module or get_attr node refers to, as torch.fx's
// GraphModule.delete_all_unused_submodules does: a module is kept when a
// call_module node calls it or a module below it, or when a get_attr node
// reads one of its (or its descendants') parameters or buffers; everything
// below a called module is kept. Parameters and buffers of kept modules
// stay, used or not.
//
// The user's modules are never edited: where a module loses some of its
// submodules, the GraphModule gets a new container module in its place
// (with its type name, training flag, and the same parameter and buffer
// objects) holding only the kept ones.
var DeleteUnusedSubmodules = Pass{
	Name: "delete_unused_submodules",
	Doc:  "remove submodules that no node calls or reads from",
	Run:  deleteUnusedSubmodules,
}

// container stands for a user module that lost some submodules.
type container struct{ nn.Base }

func deleteUnusedSubmodules(gm *fx.GraphModule) (bool, error) {
	used := map[string]bool{}   // module paths (and their prefixes) that must stay
	called := map[string]bool{} // modules kept whole
	mark := func(path string) {
		for {
			used[path] = true
			i := strings.LastIndexByte(path, '.')
			if i < 0 {
				return
			}
			path = path[:i]
		}
	}
	for n := range gm.Graph.Nodes() {
		t := n.Target().String()
		switch n.Op() {
		case node.CallModule:
			called[t] = true
			mark(t)
		case node.GetAttr:
			if _, err := nn.Submodule(gm, t); err == nil {
				called[t] = true
				mark(t)
			} else if i := strings.LastIndexByte(t, '.'); i >= 0 {
				mark(t[:i])
			}
		}
	}
	// prunable reports whether some module below m (at path) goes.
	memo := map[string]bool{}
	var prunable func(path string, m nn.Module) bool
	prunable = func(path string, m nn.Module) bool {
		if called[path] {
			return false
		}
		if v, ok := memo[path]; ok {
			return v
		}
		res := false
		for name, c := range m.ModuleBase().Children() {
			p := join(path, name)
			if !used[p] || prunable(p, c) {
				res = true
			}
		}
		memo[path] = res
		return res
	}
	if !prunable("", gm) {
		return false, nil
	}
	var prune func(path string, m nn.Module) nn.Module
	fill := func(dst *nn.Base, path string, src *nn.Base) {
		for name, p := range src.Parameters() {
			dst.ShareParameter(name, p)
		}
		for name, b := range src.Buffers() {
			dst.ShareBuffer(name, b)
		}
		for name, c := range src.Children() {
			p := join(path, name)
			if used[p] {
				dst.AddModule(name, prune(p, c))
			}
		}
	}
	prune = func(path string, m nn.Module) nn.Module {
		if !prunable(path, m) {
			return m
		}
		b := m.ModuleBase()
		c := &container{}
		c.Init(c, b.TypeName())
		nn.Train(c, b.Training())
		fill(&c.Base, path, b)
		return c
	}
	old := gm.Base
	training := old.Training()
	gm.Base = nn.Base{}
	gm.Init(gm, old.TypeName())
	nn.Train(gm, training)
	fill(&gm.Base, "", &old)
	return true, nn.Err(gm)
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
