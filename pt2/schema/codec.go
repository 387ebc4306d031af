package schema

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Style is the JSON form Marshal writes.
type Style int

const (
	// StyleCurrent is the form of PyTorch ≥ 2.8 (schema 8.20 in 2.14): every
	// field is written, None as null.
	StyleCurrent Style = iota
	// StyleLegacy is the form of PyTorch ≤ 2.7 (schema 8.2 in 2.6): a field
	// whose Python default is None is omitted when None, and the fields schema
	// 8.2 lacks are omitted when they hold their zero value (any other value
	// is an error, since PyTorch 2.6 refuses fields it does not know).
	StyleLegacy
)

// Decode parses a serialized ExportedProgram strictly: an unknown field, an
// unknown union tag, a union with other than one member, an out-of-range
// enum value, a value of the wrong JSON type or a schema major version
// other than 8 is an error naming its JSON path and the file's schema
// version. Missing fields take schema.py's defaults (zero values, nil for
// Optional fields, "<=2.4" for torch_version).
func Decode(data []byte) (*ExportedProgram, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if root.kind != jObject {
		return nil, fmt.Errorf("schema: the program is a JSON %s, want an object", root.kind)
	}
	var ver SchemaVersion
	found := false
	for _, m := range root.obj {
		if m.key == "schema_version" {
			if err := (&decoder{}).decode(m.val, reflect.ValueOf(&ver).Elem(), "schema_version"); err != nil {
				return nil, fmt.Errorf("schema: %w", err)
			}
			found = true
		}
	}
	if !found {
		return nil, errors.New("schema: the program has no schema_version")
	}
	vs := fmt.Sprintf("%d.%d", ver.Major, ver.Minor)
	if ver.Major != SchemaVersionMajor {
		return nil, fmt.Errorf("schema: unsupported schema version %s (this reader knows %d.x up to %d.%d)",
			vs, SchemaVersionMajor, SchemaVersionMajor, SchemaVersionMinor)
	}
	p := new(ExportedProgram)
	if err := (&decoder{}).decode(root, reflect.ValueOf(p).Elem(), ""); err != nil {
		return nil, fmt.Errorf("schema %s: %w", vs, err)
	}
	return p, nil
}

// Encode writes p as PyTorch does (json.dumps of the dataclasses: fields in
// schema.py's order, unions as one-key objects, enums as ints), in the style
// of its schema version: StyleLegacy for 8.0–8.LegacyMinor, StyleCurrent
// for later versions. Map keys are written sorted, so the output is
// deterministic; their digit runs compare as numbers (s6 before s11), which
// is the order PyTorch writes symbols in.
func Encode(p *ExportedProgram) ([]byte, error) {
	if p == nil {
		return nil, errors.New("schema: Encode of a nil program")
	}
	if p.SchemaVersion.Major != SchemaVersionMajor {
		return nil, fmt.Errorf("schema: cannot write schema version %d.%d (only %d.x)",
			p.SchemaVersion.Major, p.SchemaVersion.Minor, SchemaVersionMajor)
	}
	style := StyleCurrent
	if p.SchemaVersion.Minor <= LegacyMinor {
		style = StyleLegacy
	}
	return Marshal(p, style)
}

// Unmarshal decodes JSON into v, a pointer to one of this package's types,
// with Decode's strictness (without its version check).
func Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("schema: Unmarshal needs a non-nil pointer")
	}
	root, err := parseJSON(data)
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	if err := (&decoder{}).decode(root, rv.Elem(), ""); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	return nil
}

// Marshal encodes v, one of this package's types or a pointer to one, in
// the given style.
func Marshal(v any, style Style) ([]byte, error) {
	e := &encoder{legacy: style == StyleLegacy}
	if err := e.encode(reflect.ValueOf(v), ""); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return []byte(e.sb.String()), nil
}

// Type information, computed once per struct type.

type fieldInfo struct {
	name     string
	index    int
	omitNone bool
	isNew    bool
}

