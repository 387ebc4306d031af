package archive

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// The records of the PT2 archive (torch/csrc/export/pt2_archive_constants.h),
// relative to its root folder.
const (
	pt2Format        = "archive_format"
	pt2FormatValue   = "pt2"
	pt2Version       = "archive_version"
	pt2VersionValue  = "0"
	pt2DataVersion   = ".data/version"
	pt2SerialID      = ".data/serialization_id"
	pt2ByteOrder     = "byteorder"
	pt2ModelsDir     = "models/"
	pt2WeightsDir    = "data/weights/"
	pt2ConstantsDir  = "data/constants/"
	pt2SampleDir     = "data/sample_inputs/"
	pt2ExtraDir      = "extra/"
	pt2WeightPrefix  = "weight_"
	pt2TensorPrefix  = "tensor_"
	pt2CustomObj     = "custom_obj"
	pt2OpaqueObj     = "opaque_obj"
	pt2DataVersionV  = "6\n" // the record format version PyTorch 2.14's writer sets
	pt2WeightsConfig = "_weights_config.json"
	pt2ConstsConfig  = "_constants_config.json"
)

func (rd *reader) readPT2() (*Archive, error) {
	a := &Archive{Layout: LayoutPT2}
	f, err := rd.record(pt2Format)
	if err != nil {
		return nil, err
	}
	if string(f) != pt2FormatValue {
		return nil, fmt.Errorf("record %s: %q is not %q", pt2Format, short(string(f)), pt2FormatValue)
	}
	a.Version = pt2VersionValue
	if rd.has(pt2Version) {
		v, err := rd.record(pt2Version)
		if err != nil {
			return nil, err
		}
		if string(v) != pt2VersionValue {
			return nil, fmt.Errorf("record %s: archive version %q is not %s, the one this reader knows", pt2Version, short(string(v)), pt2VersionValue)
		}
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if rd.has(pt2ByteOrder) {
		b, err := rd.record(pt2ByteOrder)
		if err != nil {
			return nil, err
		}
		switch string(b) {
		case "little":
		case "big":
			bo = binary.BigEndian
		default:
			return nil, fmt.Errorf("record %s: unknown byte order %q", pt2ByteOrder, short(string(b)))
		}
	}
	var names []string
	for _, name := range rd.names {
		if m, ok := strings.CutPrefix(name, pt2ModelsDir); ok && strings.HasSuffix(m, ".json") {
			m = strings.TrimSuffix(m, ".json")
			if m == "" || strings.Contains(m, "/") {
				return nil, fmt.Errorf("record %s: not a valid model name", name)
			}
			names = append(names, m)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no %s*.json record: the archive holds no exported program", pt2ModelsDir)
	}
	slices.Sort(names)
	storages := map[string]*tensor.Tensor{}
	var total int64
	maxElems := rd.lim.Tensor.MaxElements
	if maxElems <= 0 {
		maxElems = torchio.DefaultLimits.MaxElements
	}
	for _, name := range names {
		m, err := rd.readPT2Model(name, bo, storages)
		if err != nil {
			return nil, err
		}
		for _, w := range m.Weights {
			total += int64(w.Tensor.Numel())
		}
		for _, c := range m.Constants {
			if c.Tensor != nil {
				total += int64(c.Tensor.Numel())
			}
		}
		if total > maxElems {
			return nil, fmt.Errorf("model %q: the tensors hold more than %d elements in all", name, maxElems)
		}
		a.Models = append(a.Models, m)
	}
	for _, name := range rd.names {
		switch {
		case strings.HasPrefix(name, pt2ExtraDir):
			b, err := rd.record(name)
			if err != nil {
				return nil, err
			}
			if a.ExtraFiles == nil {
				a.ExtraFiles = map[string][]byte{}
			}
			a.ExtraFiles[strings.TrimPrefix(name, pt2ExtraDir)] = b
		case name == pt2Format, name == pt2Version, name == pt2ByteOrder, name == pt2DataVersion, name == pt2SerialID,
			strings.HasPrefix(name, pt2ModelsDir), strings.HasPrefix(name, pt2WeightsDir),
			strings.HasPrefix(name, pt2ConstantsDir), strings.HasPrefix(name, pt2SampleDir):
		default:
			b, err := rd.record(name)
			if err != nil {
				return nil, err
			}
			if a.Other == nil {
				a.Other = map[string][]byte{}
			}
			a.Other[name] = b
		}
	}
	return a, nil
}

func (rd *reader) readPT2Model(name string, bo binary.ByteOrder, storages map[string]*tensor.Tensor) (*Model, error) {
	m := &Model{Name: name}
	rec := pt2ModelsDir + name + ".json"
	pb, err := rd.record(rec)
	if err != nil {
		return nil, err
	}
	if m.Program, err = schema.Decode(pb); err != nil {
		return nil, fmt.Errorf("record %s: %w", rec, err)
	}
	// Weights: a nested torch.save file (the first PT2 archives) or raw
	// records described by a config.
	if legacy := pt2WeightsDir + name + ".pt"; rd.has(legacy) {
		if m.Weights, err = rd.tensorDict(legacy); err != nil {
			return nil, err
		}
	} else {
		ps, err := rd.payloads(m.Program, pt2WeightsDir, pt2WeightsDir+name+pt2WeightsConfig, bo, storages, false)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			m.Weights = append(m.Weights, Weight{Name: p.Name, Tensor: p.Tensor, IsParam: p.IsParam, RequiresGrad: p.RequiresGrad})
		}
	}
	if legacy := pt2ConstantsDir + name + ".pt"; rd.has(legacy) {
		cs, err := rd.tensorDict(legacy)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			m.Constants = append(m.Constants, Constant{Name: c.Name, Tensor: c.Tensor})
		}
	} else {
		ps, err := rd.payloads(m.Program, pt2ConstantsDir, pt2ConstantsDir+name+pt2ConstsConfig, bo, storages, true)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			m.Constants = append(m.Constants, Constant{Name: p.Name, Tensor: p.Tensor, Object: p.Object, ObjectKind: p.ObjectKind})
		}
	}
	if s := pt2SampleDir + name + ".pt"; rd.has(s) {
		if m.ExampleInputs, err = rd.value(s); err != nil {
			return nil, err
		}
	}
	if err := m.checkNames(); err != nil {
		return nil, err
	}
	return m, nil
}

