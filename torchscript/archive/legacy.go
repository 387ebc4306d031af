package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// The format of PyTorch 1.0 to 1.2 ("legacy" in PyTorch's sources:
// torch/csrc/jit/serialization/import_legacy.cpp) describes the module tree
// in model.json, the JSON form of caffe2/proto/torch.proto's ModelDef:
//
//	{"protoVersion": "3", "producerName": "pytorch", "producerVersion": "1.0",
//	 "mainModule": {"name": "model", "parameters": [{"name": "weight", "tensorId": "0"}],
//	                "attributes": [{"type": "int", "name": "n", "id": "0"}],
//	                "torchscriptArena": {"key": "code/model.py"},
//	                "submodules": [...]},
//	 "tensors": [{"dims": ["2", "3"], "strides": ["3", "1"], "offset": "0",
//	              "dataType": "FLOAT", "data": {"key": "tensors/0"}, "device": "cpu"}]}
//
// Each module's methods are top-level defs in its torchscriptArena record
// (after an "op_version_set = N" line), the classes they use are in
// libs/ (as code/ holds them in later archives), the tensor table's
// storages are raw records (tensors/N), and the attributes' values are the
// tuple (a list for protoVersion 2) pickled in attributes.pkl, whose
// tensors are references into the tensor table. The CONSTANTS.cN of the
// code index that same tensor table.
//
// readLegacy turns such an archive into the form of later ones: a class
// per module (named as PyTorch's legacy importer names it: "__torch__."
// followed by the module path, digit-only names prefixed with "_"), with
// the module's parameters, buffers, submodules and attributes declared and
// its methods, and an Object per module holding their values.

// maxLegacyDepth bounds the nesting of submodules in model.json.
const maxLegacyDepth = 200

// pbInt is an int64 of protobuf's JSON mapping: a string ("12") or a
// number.
type pbInt int64

func (n *pbInt) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%s is not an int64", b)
	}
	*n = pbInt(v)
	return nil
}

// pbDataType is caffe2.TensorProto.DataType: its name or its number.
type pbDataType string

func (d *pbDataType) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*d = pbDataType(s)
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("dataType %s is neither a name nor a number", b)
	}
	for name, v := range caffe2Types {
		if v.num == n {
			*d = pbDataType(name)
			return nil
		}
	}
	*d = pbDataType(strconv.Itoa(n))
	return nil
}

// caffe2Types maps caffe2.TensorProto.DataType to dtypes (as
// caffe2::DataTypeToTypeMeta does; BYTE is uint8).
var caffe2Types = map[string]struct {
	num int
	dt  tensor.DType
}{
	"FLOAT": {1, tensor.Float32}, "INT32": {2, tensor.Int32}, "BYTE": {3, tensor.Uint8},
	"BOOL": {5, tensor.Bool}, "UINT8": {6, tensor.Uint8}, "INT8": {7, tensor.Int8},
	"INT16": {9, tensor.Int16}, "INT64": {10, tensor.Int64}, "FLOAT16": {12, tensor.Float16},
	"DOUBLE": {13, tensor.Float64},
}

type legacyRecordRef struct {
	Key string `json:"key"`
}

type legacyTensor struct {
	Dims         []pbInt          `json:"dims"`
	Offset       pbInt            `json:"offset"`
	Strides      []pbInt          `json:"strides"`
	RequiresGrad bool             `json:"requiresGrad"`
	DataType     pbDataType       `json:"dataType"`
	Data         *legacyRecordRef `json:"data"`
	Device       string           `json:"device"`
	IsQuantized  bool             `json:"isQuantized"`
}

type legacyParameter struct {
	IsBuffer bool   `json:"isBuffer"`
	TensorID *pbInt `json:"tensorId"`
	Name     string `json:"name"`
}

type legacyAttribute struct {
	Type string `json:"type"`
	Name string `json:"name"`
	ID   *pbInt `json:"id"`
}