type typeInfo struct {
	union  bool
	fields []fieldInfo
	byName map[string]int // index into fields
}

var typeInfos sync.Map // reflect.Type -> *typeInfo

type unioner interface{ isUnion() }

type enumer interface {
	enumValid() bool
	String() string
}

type defaulter interface{ setDefaults() }

var (
	unionType     = reflect.TypeFor[unioner]()
	enumType      = reflect.TypeFor[enumer]()
	defaulterType = reflect.TypeFor[defaulter]()
)

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{union: t.Implements(unionType), byName: map[string]int{}}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "" {
			continue
		}
		fi := fieldInfo{name: tag, index: i}
		for _, o := range strings.Split(f.Tag.Get("pt2"), ",") {
			switch o {
			case "omitnone":
				fi.omitNone = true
			case "new":
				fi.isNew = true
			}
		}
		ti.byName[fi.name] = len(ti.fields)
		ti.fields = append(ti.fields, fi)
	}
	typeInfos.Store(t, ti)
	return ti
}

// Tag returns the JSON name of the field set in u, a union of this
// package (*Argument, *SymInt, ...): "as_tensor", "as_int". It returns ""
// when no field is set or u is not a union.
func Tag(u any) string {
	rv := reflect.ValueOf(u)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return ""
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return ""
	}
	ti := infoOf(rv.Type())
	if !ti.union {
		return ""
	}
	for _, f := range ti.fields {
		if isSet(rv.Field(f.index)) {
			return f.name
		}
	}
	return ""
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func pathOr(path string) string {
	if path == "" {
		return "(top level)"
	}
	return path
}

type decoder struct{}

func (d *decoder) errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s", pathOr(path), fmt.Sprintf(format, args...))
}

func (d *decoder) want(v *jvalue, k jkind, path string, t reflect.Type) error {
	if v.kind != k {
		return d.errorf(path, "got a JSON %s, want a %s for %s", v.kind, k, typeName(t))
	}
	return nil
}

func typeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "list of " + typeName(t.Elem())
	case reflect.Map:
		return "dict of " + typeName(t.Elem())
	case reflect.Pointer:
		return typeName(t.Elem())
	case reflect.Int64:
		return "int"
	case reflect.Float64:
		return "float"
	}
	return t.Name()
}

// decode decodes v into rv (settable). A null for a pointer, or for an
// Optional list (nullable), leaves it nil.
func (d *decoder) decode(v *jvalue, rv reflect.Value, path string) error {
	return d.decodeOpt(v, rv, path, false)
}