type payload struct {
	Name         string
	Tensor       *tensor.Tensor
	IsParam      bool
	RequiresGrad bool
	Object       []byte
	ObjectKind   string
}

// payloads reads a payload config and the records it names.
func (rd *reader) payloads(prog *schema.ExportedProgram, dir, cfgName string, bo binary.ByteOrder, storages map[string]*tensor.Tensor, constants bool) ([]payload, error) {
	b, err := rd.record(cfgName)
	if err != nil {
		return nil, err
	}
	var cfg schema.PayloadConfig
	if err := schema.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("record %s: %w", cfgName, err)
	}
	var out []payload
	for _, name := range orderNames(cfg.Config, configOrder(b), prog) {
		pm := cfg.Config[name]
		p, err := rd.payload(dir, name, pm, bo, storages, constants)
		if err != nil {
			return nil, fmt.Errorf("record %s: %q: %w", cfgName, name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func validPathName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/\\\x00")
}

func (rd *reader) payload(dir, name string, pm schema.PayloadMeta, bo binary.ByteOrder, storages map[string]*tensor.Tensor, constants bool) (payload, error) {
	p := payload{Name: name, IsParam: pm.IsParam}
	if !validPathName(pm.PathName) {
		return p, fmt.Errorf("path_name %q is not a record name", short(pm.PathName))
	}
	rec := dir + pm.PathName
	if !rd.has(rec) {
		return p, fmt.Errorf("record %s does not exist", rec)
	}
	if pm.TensorMeta != nil {
		p.RequiresGrad = pm.TensorMeta.RequiresGrad
	}
	if pm.UsePickle {
		for _, kind := range []string{pt2CustomObj, pt2OpaqueObj} {
			if constants && strings.HasPrefix(pm.PathName, kind+"_") {
				b, err := rd.record(rec)
				if err != nil {
					return p, err
				}
				p.Object, p.ObjectKind = b, kind
				return p, nil
			}
		}
		v, err := rd.value(rec)
		if err != nil {
			return p, err
		}
		switch t := v.(type) {
		case *tensor.Tensor:
			p.Tensor = t
		case *torchio.Parameter:
			p.Tensor = t.Data
		default:
			return p, fmt.Errorf("record %s holds %s, not a tensor", rec, pickle.TypeName(v))
		}
		return p, nil
	}
	tm := pm.TensorMeta
	if tm == nil {
		return p, errors.New("a raw tensor record without tensor_meta")
	}
	dt, err := DType(tm.Dtype)
	if err != nil {
		return p, err
	}
	sizes, err := concreteInts(tm.Sizes, "sizes")
	if err != nil {
		return p, err
	}
	strides, err := concreteInts(tm.Strides, "strides")
	if err != nil {
		return p, err
	}
	offs, err := concreteInts([]schema.SymInt{tm.StorageOffset}, "storage_offset")
	if err != nil {
		return p, err
	}
	if len(sizes) != len(strides) {
		return p, fmt.Errorf("sizes %v and strides %v differ in length", sizes, strides)
	}
	if tm.Layout != schema.LayoutStrided {
		return p, fmt.Errorf("layout %v is not supported (only Strided)", tm.Layout)
	}
	need, err := storageNeed(sizes, strides, offs[0])
	if err != nil {
		return p, err
	}
	esize := int64(dt.Size())
	n := rd.recordSize(rec)
	if n%esize != 0 {
		return p, fmt.Errorf("record %s: %d bytes are not a whole number of %d-byte %v elements", rec, n, esize, dt)
	}
	if need > n/esize {
		return p, fmt.Errorf("record %s: %d bytes hold %d %v elements, but sizes %v, strides %v and offset %d reach element %d",
			rec, n, n/esize, dt, sizes, strides, offs[0], need-1)
	}
	if need == 0 {
		t, err := tensor.New(dt, sizes...)
		if err != nil {
			return p, err
		}
		p.Tensor = t
		return p, nil
	}
	st := storages[rec]
	if st == nil {
		// A stored record is decoded in place, a compressed one read first.
		sr, inPlace, err := rd.section(rec)
		if err != nil {
			return p, err
		}
		if inPlace {
			st, err = torchio.ReadStorage(sr, sr.Size(), dt, bo)
		} else {
			var b []byte
			if b, err = rd.record(rec); err != nil {
				return p, err
			}
			st, err = torchio.DecodeStorage(b, dt, bo)
		}
		if err != nil {
			return p, fmt.Errorf("record %s: %w", rec, err)
		}
		storages[rec] = st
	} else if st.DType() != dt {
		return p, fmt.Errorf("record %s is read as %v and as %v", rec, st.DType(), dt)
	}
	if p.Tensor, err = st.AsStrided(sizes, strides, offs[0]); err != nil {
		return p, fmt.Errorf("record %s: %w", rec, err)
	}
	return p, nil
}

// storageNeed returns how many storage elements a view reaches (0 for an
// empty view).
func storageNeed(sizes, strides []int, offset int) (int64, error) {
	hi := int64(offset)
	for i := range sizes {
		if sizes[i] == 0 {
			return 0, nil
		}
	}
	for i := range sizes {
		if strides[i] > 0 && int64(sizes[i]-1) > (math.MaxInt64-hi)/int64(strides[i]) {
			return 0, fmt.Errorf("sizes %v with strides %v overflow", sizes, strides)
		}
		hi += int64(sizes[i]-1) * int64(strides[i])
	}
	return hi + 1, nil
}

// concreteInts returns the ints of a list of SymInts, which must all be
// concrete and non-negative.
func concreteInts(s []schema.SymInt, what string) ([]int, error) {
	if len(s) > 64 {
		return nil, fmt.Errorf("%s has %d dimensions, more than 64", what, len(s))
	}
	out := make([]int, len(s))
	for i, v := range s {
		if v.AsInt == nil {
			expr := "?"
			if v.AsExpr != nil {
				expr = v.AsExpr.ExprStr
			}
			return nil, fmt.Errorf("%s[%d] is symbolic (%s): a stored tensor needs concrete sizes", what, i, short(expr))
		}
		if *v.AsInt < 0 || *v.AsInt > tensor.MaxElements {
			return nil, fmt.Errorf("%s[%d] = %d is out of range", what, i, *v.AsInt)
		}
		out[i] = int(*v.AsInt)
	}
	return out, nil
}

// configOrder returns the keys of a payload config's "config" object in
// the file's order (PyTorch's state dict order), or nil.
func configOrder(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		if key != "config" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return nil
		}
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil
			}
			ks, _ := k.(string)
			keys = append(keys, ks)
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
		}
		return keys
	}
	return nil
}

