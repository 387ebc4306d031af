package pt2

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// Format is the container Save writes.
type Format int

const (
	// Legacy is the zip of PyTorch ≤ 2.7 (serialized_exported_program.json,
	// serialized_state_dict.pt, serialized_constants.pt,
	// serialized_example_inputs.pt, version), schema 8.2 as PyTorch 2.6
	// writes it: PyTorch 2.6's torch.export.load reads it.
	Legacy Format = iota
	// Archive is the PT2 archive of PyTorch ≥ 2.8 (archive_format,
	// models/NAME.json, data/weights and data/constants as raw tensor
	// records with their *_config.json), schema 8.20 as PyTorch 2.14 writes
	// it.
	Archive
)

func (f Format) String() string {
	switch f {
	case Legacy:
		return "legacy"
	case Archive:
		return "archive"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// SaveOptions says how Save writes a program.
type SaveOptions struct {
	// Format is the container (Legacy by default).
	Format Format
	// Name is the archive's folder and, in the PT2 archive, the model's
	// name ("model" when empty; PyTorch names the folder after the file).
	Name string
	// TorchVersion is written as the file's torch_version ("2.6.0" for
	// Legacy, "2.14.0" for Archive when empty).
	TorchVersion string
}

// The schema versions written: PyTorch 2.6's and 2.14's.
var (
	legacyVersion  = schemaVersion{8, 2}
	archiveVersion = schemaVersion{8, 20}
)

// Write saves ep to the file at path (see Save); the file is removed again
// when writing fails.
func Write(path string, ep *export.ExportedProgram, opts SaveOptions) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("pt2: save: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("pt2: save: %w", cerr)
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	return Save(f, ep, opts)
}

// Save writes ep as a .pt2 file in the chosen container: the program as
// schema.py's JSON (the graph with every node's target, named arguments,
// tensor metadata with symbolic sizes, stack traces and module stacks; the
// signature; range constraints; the module call graph with the pytree
// specs), the parameters and buffers, and the lifted constants. The
// output is deterministic: the same program gives the same bytes.
func Save(w io.Writer, ep *export.ExportedProgram, opts SaveOptions) error {
	if ep == nil || ep.Graph == nil {
		return fmt.Errorf("pt2: save: no program")
	}
	v := legacyVersion
	if opts.Format == Archive {
		v = archiveVersion
	} else if opts.Format != Legacy {
		return fmt.Errorf("pt2: save: unknown format %v", opts.Format)
	}
	js, err := serializeProgram(ep, v, opts.TorchVersion)
	if err != nil {
		return err
	}
	name := opts.Name
	if name == "" {
		name = "model"
	}
	if opts.Format == Archive {
		return writeArchive(w, name, js, ep)
	}
	return writeLegacy(w, name, js, ep)
}

// MarshalProgram returns the JSON of ep's program (the
// serialized_exported_program.json of the Legacy container, or
// models/NAME.json of the Archive).
func MarshalProgram(ep *export.ExportedProgram, f Format) ([]byte, error) {
	v := legacyVersion
	if f == Archive {
		v = archiveVersion
	}
	return serializeProgram(ep, v, "")
}

func serializeProgram(ep *export.ExportedProgram, v schemaVersion, torchVersion string) ([]byte, error) {
	s := &serializer{ep: ep, env: ep.Env, v: v}
	if s.env == nil {
		s.env = sym.NewEnv()
	}
	params := map[string]bool{}
	for _, in := range ep.Signature.Inputs {
		if in.Kind == export.Parameter {
			params[in.Name] = true
		}
	}
	g, err := s.graph(ep.Graph)
	if err != nil {
		return nil, err
	}
	// Parameters require grad, as torch writes their metadata.
	for i, k := range s.tensorValues.keys {
		if params[k] {
			s.tensorValues.vals[i].(*obj).vals[2] = true
		}
	}
	sig, err := s.signature()
	if err != nil {
		return nil, err
	}
	mcg, err := s.moduleCallGraph()
	if err != nil {
		return nil, err
	}
	gm := newObj().
		set("graph", g).
		set("signature", sig).
		set("module_call_graph", mcg).
		set("metadata", newObj())
	if !s.legacy() {
		gm.set("treespec_namedtuple_fields", newObj())
	}
	if torchVersion == "" {
		torchVersion = "2.6.0"
		if !s.legacy() {
			torchVersion = "2.14.0"
		}
	}
	top := newObj().
		set("graph_module", gm).
		set("opset_version", one("aten", 10)).
		set("range_constraints", s.rangeConstraints()).
		set("schema_version", newObj().set("major", v.major).set("minor", v.minor)).
		set("verifiers", []any{}).
		set("torch_version", torchVersion)
	if !s.legacy() {
		top.set("guards_code", []any{})
	}
	var b bytes.Buffer
	if err := writeJSON(&b, top); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (s *serializer) rangeConstraints() *obj {
	rc := newObj()
	names := make([]string, 0, len(s.ep.RangeConstraints))
	for k := range s.ep.RangeConstraints {
		names = append(names, k)
	}
	// Symbols in creation order (the order torch's dict has), then any
	// others by name.
	order := map[string]int{}
	for i, sy := range s.env.Symbols() {
		order[sy.Name()] = i
	}
	sort.Slice(names, func(i, j int) bool {
		oi, iok := order[names[i]]
		oj, jok := order[names[j]]
		if iok != jok {
			return iok
		}
		if iok && oi != oj {
			return oi < oj
		}
		return names[i] < names[j]
	})
	for _, k := range names {
		r := s.ep.RangeConstraints[k]
		bound := func(v int64) any {
			if v == sym.Inf || v == sym.NegInf {
				return nil
			}
			return v
		}
		rc.set(k, newObj().set("min_val", bound(r.Lo)).set("max_val", bound(r.Hi)))
	}
	return rc
}

func (s *serializer) signature() (*obj, error) {
	var ins, outs []any
	for _, in := range s.ep.Signature.Inputs {
		arg := one("name", in.Name)
		switch in.Kind {
		case export.UserInput:
			ins = append(ins, one("user_input", one("arg", one("as_tensor", arg))))
		case export.Parameter:
			ins = append(ins, one("parameter", newObj().set("arg", arg).set("parameter_name", in.Target)))
		case export.Buffer:
			ins = append(ins, one("buffer", newObj().set("arg", arg).set("buffer_name", in.Target).set("persistent", in.Persistent)))
		case export.ConstantTensor:
			ins = append(ins, one("tensor_constant", newObj().set("arg", arg).set("tensor_constant_name", in.Target)))
		default:
			return nil, fmt.Errorf("pt2: save: input %s: kind %s has no .pt2 form", in.Name, in.Kind)
		}
	}
	results, err := s.outputArgs()
	if err != nil {
		return nil, err
	}
	if len(results) != len(s.ep.Signature.Outputs) {
		return nil, fmt.Errorf("pt2: save: the graph returns %d values for %d outputs of the signature", len(results), len(s.ep.Signature.Outputs))
	}
	for i, o := range s.ep.Signature.Outputs {
		switch o.Kind {
		case export.UserOutput:
			a, err := s.input(results[i], nil)
			if err != nil {
				return nil, fmt.Errorf("pt2: save: output %s: %v", o.Name, err)
			}
			outs = append(outs, one("user_output", one("arg", a)))
		case export.BufferMutation:
			outs = append(outs, one("buffer_mutation", newObj().set("arg", one("name", s.argName(results[i], o.Name))).set("buffer_name", o.Target)))
		case export.UserInputMutation:
			outs = append(outs, one("user_input_mutation", newObj().set("arg", one("name", s.argName(results[i], o.Name))).set("user_input_name", o.Target)))
		default:
			return nil, fmt.Errorf("pt2: save: output %s: kind %s has no .pt2 form", o.Name, o.Kind)
		}
	}
	return newObj().set("input_specs", orEmpty(ins)).set("output_specs", orEmpty(outs)), nil
}

func (s *serializer) argName(a node.Arg, fallback string) string {
	if n, ok := a.(*node.Node); ok {
		return s.tensorName(n)
	}
	return fallback
}

// outputArgs returns the values the graph's output returns, flat.
func (s *serializer) outputArgs() ([]node.Arg, error) {
	out := s.ep.Graph.OutputNode()
	if out == nil || out.NumArgs() != 1 {
		return nil, fmt.Errorf("pt2: save: the graph has no output")
	}
	if t, ok := out.Arg(0).(node.Tuple); ok {
		return []node.Arg(t), nil
	}
	return []node.Arg{out.Arg(0)}, nil
}

// moduleCallGraph writes the root entry with the pytree specs of the
// inputs and outputs, which torch.export.load's module() needs to take
// and return the model's structures, and then every submodule call.
func (s *serializer) moduleCallGraph() ([]any, error) {
	user := s.ep.Signature.UserInputs()
	inSpec := treeSpecJSON(tupleSpec(tupleSpec(leaves(len(user))...), dictSpec()))
	outSpec, err := s.outSpec()
	if err != nil {
		return nil, err
	}
	names := make([]any, len(user))
	for i, u := range user {
		names[i] = u
	}
	rootSig := newObj().
		set("inputs", []any{}).
		set("outputs", []any{}).
		set("in_spec", inSpec).
		set("out_spec", treeSpecJSON(outSpec)).
		set("forward_arg_names", names)
	entries := []any{newObj().set("fqn", "").set("signature", rootSig)}
	for _, c := range s.ep.ModuleCallGraph {
		if c.FQN == "" {
			continue
		}
		e := one("fqn", c.FQN)
		if !s.legacy() {
			e.set("signature", nil)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// spec is a pytree spec: a leaf (typ "") or a container.
type spec struct {
	typ      string // "", "builtins.tuple", "builtins.list", "builtins.dict"
	context  string // the JSON of the context: "null", "[]", ...
	children []*spec
}

func leaves(n int) []*spec {
	out := make([]*spec, n)
	for i := range out {
		out[i] = &spec{}
	}
	return out
}

func tupleSpec(c ...*spec) *spec { return &spec{typ: "builtins.tuple", context: "null", children: c} }

func dictSpec() *spec { return &spec{typ: "builtins.dict", context: "[]"} }

// treeSpecJSON is treespec_dumps: [1, {"type": ..., "context": ...,
// "children_spec": [...]}] as a string, as Python's json.dumps prints it.
func treeSpecJSON(t *spec) string {
	var conv func(t *spec) *obj
	conv = func(t *spec) *obj {
		if t.typ == "" {
			return newObj().set("type", nil).set("context", nil).set("children_spec", []any{})
		}
		cs := make([]any, len(t.children))
		for i, c := range t.children {
			cs[i] = conv(c)
		}
		return newObj().set("type", t.typ).set("context", t.context).set("children_spec", cs)
	}
	var b bytes.Buffer
	_ = writeJSON(&b, []any{1, conv(t)})
	return b.String()
}

// outSpec is the structure of the user outputs: the module's output as
// ExportedProgram.Module returns it (a tensor, or nested tuples).
func (s *serializer) outSpec() (*spec, error) {
	gm, err := s.ep.Module()
	if err != nil {
		return nil, fmt.Errorf("pt2: save: the output structure: %w", err)
	}
	out := gm.Graph.OutputNode()
	if out == nil || out.NumArgs() != 1 {
		return nil, fmt.Errorf("pt2: save: the module has no output")
	}
	var walk func(a node.Arg) *spec
	walk = func(a node.Arg) *spec {
		switch x := a.(type) {
		case node.Tuple:
			return tupleSpec(mapSpecs(x, walk)...)
		case node.List:
			return &spec{typ: "builtins.list", context: "null", children: mapSpecs(x, walk)}
		}
		return &spec{}
	}
	return walk(out.Arg(0)), nil
}

func mapSpecs(xs []node.Arg, f func(node.Arg) *spec) []*spec {
	out := make([]*spec, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// zipWriter writes the entries of a .pt2 zip: stored (not compressed),
// fixed times, as torch writes them.
type zipWriter struct {
	zw *zip.Writer
}

func (z *zipWriter) add(name string, data []byte) error {
	w, err := z.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
	if err != nil {
		return fmt.Errorf("pt2: save: %s: %w", name, err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("pt2: save: %s: %w", name, err)
	}
	return nil
}

// stateDicts returns the parameters and buffers (in signature order) and
// the constants as torch.save state dicts.
func stateDicts(ep *export.ExportedProgram) (state, consts *torchio.StateDict, err error) {
	sd := ep.StateDict()
	cs := ep.Constants()
	state, consts = torchio.NewStateDict(), torchio.NewStateDict()
	for _, in := range ep.Signature.Inputs {
		switch in.Kind {
		case export.Parameter, export.Buffer:
			t, ok := sd[in.Target]
			if !ok {
				return nil, nil, fmt.Errorf("pt2: save: input %s: no state entry %s", in.Name, in.Target)
			}
			if _, dup := state.Get(in.Target); !dup {
				if in.Kind == export.Parameter {
					state.SetParameter(in.Target, t)
				} else {
					state.Set(in.Target, t)
				}
			}
		case export.ConstantTensor:
			t, ok := cs[in.Target]
			if !ok {
				return nil, nil, fmt.Errorf("pt2: save: input %s: no constant %s", in.Name, in.Target)
			}
			if _, dup := consts.Get(in.Target); !dup {
				consts.Set(in.Target, t)
			}
		}
	}
	return state, consts, nil
}

func writeLegacy(w io.Writer, _ string, js []byte, ep *export.ExportedProgram) error {
	state, consts, err := stateDicts(ep)
	if err != nil {
		return err
	}
	var sdb, cb bytes.Buffer
	if err := torchio.Write(&sdb, state); err != nil {
		return fmt.Errorf("pt2: save: serialized_state_dict.pt: %w", err)
	}
	if err := torchio.Write(&cb, consts); err != nil {
		return fmt.Errorf("pt2: save: serialized_constants.pt: %w", err)
	}
	z := &zipWriter{zw: zip.NewWriter(w)}
	for _, e := range []struct {
		name string
		data []byte
	}{
		{"serialized_exported_program.json", js},
		{"serialized_state_dict.pt", sdb.Bytes()},
		{"serialized_constants.pt", cb.Bytes()},
		{"serialized_example_inputs.pt", nil},
		{"version", []byte(fmt.Sprintf("%d.%d", legacyVersion.major, legacyVersion.minor))},
	} {
		if err := z.add(e.name, e.data); err != nil {
			return err
		}
	}
	if err := z.zw.Close(); err != nil {
		return fmt.Errorf("pt2: save: %w", err)
	}
	return nil
}

func writeArchive(w io.Writer, name string, js []byte, ep *export.ExportedProgram) error {
	return fmt.Errorf("pt2: save: the PT2 archive layout is not written yet (model %s, %d bytes of JSON)", name, len(js))
}

var _ = strings.Join
var _ = tensor.Float32