func (d *decoder) decodeOpt(v *jvalue, rv reflect.Value, path string, nullable bool) error {
	t := rv.Type()
	switch t.Kind() {
	case reflect.Pointer:
		if v.kind == jNull {
			rv.SetZero()
			return nil
		}
		p := reflect.New(t.Elem())
		if err := d.decode(v, p.Elem(), path); err != nil {
			return err
		}
		rv.Set(p)
		return nil
	case reflect.Struct:
		if err := d.want(v, jObject, path, t); err != nil {
			return err
		}
		ti := infoOf(t)
		if ti.union {
			if len(v.obj) != 1 {
				keys := make([]string, len(v.obj))
				for i, m := range v.obj {
					keys[i] = m.key
				}
				return d.errorf(path, "%s is a union: want one key, got %d %q", t.Name(), len(v.obj), keys)
			}
			m := v.obj[0]
			i, ok := ti.byName[m.key]
			if !ok {
				return d.errorf(path, "unknown union tag %q for %s", m.key, t.Name())
			}
			if m.val.kind == jNull {
				return d.errorf(joinPath(path, m.key), "null value for a union member of %s", t.Name())
			}
			return d.decode(m.val, rv.Field(ti.fields[i].index), joinPath(path, m.key))
		}
		if rv.CanAddr() && reflect.PointerTo(t).Implements(defaulterType) {
			rv.Addr().Interface().(defaulter).setDefaults()
		}
		for _, m := range v.obj {
			i, ok := ti.byName[m.key]
			if !ok {
				return d.errorf(path, "unknown field %q of %s", m.key, t.Name())
			}
			f := ti.fields[i]
			fv := rv.Field(f.index)
			if m.val.kind == jNull && fv.Kind() != reflect.Pointer && !(f.omitNone && fv.Kind() == reflect.Slice) {
				return d.errorf(joinPath(path, m.key), "null for a field of type %s that is not Optional", typeName(fv.Type()))
			}
			if err := d.decodeOpt(m.val, fv, joinPath(path, m.key), f.omitNone); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		if nullable && v.kind == jNull {
			rv.SetZero()
			return nil
		}
		if err := d.want(v, jArray, path, t); err != nil {
			return err
		}
		s := reflect.MakeSlice(t, len(v.arr), len(v.arr))
		for i, e := range v.arr {
			if err := d.decode(e, s.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		rv.Set(s)
		return nil
	case reflect.Map:
		if err := d.want(v, jObject, path, t); err != nil {
			return err
		}
		mp := reflect.MakeMapWithSize(t, len(v.obj))
		for _, m := range v.obj {
			e := reflect.New(t.Elem()).Elem()
			if err := d.decode(m.val, e, joinPath(path, strconv.Quote(m.key))); err != nil {
				return err
			}
			mp.SetMapIndex(reflect.ValueOf(m.key).Convert(t.Key()), e)
		}
		rv.Set(mp)
		return nil
	case reflect.String:
		if err := d.want(v, jString, path, t); err != nil {
			return err
		}
		rv.SetString(v.s)
		return nil
	case reflect.Bool:
		if err := d.want(v, jBool, path, t); err != nil {
			return err
		}
		rv.SetBool(v.b)
		return nil
	case reflect.Int, reflect.Int64:
		if err := d.want(v, jNumber, path, t); err != nil {
			return err
		}
		n, err := strconv.ParseInt(v.s, 10, 64)
		if err != nil {
			return d.errorf(path, "%s is not a 64-bit integer", v.s)
		}
		rv.SetInt(n)
		if t.Implements(enumType) {
			if e := rv.Interface().(enumer); !e.enumValid() {
				return d.errorf(path, "value %d is out of range for %s", n, t.Name())
			}
		}
		return nil
	case reflect.Float64:
		var f float64
		switch {
		case v.kind == jNumber:
			var err error
			f, err = parseFloat(v.s)
			if err != nil {
				return d.errorf(path, "%s is not a float", v.s)
			}
		case v.kind == jString && (v.s == "Infinity" || v.s == "-Infinity" || v.s == "NaN"):
			f, _ = parseFloat(v.s)
		default:
			return d.errorf(path, "got a JSON %s, want a number for float", v.kind)
		}
		rv.SetFloat(f)
		return nil
	}
	return d.errorf(path, "internal: cannot decode into %s", t)
}

func parseFloat(s string) (float64, error) {
	switch s {
	case "Infinity":
		return math.Inf(1), nil
	case "-Infinity":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, err
	}
	return f, nil // Python reads 1e999 as inf too
}

type encoder struct {
	sb     strings.Builder
	legacy bool
}

func (e *encoder) errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s", pathOr(path), fmt.Sprintf(format, args...))
}

func isSet(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		return !v.IsNil()
	}
	return !v.IsZero()
}

// isEmpty reports a nil pointer, an empty slice or map, or a zero value.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return v.IsNil()
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	}
	return v.IsZero()
}

func (e *encoder) encode(rv reflect.Value, path string) error {
	return e.encodeOpt(rv, path, false)
}