// orderNames orders a config's names as the file lists them, then as the
// program's signature lists them, the rest by name.
func orderNames(cfg map[string]schema.PayloadMeta, fileOrder []string, prog *schema.ExportedProgram) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range fileOrder {
		if _, ok := cfg[n]; ok && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, s := range prog.GraphModule.Signature.InputSpecs {
		var n string
		switch {
		case s.Parameter != nil:
			n = s.Parameter.ParameterName
		case s.Buffer != nil:
			n = s.Buffer.BufferName
		case s.TensorConstant != nil:
			n = s.TensorConstant.TensorConstantName
		case s.CustomObj != nil:
			n = s.CustomObj.CustomObjName
		}
		if _, ok := cfg[n]; ok && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range sortedKeys(cfg) {
		if !seen[n] {
			out = append(out, n)
		}
	}
	return out
}

// dtypes maps schema scalar types to tensor dtypes.
var dtypes = map[schema.ScalarType]tensor.DType{
	schema.ScalarTypeByte:     tensor.Uint8,
	schema.ScalarTypeChar:     tensor.Int8,
	schema.ScalarTypeShort:    tensor.Int16,
	schema.ScalarTypeInt:      tensor.Int32,
	schema.ScalarTypeLong:     tensor.Int64,
	schema.ScalarTypeHalf:     tensor.Float16,
	schema.ScalarTypeFloat:    tensor.Float32,
	schema.ScalarTypeDouble:   tensor.Float64,
	schema.ScalarTypeBool:     tensor.Bool,
	schema.ScalarTypeBFloat16: tensor.BFloat16,
}

// DType returns the tensor dtype of a schema scalar type; the types gofx's
// tensors lack (complex, float8, unsigned beyond uint8) are an error.
func DType(t schema.ScalarType) (tensor.DType, error) {
	if dt, ok := dtypes[t]; ok {
		return dt, nil
	}
	return tensor.Invalid, fmt.Errorf("dtype %v is not supported", t)
}

// ScalarType returns the schema scalar type of a tensor dtype.
func ScalarType(dt tensor.DType) (schema.ScalarType, error) {
	for st, d := range dtypes {
		if d == dt {
			return st, nil
		}
	}
	return schema.ScalarTypeUnknown, fmt.Errorf("dtype %v has no schema scalar type", dt)
}

// TensorMeta returns the schema metadata of a stored CPU tensor (concrete
// sizes, strides and offset; strided layout).
func TensorMeta(t *tensor.Tensor, requiresGrad bool) (*schema.TensorMeta, error) {
	st, err := ScalarType(t.DType())
	if err != nil {
		return nil, err
	}
	ints := func(v []int) []schema.SymInt {
		out := make([]schema.SymInt, len(v))
		for i, x := range v {
			n := int64(x)
			out[i] = schema.SymInt{AsInt: &n}
		}
		return out
	}
	off := int64(t.Offset())
	return &schema.TensorMeta{
		Dtype: st, Sizes: ints(t.Shape()), RequiresGrad: requiresGrad,
		Device: schema.Device{Type: "cpu"}, Strides: ints(t.Strides()),
		StorageOffset: schema.SymInt{AsInt: &off}, Layout: schema.LayoutStrided,
	}, nil
}

// writePT2 writes the PT2 archive PyTorch 2.14's torch.export.load reads:
// weights and tensor constants as raw storage records (tensors sharing a
// storage share one record), their configs, the programs, the sample
// inputs.
func (a *Archive) writePT2(w io.Writer) error {
	root := a.Root
	if root == "" {
		root = "archive"
	}
	if strings.ContainsAny(root, "/\\\x00") {
		return fmt.Errorf("root %q is not a folder name", root)
	}
	rw := newRecordWriter(w, root, true)
	seen := map[string]bool{}
	idx := map[string]int{}
	for _, m := range a.Models {
		if !validPathName(m.Name) || seen[m.Name] {
			return fmt.Errorf("model name %q is empty, invalid or repeated", m.Name)
		}
		seen[m.Name] = true
		if m.Program == nil {
			return fmt.Errorf("model %q has no program", m.Name)
		}
		prog, err := schema.Encode(m.Program)
		if err != nil {
			return fmt.Errorf("model %q: %w", m.Name, err)
		}
		var ws []payload
		for _, wt := range m.Weights {
			ws = append(ws, payload{Name: wt.Name, Tensor: wt.Tensor, IsParam: wt.IsParam, RequiresGrad: wt.RequiresGrad})
		}
		if err := writePayloads(rw, ws, pt2WeightsDir, pt2WeightsDir+m.Name+pt2WeightsConfig, idx); err != nil {
			return fmt.Errorf("model %q: weights: %w", m.Name, err)
		}
		var cs []payload
		for _, c := range m.Constants {
			cs = append(cs, payload{Name: c.Name, Tensor: c.Tensor, Object: c.Object, ObjectKind: c.ObjectKind})
		}
		if err := writePayloads(rw, cs, pt2ConstantsDir, pt2ConstantsDir+m.Name+pt2ConstsConfig, idx); err != nil {
			return fmt.Errorf("model %q: constants: %w", m.Name, err)
		}
		rw.add(pt2ModelsDir+m.Name+".json", prog)
		var eb bytes.Buffer
		if m.ExampleInputs != nil {
			if err := torchio.WriteValue(&eb, m.ExampleInputs); err != nil {
				return fmt.Errorf("model %q: example inputs: %w", m.Name, err)
			}
		}
		rw.add(pt2SampleDir+m.Name+".pt", eb.Bytes())
	}
	for _, name := range sortedKeys(a.ExtraFiles) {
		rw.add(pt2ExtraDir+name, a.ExtraFiles[name])
	}
	for _, name := range sortedKeys(a.Other) {
		rw.add(name, a.Other[name])
	}
	rw.add(pt2Format, []byte(pt2FormatValue))
	rw.add(pt2Version, []byte(pt2VersionValue))
	rw.add(pt2DataVersion, []byte(pt2DataVersionV))
	rw.add(pt2ByteOrder, []byte("little"))
	return rw.close()
}

// writePayloads writes the records of weights or constants and their
// config. idx counts the records written per prefix, across models, as
// PyTorch numbers them.
func writePayloads(rw *recordWriter, ps []payload, dir, cfgName string, idx map[string]int) error {
	// The config lists the entries in their order (PyTorch's state dict
	// order is the order of its config).
	cfg := map[string]schema.PayloadMeta{}
	var order []string
	var groups []*tensor.Tensor // one tensor per written storage
	var paths []string
	prefix := pt2WeightPrefix
	if dir == pt2ConstantsDir {
		prefix = pt2TensorPrefix
	}
	for _, p := range ps {
		if _, dup := cfg[p.Name]; dup {
			return fmt.Errorf("%q is listed twice", p.Name)
		}
		if p.Tensor == nil {
			if p.ObjectKind != pt2CustomObj && p.ObjectKind != pt2OpaqueObj {
				return fmt.Errorf("%q has neither a tensor nor a custom object (kind %q)", p.Name, p.ObjectKind)
			}
			path := p.ObjectKind + "_" + strconv.Itoa(idx[p.ObjectKind])
			idx[p.ObjectKind]++
			rw.add(dir+path, p.Object)
			cfg[p.Name] = schema.PayloadMeta{PathName: path, UsePickle: true}
			order = append(order, p.Name)
			continue
		}
		if p.Tensor.IsMeta() {
			return fmt.Errorf("%q is a meta tensor, which has no data to save", p.Name)
		}
		tm, err := TensorMeta(p.Tensor, p.RequiresGrad)
		if err != nil {
			return fmt.Errorf("%q: %w", p.Name, err)
		}
		path := ""
		for i, g := range groups {
			if g.SharesStorage(p.Tensor) && torchio.StorageNumel(g) > 0 {
				path = paths[i]
				break
			}
		}
		if path == "" {
			path = prefix + strconv.Itoa(idx[prefix])
			idx[prefix]++
			// The record is the tensor's own memory where the host's
			// byte order is the record's: no copy.
			data, ok := torchio.StorageBytes(p.Tensor)
			if !ok {
				var b bytes.Buffer
				if err := torchio.WriteStorage(&b, p.Tensor); err != nil {
					return fmt.Errorf("%q: %w", p.Name, err)
				}
				data = b.Bytes()
			}
			rw.add(dir+path, data)
			groups = append(groups, p.Tensor)
			paths = append(paths, path)
		}
		cfg[p.Name] = schema.PayloadMeta{PathName: path, IsParam: p.IsParam, TensorMeta: tm}
		order = append(order, p.Name)
	}
	var sb strings.Builder
	sb.WriteString(`{"config": {`)
	for i, name := range order {
		if i > 0 {
			sb.WriteString(", ")
		}
		b, err := schema.Marshal(cfg[name], schema.StyleCurrent)
		if err != nil {
			return fmt.Errorf("%q: %w", name, err)
		}
		sb.WriteString(schema.Quote(name))
		sb.WriteString(": ")
		sb.Write(b)
	}
	sb.WriteString("}}")
	rw.add(cfgName, []byte(sb.String()))
	return nil
}