type legacyModule struct {
	Submodules            []*legacyModule   `json:"submodules"`
	TorchscriptArena      *legacyRecordRef  `json:"torchscriptArena"`
	Parameters            []legacyParameter `json:"parameters"`
	Name                  string            `json:"name"`
	Attributes            []legacyAttribute `json:"attributes"`
	GetStateAttributeID   *pbInt            `json:"getStateAttributeId"`
	TorchscriptDebugArena *legacyRecordRef  `json:"torchscriptDebugArena"`
}

type legacyModel struct {
	ProtoVersion    pbInt          `json:"protoVersion"`
	MainModule      *legacyModule  `json:"mainModule"`
	ProducerName    string         `json:"producerName"`
	ProducerVersion string         `json:"producerVersion"`
	Tensors         []legacyTensor `json:"tensors"`
}

var (
	identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// typeRE is what an attribute's type may hold: names, dots, brackets,
	// commas and spaces (it becomes part of a synthesized class).
	typeRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\[\], ]*$`)
)

// tensorRef is a tensor of the legacy tensor table, as attributes.pkl
// refers to it (torch.jit._pickle.build_tensor_from_id, or the
// __main__.TensorID of PyTorch 1.1's pickler).
type tensorRef struct {
	id  int64
	set bool
}

// Build takes the id BUILD gives a __main__.TensorID object.
func (r *tensorRef) Build(state pickle.Value) error {
	id, ok := state.(int64)
	if !ok || r.set {
		return fmt.Errorf("__main__.TensorID built with %s, not a tensor id", pickle.TypeName(state))
	}
	r.id, r.set = id, true
	return nil
}

// findLegacyGlobal resolves the globals of attributes.pkl: the tensor
// table references, then those of later archives.
func findLegacyGlobal(module, name string) (pickle.Value, error) {
	switch module + "." + name {
	case "torch.jit._pickle.build_tensor_from_id":
		return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("build_tensor_from_id: expected 1 argument, got %d", len(args))
			}
			id, ok := args[0].(int64)
			if !ok {
				return nil, fmt.Errorf("build_tensor_from_id: argument is %s, not an int", pickle.TypeName(args[0]))
			}
			return &tensorRef{id: id, set: true}, nil
		}), nil
	case "__main__.TensorID":
		return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) {
			if len(args) != 0 {
				return nil, fmt.Errorf("__main__.TensorID: expected no arguments, got %d", len(args))
			}
			return &tensorRef{}, nil
		}), nil
	}
	return findGlobal(module, name)
}

// readLegacy reads an archive of PyTorch 1.0 to 1.2 (model.json).
func (a *Archive) readLegacy(z *torchio.Archive, lim Limits) error {
	if err := a.readVersion(z); err != nil {
		return err
	}
	a.Legacy = true
	b, err := z.ReadRecord("model.json", lim.MaxText)
	if err != nil {
		return err
	}
	var m legacyModel
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&m); err != nil {
		return fmt.Errorf("model.json: %w", err)
	}
	a.ProtoVersion = int(m.ProtoVersion)
	if m.ProtoVersion < 1 || m.ProtoVersion >= 6 {
		return fmt.Errorf("model.json: protoVersion %d is outside 1 to 5 (PyTorch's legacy reader's range)", m.ProtoVersion)
	}
	if m.MainModule == nil {
		return errors.New("model.json: no mainModule")
	}
	budget := lim.MaxText - int64(len(b))
	text := func(name string) ([]byte, error) {
		if budget <= 0 {
			return nil, fmt.Errorf("%s: the code records, model.json and extra records together hold more than %d bytes (Limits.MaxText)", name, lim.MaxText)
		}
		b, err := z.ReadRecord(name, budget)
		if err != nil {
			return nil, err
		}
		budget -= int64(len(b))
		return b, nil
	}
	// Classes the code uses: libs/ (libs.py of PyTorch 1.1 holds them all
	// in one file, which the legacy importer never reads either).
	for _, name := range a.Records {
		switch {
		case strings.HasPrefix(name, "libs/") && strings.HasSuffix(name, ".py"):
			b, err := text(name)
			if err != nil {
				return err
			}
			q := strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(name, "libs/"), ".py"), "/", ".")
			if err := a.addCode(&CodeFile{Qualifier: q, Record: name, Text: string(b), maxText: lim.MaxText}); err != nil {
				return err
			}
		case strings.HasPrefix(name, "extra/") && !strings.HasSuffix(name, "/"):
			b, err := text(name)
			if err != nil {
				return err
			}
			a.Extra[strings.TrimPrefix(name, "extra/")] = b
		}
	}

	// The tensor table.
	conv := newConverter(z.Limits().MaxElements)
	table, err := legacyTensors(z, m.Tensors, conv)
	if err != nil {
		return err
	}
	a.Constants = make(Tuple, len(table))
	for i, t := range table {
		a.Constants[i] = t
	}
	conv.table = table

	// The attribute table.
	var attrs []Value
	if z.Has("attributes.pkl") {
		v, err := z.Unpickle("attributes.pkl", "", findLegacyGlobal)
		if err != nil {
			return err
		}
		c, err := conv.conv(v, 0)
		if err != nil {
			return fmt.Errorf("attributes.pkl: %w", err)
		}
		switch c := c.(type) {
		case Tuple:
			attrs = c
		case *List:
			attrs = c.Items
		default:
			return fmt.Errorf("attributes.pkl holds %s, not a tuple or list", typeName(c))
		}
	}

	files := map[string]*strings.Builder{}
	var order []string
	l := &legacyLoader{z: z, m: &m, table: table, attrs: attrs, text: text, files: files, order: &order}
	root, err := l.module(m.MainModule, []string{"__torch__"}, "model.json: mainModule", 0)
	if err != nil {
		return err
	}
	a.Data = root
	for _, q := range order {
		src := files[q].String()
		if f, ok := a.code[q]; ok {
			f.Text += "\n" + src
			continue
		}
		if err := a.addCode(&CodeFile{Qualifier: q, Record: "model.json", Text: src, maxText: lim.MaxText}); err != nil {
			return err
		}
	}
	sortCode(a.Code)
	return nil
}

// addCode adds a code file.
func (a *Archive) addCode(f *CodeFile) error {
	if _, dup := a.code[f.Qualifier]; dup {
		return fmt.Errorf("%s: a second code file for %s", f.Record, f.Qualifier)
	}
	a.code[f.Qualifier] = f
	a.Code = append(a.Code, f)
	return nil
}

// legacyTensors reads the tensor table: each tensor a view of its raw
// storage record, tensors of one record sharing it.
func legacyTensors(z *torchio.Archive, defs []legacyTensor, conv *converter) ([]*tensor.Tensor, error) {
	type storage struct {
		t  *tensor.Tensor
		dt tensor.DType
	}
	storages := map[string]storage{}
	var read int64
	lim := z.Limits()
	out := make([]*tensor.Tensor, len(defs))
	for i, d := range defs {
		at := fmt.Sprintf("model.json: tensors[%d]", i)
		ty, ok := caffe2Types[string(d.DataType)]
		if !ok {
			return nil, fmt.Errorf("%s: dataType %q is not supported", at, d.DataType)
		}
		if d.IsQuantized {
			return nil, fmt.Errorf("%s: quantized tensors are not supported", at)
		}
		if dev := d.Device; dev != "cpu" && !strings.HasPrefix(dev, "cuda") {
			return nil, fmt.Errorf("%s: device %q (want cpu or cuda[:N])", at, dev)
		}
		if d.Data == nil || d.Data.Key == "" {
			return nil, fmt.Errorf("%s: no data record", at)
		}
		key := d.Data.Key
		st, ok := storages[key]
		if !ok {
			if !z.Has(key) {
				return nil, fmt.Errorf("%s: no record %q", at, key)
			}
			b, err := z.ReadRecord(key, lim.MaxStorageBytes-read)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", at, err)
			}
			read += int64(len(b))
			t, err := torchio.DecodeStorage(b, ty.dt, z.ByteOrder())
			if err != nil {
				return nil, fmt.Errorf("%s: record %s: %w", at, key, err)
			}
			st = storage{t, ty.dt}
			storages[key] = st
		} else if st.dt != ty.dt {
			return nil, fmt.Errorf("%s: record %s holds %v elements, not %v", at, key, st.dt, ty.dt)
		}
		if len(d.Dims) != len(d.Strides) {
			return nil, fmt.Errorf("%s: %d dims but %d strides", at, len(d.Dims), len(d.Strides))
		}
		size, stride := make([]int, len(d.Dims)), make([]int, len(d.Dims))
		for j := range d.Dims {
			if d.Dims[j] < 0 || d.Strides[j] < 0 || int64(d.Dims[j]) > int64(tensor.MaxElements) || int64(d.Strides[j]) > int64(tensor.MaxElements) {
				return nil, fmt.Errorf("%s: size %v, stride %v", at, d.Dims, d.Strides)
			}
			size[j], stride[j] = int(d.Dims[j]), int(d.Strides[j])
		}
		if d.Offset < 0 || int64(d.Offset) > int64(tensor.MaxElements) {
			return nil, fmt.Errorf("%s: storage offset %d", at, d.Offset)
		}
		n, err := tensor.Numel(size)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", at, err)
		}
		off := int(d.Offset)
		if n == 0 && off > st.t.Numel() {
			off = st.t.Numel()
		}
		t, err := st.t.AsStrided(size, stride, off)
		if err != nil {
			return nil, fmt.Errorf("%s: record %s of %d elements: %w", at, key, st.t.Numel(), err)
		}
		if _, err := conv.tensor(t); err != nil {
			return nil, fmt.Errorf("%s: %w", at, err)
		}
		out[i] = t
	}
	return out, nil
}

// legacyLoader builds the classes and objects of the module tree.
type legacyLoader struct {
	z     *torchio.Archive
	m     *legacyModel
	table []*tensor.Tensor
	attrs []Value
	text  func(string) ([]byte, error)
	files map[string]*strings.Builder
	order *[]string
}

// module builds the object and the class of module d, whose qualified
// name is path plus d's name.
func (l *legacyLoader) module(d *legacyModule, path []string, at string, depth int) (*Object, error) {
	if depth > maxLegacyDepth {
		return nil, fmt.Errorf("%s: submodules nested more than %d deep", at, maxLegacyDepth)
	}
	if d.GetStateAttributeID != nil {
		return nil, fmt.Errorf("%s: a module with __getstate__ (getStateAttributeId) is not supported", at)
	}
	if d.Name == "" {
		return nil, fmt.Errorf("%s: a module without a name", at)
	}
	// As LEGACY_convertModule: the name's dotted atoms, digit-only ones
	// prefixed with "_".
	qual := append([]string(nil), path...)
	for _, atom := range strings.Split(d.Name, ".") {
		if atom != "" && strings.Trim(atom, "0123456789") == "" {
			atom = "_" + atom
		}
		if !identRE.MatchString(atom) {
			return nil, fmt.Errorf("%s: module name %q is not a dotted name of identifiers", at, d.Name)
		}
		qual = append(qual, atom)
	}
	class := strings.Join(qual, ".")
	obj := &Object{Class: class}
	var decl strings.Builder
	var params, buffers []string
	seen := map[string]bool{}
	add := func(name, typ string, v Value) {
		seen[name] = true
		fmt.Fprintf(&decl, "  %s : %s\n", name, typ)
		obj.Attrs = append(obj.Attrs, Attr{name, v})
	}
	for i, p := range d.Parameters {
		pat := fmt.Sprintf("%s.parameters[%d]", at, i)
		if !identRE.MatchString(p.Name) || seen[p.Name] {
			return nil, fmt.Errorf("%s: name %q is not an identifier or is a second attribute of that name", pat, p.Name)
		}
		if p.TensorID == nil || *p.TensorID < 0 || int64(*p.TensorID) >= int64(len(l.table)) {
			return nil, fmt.Errorf("%s (%s): tensorId outside the tensor table of %d", pat, p.Name, len(l.table))
		}
		if p.IsBuffer {
			buffers = append(buffers, p.Name)
		} else {
			params = append(params, p.Name)
		}
		add(p.Name, "Tensor", l.table[*p.TensorID])
	}
	for i, at2 := range d.Attributes {
		aat := fmt.Sprintf("%s.attributes[%d]", at, i)
		if !identRE.MatchString(at2.Name) {
			return nil, fmt.Errorf("%s: name %q is not an identifier", aat, at2.Name)
		}
		if seen[at2.Name] {
			continue // a buffer, registered above (as PyTorch skips it)
		}
		if len(at2.Type) > maxTypeLen || !typeRE.MatchString(at2.Type) {
			return nil, fmt.Errorf("%s (%s): type %q is not a TorchScript type", aat, at2.Name, at2.Type)
		}
		if at2.ID == nil {
			return nil, fmt.Errorf("%s (%s): no id", aat, at2.Name)
		}
		var v Value
		if *at2.ID >= 0 {
			if int64(*at2.ID) >= int64(len(l.attrs)) {
				return nil, fmt.Errorf("%s (%s): id %d outside attributes.pkl's %d values", aat, at2.Name, *at2.ID, len(l.attrs))
			}
			v = l.attrs[*at2.ID]
		}
		add(at2.Name, at2.Type, v)
	}
	for i, s := range d.Submodules {
		sat := fmt.Sprintf("%s.submodules[%d]", at, i)
		if s == nil {
			return nil, fmt.Errorf("%s: null", sat)
		}
		sub, err := l.module(s, qual, sat, depth+1)
		if err != nil {
			return nil, err
		}
		if !identRE.MatchString(s.Name) || seen[s.Name] {
			return nil, fmt.Errorf("%s: name %q is not an identifier or is a second attribute of that name", sat, s.Name)
		}
		add(s.Name, sub.Class, sub)
	}
	var methods string
	if d.TorchscriptArena != nil {
		key := d.TorchscriptArena.Key
		if !l.z.Has(key) {
			return nil, fmt.Errorf("%s: torchscriptArena: no record %q", at, key)
		}
		b, err := l.text(key)
		if err != nil {
			return nil, err
		}
		if methods, err = legacyMethods(string(b)); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}

	// The class, in the file of its qualifier.
	q, name := strings.Join(qual[:len(qual)-1], "."), qual[len(qual)-1]
	f, ok := l.files[q]
	if !ok {
		f = &strings.Builder{}
		l.files[q] = f
		*l.order = append(*l.order, q)
	}
	fmt.Fprintf(f, "class %s(Module):\n", name)
	fmt.Fprintf(f, "  __parameters__ = [%s]\n", quoted(params))
	fmt.Fprintf(f, "  __buffers__ = [%s]\n", quoted(buffers))
	f.WriteString(decl.String())
	f.WriteString(methods)
	return obj, nil
}

func quoted(names []string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%q, ", n)
	}
	return b.String()
}

// legacyMethods turns a module's code record (an "op_version_set = N"
// line and top-level defs) into the methods of a class: each line
// indented by two spaces.
func legacyMethods(src string) (string, error) {
	var b strings.Builder
	for i, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if line == t && strings.HasPrefix(t, "op_version_set") {
			continue
		}
		if line == t && !strings.HasPrefix(t, "def ") {
			return "", fmt.Errorf("line %d: %q: a module's code holds only defs", i+1, truncate(t, 40))
		}
		b.WriteString("  ")
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String(), nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
