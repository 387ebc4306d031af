package passes

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// tree edits a GraphModule's module tree copy-on-write: before a module on
// an edited path is changed, it is replaced in its parent by a shallow copy
// that the tree owns, so that modules shared with a traced model (the
// user's) are never edited. The GraphModule itself is always owned.
type tree struct {
	gm    *fx.GraphModule
	owned map[*nn.Base]bool
}

func newTree(gm *fx.GraphModule) *tree {
	return &tree{gm: gm, owned: map[*nn.Base]bool{gm.ModuleBase(): true}}
}

// split returns the parent path and last part of a dotted path.
func split(path string) (string, string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

// own returns the module at path, made a copy owned by t (as are all the
// modules above it).
func (t *tree) own(path string) (nn.Module, error) {
	if path == "" {
		return t.gm, nil
	}
	parentPath, name := split(path)
	parent, err := t.own(parentPath)
	if err != nil {
		return nil, err
	}
	child, ok := parent.ModuleBase().Child(name)
	if !ok {
		return nil, fmt.Errorf("no submodule %q", path)
	}
	if t.owned[child.ModuleBase()] {
		return child, nil
	}
	cp := nn.ShallowCopy(child)
	if err := nn.SetSubmodule(parent, name, cp); err != nil {
		return nil, err
	}
	t.owned[cp.ModuleBase()] = true
	return cp, nil
}

// set installs m at path.
func (t *tree) set(path string, m nn.Module) error {
	parentPath, name := split(path)
	parent, err := t.own(parentPath)
	if err != nil {
		return err
	}
	return nn.SetSubmodule(parent, name, m)
}

// deleteModule removes the module at path.
func (t *tree) deleteModule(path string) error {
	parentPath, name := split(path)
	parent, err := t.own(parentPath)
	if err != nil {
		return err
	}
	return nn.DeleteSubmodule(parent, name)
}

// deleteAttr removes the parameter or buffer at path, and then the modules
// above it that are left empty (no parameter, buffer or submodule) unless
// keep says a module is still referred to.
func (t *tree) deleteAttr(path string, keep func(modPath string) bool) error {
	ownerPath, name := split(path)
	owner, err := t.own(ownerPath)
	if err != nil {
		return err
	}
	if err := nn.DeleteAttr(owner, name); err != nil {
		return err
	}
	for p := ownerPath; p != ""; p, _ = split(p) {
		m, err := nn.Submodule(t.gm, p)
		if err != nil || !empty(m) || keep(p) {
			return nil
		}
		if err := t.deleteModule(p); err != nil {
			return err
		}
	}
	return nil
}

func empty(m nn.Module) bool {
	b := m.ModuleBase()
	for range b.Parameters() {
		return false
	}
	for range b.Buffers() {
		return false
	}
	for range b.Children() {
		return false
	}
	return true
}

// setParam installs a new parameter holding x at path, in place of the
// attribute registered there (whose parent module must exist).
func (t *tree) setParam(path string, x *tensor.Tensor) error {
	ownerPath, name := split(path)
	owner, err := t.own(ownerPath)
	if err != nil {
		return err
	}
	_, err = nn.SetParameter(owner, name, x)
	return err
}

// free reports whether path names nothing in the tree (and its parent
// module exists).
func (t *tree) free(path string) bool {
	ownerPath, name := split(path)
	owner, err := nn.Submodule(t.gm, ownerPath)
	if err != nil {
		return false
	}
	if _, ok := owner.ModuleBase().Child(name); ok {
		return false
	}
	_, err = nn.Attr(owner, name)
	return err != nil
}
