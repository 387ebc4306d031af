package fx

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// ModuleEditor edits a GraphModule's module tree copy-on-write. A
// GraphModule shares its traced model's modules, so before a module on an
// edited path changes, it is replaced in its parent by a shallow copy
// (nn.ShallowCopy) that the editor owns: the user's modules are never
// edited. The GraphModule itself is always owned. Pattern replacement and
// the passes that fold weights or fuse layers edit modules through it.
type ModuleEditor struct {
	gm    *GraphModule
	owned map[*nn.Base]bool
}

// NewModuleEditor returns an editor of gm's module tree.
func NewModuleEditor(gm *GraphModule) *ModuleEditor {
	return &ModuleEditor{gm: gm, owned: map[*nn.Base]bool{gm.ModuleBase(): true}}
}

// GraphModule returns the GraphModule whose tree e edits.
func (e *ModuleEditor) GraphModule() *GraphModule { return e.gm }

// SplitPath returns the parent path and the last part of a dotted path
// ("layer1.0.conv" gives "layer1.0" and "conv").
func SplitPath(path string) (parent, name string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

// Own returns the module at path, made a module the editor owns (as are
// the ones above it). A missing module on the path is an error.
func (e *ModuleEditor) Own(path string) (nn.Module, error) { return e.own(path, false) }

// own is Own; with create, missing modules on the path are created empty,
// as torch.fx's GraphModule.add_submodule does.
func (e *ModuleEditor) own(path string, create bool) (nn.Module, error) {
	if path == "" {
		return e.gm, nil
	}
	parentPath, name := SplitPath(path)
	parent, err := e.own(parentPath, create)
	if err != nil {
		return nil, err
	}
	child, ok := parent.ModuleBase().Child(name)
	if !ok {
		if !create {
			return nil, fmt.Errorf("no submodule %q", path)
		}
		s := &nn.Shell{}
		s.Init(s, "Module")
		if err := nn.SetSubmodule(parent, name, s); err != nil {
			return nil, err
		}
		e.owned[s.ModuleBase()] = true
		return s, nil
	}
	if e.owned[child.ModuleBase()] {
		return child, nil
	}
	cp := nn.ShallowCopy(child)
	if err := nn.SetSubmodule(parent, name, cp); err != nil {
		return nil, err
	}
	e.owned[cp.ModuleBase()] = true
	return cp, nil
}

// SetModule installs mod at path, creating missing modules above it.
func (e *ModuleEditor) SetModule(path string, mod nn.Module) error {
	parentPath, name := SplitPath(path)
	parent, err := e.own(parentPath, true)
	if err != nil {
		return err
	}
	return nn.SetSubmodule(parent, name, mod)
}

// SetAttr installs a parameter, buffer or module (what nn.Attr or
// nn.Submodule returned for another tree) at path, sharing it.
func (e *ModuleEditor) SetAttr(path string, attr any) error {
	if mod, ok := attr.(nn.Module); ok {
		return e.SetModule(path, mod)
	}
	ownerPath, name := SplitPath(path)
	owner, err := e.own(ownerPath, true)
	if err != nil {
		return err
	}
	b := owner.ModuleBase()
	switch a := attr.(type) {
	case *nn.Parameter:
		b.ShareParameter(name, a)
	case *nn.Buffer:
		b.ShareBuffer(name, a)
	default:
		return fmt.Errorf("%s is a %T, not a parameter, buffer or module", path, attr)
	}
	return nn.Err(owner)
}

// SetParameter installs a new parameter holding x at path, in place of the
// attribute registered there (whose module must exist).
func (e *ModuleEditor) SetParameter(path string, x *tensor.Tensor) error {
	ownerPath, name := SplitPath(path)
	owner, err := e.Own(ownerPath)
	if err != nil {
		return err
	}
	_, err = nn.SetParameter(owner, name, x)
	return err
}

// DeleteModule removes the module at path.
func (e *ModuleEditor) DeleteModule(path string) error {
	parentPath, name := SplitPath(path)
	parent, err := e.Own(parentPath)
	if err != nil {
		return err
	}
	return nn.DeleteSubmodule(parent, name)
}

// DeleteAttr removes the parameter or buffer at path, and then the modules
// above it that are left empty (no parameter, buffer or submodule) unless
// keep says a module is still referred to.
func (e *ModuleEditor) DeleteAttr(path string, keep func(modPath string) bool) error {
	ownerPath, name := SplitPath(path)
	owner, err := e.Own(ownerPath)
	if err != nil {
		return err
	}
	if err := nn.DeleteAttr(owner, name); err != nil {
		return err
	}
	for p := ownerPath; p != ""; p, _ = SplitPath(p) {
		m, err := nn.Submodule(e.gm, p)
		if err != nil || !emptyModule(m) || keep(p) {
			return nil
		}
		if err := e.DeleteModule(p); err != nil {
			return err
		}
	}
	return nil
}

// DeleteUnused removes the modules at paths that no call_module or
// get_attr node of the graph refers to any more, neither at the path nor
// below it, as torch.fx's delete_all_unused_submodules does for them.
// A nil editor has nothing to delete.
func (e *ModuleEditor) DeleteUnused(paths []string) error {
	if e == nil || len(paths) == 0 {
		return nil
	}
	used := map[string]bool{}
	for n := range e.gm.Graph.Nodes() {
		if n.Op() != node.CallModule && n.Op() != node.GetAttr {
			continue
		}
		for p := n.Target().String(); p != ""; p, _ = SplitPath(p) {
			if used[p] {
				break
			}
			used[p] = true
		}
	}
	done := map[string]bool{}
	for _, p := range paths {
		if used[p] || done[p] {
			continue
		}
		done[p] = true
		if _, err := nn.Submodule(e.gm, p); err != nil {
			continue
		}
		if err := e.DeleteModule(p); err != nil {
			return err
		}
	}
	return nil
}

// Free reports whether path names nothing in the tree (and its parent
// module exists).
func (e *ModuleEditor) Free(path string) bool {
	ownerPath, name := SplitPath(path)
	owner, err := nn.Submodule(e.gm, ownerPath)
	if err != nil {
		return false
	}
	if _, ok := owner.ModuleBase().Child(name); ok {
		return false
	}
	_, err = nn.Attr(owner, name)
	return err != nil
}

// emptyModule reports whether m has no parameter, buffer or submodule.
func emptyModule(m nn.Module) bool {
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
