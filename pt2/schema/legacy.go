package schema

import (
	"fmt"
	"reflect"
	"strconv"
)

// Legacy returns a copy of p that PyTorch 2.6 reads: schema version 8.2,
// with the fields 8.2 lacks that only inform (Node.name,
// NamedArgument.kind, Node.is_hop_single_tensor_return, guards_code,
// treespec_namedtuple_fields) cleared. A value that 8.2 cannot express (an
// Argument or OutputSpec member added later, such as as_int_lists or
// parameter_mutation) is an error naming its path.
func (p *ExportedProgram) Legacy() (*ExportedProgram, error) {
	if p == nil {
		return nil, fmt.Errorf("schema: Legacy of a nil program")
	}
	data, err := Marshal(p, StyleCurrent)
	if err != nil {
		return nil, err
	}
	q := new(ExportedProgram)
	if err := Unmarshal(data, q); err != nil {
		return nil, err
	}
	if err := clearNew(reflect.ValueOf(q).Elem(), ""); err != nil {
		return nil, fmt.Errorf("schema: cannot write as 8.%d: %w", LegacyMinor, err)
	}
	q.SchemaVersion = SchemaVersion{Major: SchemaVersionMajor, Minor: LegacyMinor}
	return q, nil
}

// clearNew zeroes the fields tagged new in v and refuses union members
// tagged new.
func clearNew(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return clearNew(v.Elem(), path)
	case reflect.Struct:
		ti := infoOf(v.Type())
		for _, f := range ti.fields {
			fv := v.Field(f.index)
			if f.isNew && !isEmpty(fv) {
				if ti.union {
					return fmt.Errorf("%s: %s.%s has no 8.%d form", pathOr(joinPath(path, f.name)), v.Type().Name(), f.name, LegacyMinor)
				}
				fv.SetZero()
				continue
			}
			if err := clearNew(fv, joinPath(path, f.name)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			if err := clearNew(v.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(iter.Value())
			if err := clearNew(e, joinPath(path, strconv.Quote(iter.Key().String()))); err != nil {
				return err
			}
			v.SetMapIndex(iter.Key(), e)
		}
	}
	return nil
}
