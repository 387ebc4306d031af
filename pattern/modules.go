package pattern

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
)

// moduleConfig returns what a call_module pattern node compares besides the
// module's Go type: its configuration, as nn.Repr prints it (the type name,
// extra_repr and the children's) followed by the exported fields of basic
// kinds (numbers, strings, booleans and slices of them), so that a module
// without an ExtraRepr is still compared by its settings. Tensors and
// submodules are not configuration: a Linear pattern matches any Linear of
// the same sizes, whatever its weights.
func moduleConfig(m nn.Module) string {
	var b strings.Builder
	b.WriteString(nn.Repr(m))
	v := reflect.ValueOf(m)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return b.String()
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return b.String()
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || f.Anonymous || !basicKind(f.Type) {
			continue
		}
		fmt.Fprintf(&b, " %s=%v", f.Name, v.Field(i).Interface())
	}
	return b.String()
}

func basicKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	case reflect.Slice, reflect.Array:
		return basicKind(t.Elem())
	}
	return false
}

// modInfo is what the matcher knows of a target module path.
type modInfo struct {
	typ    reflect.Type
	config string
}

// isTensorAttr reports whether path names a parameter or buffer of root.
func isTensorAttr(root nn.Module, path string) bool {
	if root == nil {
		return false
	}
	_, err := nn.Attr(root, path)
	return err == nil
}

// modTree edits a target GraphModule's module tree copy-on-write: a
// GraphModule shares its traced model's modules, so before a module on an
// edited path changes it is replaced in its parent by a shallow copy
// (nn.ShallowCopy) that the tree owns; the user's modules are never edited.
type modTree struct {
	gm    *fx.GraphModule
	owned map[*nn.Base]bool
}

func newModTree(gm *fx.GraphModule) *modTree {
	return &modTree{gm: gm, owned: map[*nn.Base]bool{gm.ModuleBase(): true}}
}

// own returns the module at path, made a module the tree owns (as are the
// ones above it); missing modules on the path are created empty, as
// torch.fx's GraphModule.add_submodule does.
func (t *modTree) own(path string) (nn.Module, error) {
	if path == "" {
		return t.gm, nil
	}
	parentPath, name := splitPath(path)
	parent, err := t.own(parentPath)
	if err != nil {
		return nil, err
	}
	child, ok := parent.ModuleBase().Child(name)
	if !ok {
		s := &nn.Shell{}
		s.Init(s, "Module")
		if err := nn.SetSubmodule(parent, name, s); err != nil {
			return nil, err
		}
		t.owned[s.ModuleBase()] = true
		return s, nil
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

// setModule installs mod at path.
func (t *modTree) setModule(path string, mod nn.Module) error {
	parentPath, name := splitPath(path)
	parent, err := t.own(parentPath)
	if err != nil {
		return err
	}
	return nn.SetSubmodule(parent, name, mod)
}

// setAttr installs a parameter, buffer or module (what nn.Attr or
// nn.Submodule returned for another tree) at path.
func (t *modTree) setAttr(path string, attr any) error {
	if mod, ok := attr.(nn.Module); ok {
		return t.setModule(path, mod)
	}
	ownerPath, name := splitPath(path)
	owner, err := t.own(ownerPath)
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

// deleteUnused removes the modules at paths (those the replaced nodes
// called) that no node of the graph refers to any more, neither at the path
// nor below it, as torch.fx's delete_all_unused_submodules does for them.
func (t *modTree) deleteUnused(paths []string) error {
	if t == nil || len(paths) == 0 {
		return nil
	}
	used := map[string]bool{}
	for n := range t.gm.Graph.Nodes() {
		if n.Op() != node.CallModule && n.Op() != node.GetAttr {
			continue
		}
		for p := n.Target().String(); p != ""; p, _ = splitPath(p) {
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
		if _, err := nn.Submodule(t.gm, p); err != nil {
			continue
		}
		parentPath, name := splitPath(p)
		parent, err := t.own(parentPath)
		if err != nil {
			return err
		}
		if err := nn.DeleteSubmodule(parent, name); err != nil {
			return err
		}
	}
	return nil
}

// splitPath returns the parent path and the last part of a dotted path.
func splitPath(path string) (parent, name string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}
