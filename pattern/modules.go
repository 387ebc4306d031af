package pattern

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/gofx/gofx/nn"
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
