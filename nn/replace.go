package nn

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gofx/gofx/tensor"
)

// splitPath returns the parent path and the last part of a dotted path.
func splitPath(path string) (parent, name string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

// SetSubmodule installs m as the submodule at the dotted path below root
// (torch.nn.Module.set_submodule): it replaces the module registered there,
// keeping its position in the registration order (and so in the state
// dict), or adds m as the last child of the parent. The parent must exist,
// and the name must not be taken by a parameter or buffer.
//
// SetSubmodule edits the parent module in place; a module tree that shares
// modules with another one (a GraphModule shares its traced model's) should
// copy the modules on the path first (see ShallowCopy).
func SetSubmodule(root Module, path string, m Module) error {
	if root == nil {
		return fmt.Errorf("nn: SetSubmodule(%q): nil root module", path)
	}
	if m == nil || reflect.ValueOf(m).IsNil() {
		return fmt.Errorf("nn: SetSubmodule(%q): nil module", path)
	}
	parentPath, name := splitPath(path)
	if err := checkName("module", name); err != nil {
		return fmt.Errorf("nn: SetSubmodule(%q): %w", path, err)
	}
	parent, err := Submodule(root, parentPath)
	if err != nil {
		return fmt.Errorf("nn: SetSubmodule(%q): %w", path, err)
	}
	b := adopt(parent)
	defer b.reindex()
	adopt(m)
	for i, c := range b.children {
		if c.name == name {
			b.children[i].m = m
			return nil
		}
	}
	if b.taken(name) {
		return fmt.Errorf("nn: SetSubmodule(%q): %q is a parameter or buffer of %s", path, name, b.TypeName())
	}
	b.children = append(b.children, namedModule{name, m})
	return nil
}

// DeleteSubmodule removes the submodule at the dotted path below root
// (torch.nn.Module.delete_submodule), editing its parent in place.
func DeleteSubmodule(root Module, path string) error {
	if root == nil {
		return fmt.Errorf("nn: DeleteSubmodule(%q): nil root module", path)
	}
	parentPath, name := splitPath(path)
	parent, err := Submodule(root, parentPath)
	if err != nil {
		return fmt.Errorf("nn: DeleteSubmodule(%q): %w", path, err)
	}
	b := adopt(parent)
	defer b.reindex()
	for i, c := range b.children {
		if c.name == name {
			b.children = slices.Delete(b.children, i, i+1)
			return nil
		}
	}
	return fmt.Errorf("nn: DeleteSubmodule(%q): %s has no submodule %q", path, b.TypeName(), name)
}

// DeleteAttr removes the parameter or buffer at the dotted path below root
// (`layer1.0.bn1.running_mean`), editing its owner in place.
func DeleteAttr(root Module, path string) error {
	if root == nil {
		return fmt.Errorf("nn: DeleteAttr(%q): nil root module", path)
	}
	ownerPath, name := splitPath(path)
	owner, err := Submodule(root, ownerPath)
	if err != nil {
		return fmt.Errorf("nn: DeleteAttr(%q): %w", path, err)
	}
	b := adopt(owner)
	defer b.reindex()
	for i, p := range b.params {
		if p.name == name {
			b.params = slices.Delete(b.params, i, i+1)
			return nil
		}
	}
	for i, x := range b.buffers {
		if x.name == name {
			b.buffers = slices.Delete(b.buffers, i, i+1)
			return nil
		}
	}
	return fmt.Errorf("nn: DeleteAttr(%q): %s has no parameter or buffer %q", path, b.TypeName(), name)
}

// Shell is a module made by ShallowCopy: it holds another module's
// parameters, buffers and submodules under their names, with its type name
// and training flag, and has no Forward of its own.
type Shell struct {
	Base
}

// ShallowCopy returns a new module with m's type name and training flag
// that holds the same parameter, buffer and submodule objects as m, under
// the same names and in the same order (so its state dict equals m's).
// Registering, replacing or deleting entries of the copy leaves m as it
// was: passes that edit a module tree shared with a user's model (a
// GraphModule's) copy the modules on the path they edit.
//
// The copy is a *Shell, which has no Forward: it stands for m as a
// namespace of attributes and submodules (what a GraphModule's call_module
// and get_attr targets need), not as code to run.
func ShallowCopy(m Module) *Shell {
	src := adopt(m)
	s := &Shell{}
	s.Init(s, src.TypeName())
	s.params = slices.Clone(src.params)
	s.buffers = slices.Clone(src.buffers)
	s.children = slices.Clone(src.children)
	s.evalMode = src.evalMode
	s.err = src.err
	return s
}

// SetParameter installs a new parameter holding t at the dotted path below
// root (`conv1.weight`) and returns it. It takes the place of the
// parameter registered there, keeping its position in the state dict; a
// buffer of that name is removed and the parameter added last, as is a
// parameter under a new name. The previous Parameter object is not
// changed (a module tree that shares it still holds its tensor), but its
// owner module is edited in place (see ShallowCopy).
func SetParameter(root Module, path string, t *tensor.Tensor) (*Parameter, error) {
	if root == nil {
		return nil, fmt.Errorf("nn: SetParameter(%q): nil root module", path)
	}
	ownerPath, name := splitPath(path)
	if err := checkName("parameter", name); err != nil {
		return nil, fmt.Errorf("nn: SetParameter(%q): %w", path, err)
	}
	owner, err := Submodule(root, ownerPath)
	if err != nil {
		return nil, fmt.Errorf("nn: SetParameter(%q): %w", path, err)
	}
	b := adopt(owner)
	defer b.reindex()
	p := &Parameter{slot{t: t}}
	for i, x := range b.params {
		if x.name == name {
			b.params[i].p = p
			return p, nil
		}
	}
	for i, x := range b.buffers {
		if x.name == name {
			b.buffers = slices.Delete(b.buffers, i, i+1)
			break
		}
	}
	if _, ok := b.Child(name); ok {
		return nil, fmt.Errorf("nn: SetParameter(%q): %q is a submodule of %s", path, name, b.TypeName())
	}
	b.params = append(b.params, namedParam{name, p})
	return p, nil
}