func (e *encoder) encodeOpt(rv reflect.Value, path string, nullable bool) error {
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			e.sb.WriteString("null")
			return nil
		}
		return e.encode(rv.Elem(), path)
	case reflect.Struct:
		t := rv.Type()
		ti := infoOf(t)
		if ti.union {
			var set []fieldInfo
			for _, f := range ti.fields {
				if isSet(rv.Field(f.index)) {
					set = append(set, f)
				}
			}
			if len(set) != 1 {
				names := make([]string, len(set))
				for i, f := range set {
					names[i] = f.name
				}
				return e.errorf(path, "%s is a union: want exactly one member set, have %d %q", t.Name(), len(set), names)
			}
			f := set[0]
			if e.legacy && f.isNew {
				return e.errorf(path, "%s.%s needs schema 8.%d or later (not in the legacy schema 8.%d)", t.Name(), f.name, LegacyMinor+1, LegacyMinor)
			}
			e.sb.WriteByte('{')
			writePyString(&e.sb, f.name)
			e.sb.WriteString(": ")
			if err := e.encode(rv.Field(f.index), joinPath(path, f.name)); err != nil {
				return err
			}
			e.sb.WriteByte('}')
			return nil
		}
		e.sb.WriteByte('{')
		first := true
		for _, f := range ti.fields {
			fv := rv.Field(f.index)
			if e.legacy {
				if f.isNew {
					if isEmpty(fv) {
						continue
					}
					return e.errorf(joinPath(path, f.name), "%s.%s needs schema 8.%d or later (not in the legacy schema 8.%d)", t.Name(), f.name, LegacyMinor+1, LegacyMinor)
				}
				if f.omitNone && !isSet(fv) {
					continue
				}
			}
			if !first {
				e.sb.WriteString(", ")
			}
			first = false
			writePyString(&e.sb, f.name)
			e.sb.WriteString(": ")
			if err := e.encodeOpt(fv, joinPath(path, f.name), f.omitNone); err != nil {
				return err
			}
		}
		e.sb.WriteByte('}')
		return nil
	case reflect.Slice:
		if rv.IsNil() && nullable {
			e.sb.WriteString("null")
			return nil
		}
		e.sb.WriteByte('[')
		for i := range rv.Len() {
			if i > 0 {
				e.sb.WriteString(", ")
			}
			if err := e.encode(rv.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		e.sb.WriteByte(']')
		return nil
	case reflect.Map:
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.SortFunc(keys, naturalCompare)
		e.sb.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				e.sb.WriteString(", ")
			}
			writePyString(&e.sb, k)
			e.sb.WriteString(": ")
			if err := e.encode(rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())), joinPath(path, strconv.Quote(k))); err != nil {
				return err
			}
		}
		e.sb.WriteByte('}')
		return nil
	case reflect.String:
		writePyString(&e.sb, rv.String())
		return nil
	case reflect.Bool:
		if rv.Bool() {
			e.sb.WriteString("true")
		} else {
			e.sb.WriteString("false")
		}
		return nil
	case reflect.Int, reflect.Int64:
		if en, ok := rv.Interface().(enumer); ok && !en.enumValid() {
			return e.errorf(path, "value %d is out of range for %s", rv.Int(), rv.Type().Name())
		}
		e.sb.WriteString(strconv.FormatInt(rv.Int(), 10))
		return nil
	case reflect.Float64:
		e.sb.WriteString(pyFloat(rv.Float()))
		return nil
	case reflect.Invalid:
		e.sb.WriteString("null")
		return nil
	}
	return e.errorf(path, "internal: cannot encode %s", rv.Type())
}

// naturalCompare orders strings with their digit runs compared as numbers,
// so that symbols come out as PyTorch creates them: s6 before s11, u2
// before u10. Strings equal as numbers fall back to byte order.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return int(ca) - int(cb)
		}
		i++
		j++
	}
	if c := (len(a) - i) - (len(b) - j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Quote returns s as json.dumps writes a str: in double quotes, ASCII only.
func Quote(s string) string {
	var sb strings.Builder
	writePyString(&sb, s)
	return sb.String()
}

func enumString[K ~int](names map[K]string, v int, typ string) string {
	if s, ok := names[K(v)]; ok {
		return s
	}
	return typ + "(" + strconv.Itoa(v) + ")"
}
