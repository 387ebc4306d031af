package pt2

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/pt2/archive"
	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/sym"
)

// Format is the container Save writes: the container generation, the
// same type as archive.Layout (its String is "legacy" or "archive",
// which archive.ParseLayout reads back).
type Format = archive.Layout

const (
	// Legacy (archive.LayoutZip, the zero Format) is the zip of PyTorch
	// ≤ 2.7 (serialized_exported_program.json, serialized_state_dict.pt,
	// serialized_constants.pt, serialized_example_inputs.pt, version),
	// schema 8.2 as PyTorch 2.6 writes it: PyTorch 2.6's torch.export.load
	// reads it.
	Legacy = archive.LayoutZip
	// Archive (archive.LayoutPT2) is the PT2 archive of PyTorch ≥ 2.8
	// (archive_format, models/NAME.json, data/weights and data/constants
	// as raw tensor records with their *_config.json), schema 8.20 as
	// PyTorch 2.14 writes it.
	Archive = archive.LayoutPT2
)

// SaveOptions says how Save writes a program.
type SaveOptions struct {
	// Format is the container (Legacy by default).
	Format Format
	// Name is the model's name in the PT2 archive ("model" when empty, as
	// torch.export.save names its one program).
	Name string
	// Root is the PT2 archive's root folder: when empty, Write uses the
	// file's base name without extension, as PyTorch does, and Save the
	// model's name.
	Root string
	// TorchVersion is written as the file's torch_version ("2.6.0" for
	// Legacy, "2.14.0" for Archive when empty).
	TorchVersion string
	// ExampleArgs and ExampleKwargs, when set, are written as the file's
	// example inputs (torch.export.save's example_inputs), in the form
	// ExportedProgram.Call takes: tensors, numbers, strings, nil, and
	// []any / map[string]any for the tuples, lists and dicts of the
	// program's in spec. Without them the program's own example inputs
	// are written when it has any, and otherwise none (PyTorch then loads
	// example_inputs as None).
	ExampleArgs   []any
	ExampleKwargs map[string]any
	// ForPyTorch writes a file PyTorch can run: a program calling gofx's
	// own operators (the fused gofx::convolution_relu, addmm_relu, ... of
	// passes.FuseEpilogues, which torch does not have) is decomposed
	// first (ExportedProgram.RunDecompositions with decomp.FusedOps, which
	// also decomposes the program's other operators outside core ATen).
	// Without it they are written as they are, as
	// torch.ops.gofx.NAME.default targets, which Load reads back to the
	// same operators: a gofx program round-trips unchanged.
	ForPyTorch bool
}

// exampleHolder is a program that keeps its example inputs.
type exampleHolder interface {
	ExampleInputs() (args []any, kwargs map[string]any)
}

// versions are the schema and torch versions each format is written
// with: PyTorch 2.6's and 2.14's.
var versions = map[Format]struct {
	schema schema.SchemaVersion
	torch  string
}{
	Legacy:  {schema.SchemaVersion{Major: 8, Minor: 2}, "2.6.0"},
	Archive: {schema.SchemaVersion{Major: 8, Minor: 20}, "2.14.0"},
}

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
	if opts.Root == "" && opts.Format == Archive {
		opts.Root = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return Save(f, ep, opts)
}

// Save writes ep as a .pt2 file in the chosen container: the program as
// schema.py's JSON (the graph with every node's target, named arguments,
// tensor metadata with symbolic sizes, stack traces and module stacks; the
// signature; range constraints; the module call graph with the pytree
// specs), the parameters and buffers, and the lifted constants. The
// output is deterministic: the same program gives the same bytes.
func Save(w io.Writer, ep *export.ExportedProgram, opts SaveOptions) error {
	a, err := ToArchive(ep, opts)
	if err != nil {
		return err
	}
	if err := a.Write(w); err != nil {
		return fmt.Errorf("pt2: save: %w", err)
	}
	return nil
}

// MarshalProgram returns the JSON of ep's program in the form of the
// format: the serialized_exported_program.json of the Legacy zip (schema
// 8.2), or models/NAME.json of the Archive (schema 8.20).
func MarshalProgram(ep *export.ExportedProgram, f Format) ([]byte, error) {
	p, err := SerializeProgram(ep, f)
	if err != nil {
		return nil, err
	}
	b, err := schema.Encode(p)
	if err != nil {
		return nil, fmt.Errorf("pt2: save: %w", err)
	}
	return b, nil
}

// SerializeProgram returns ep's program as schema.py's ExportedProgram, as
// torch's ExportedProgramSerializer makes it, in the schema version of the
// format.
func SerializeProgram(ep *export.ExportedProgram, f Format) (*schema.ExportedProgram, error) {
	if ep == nil || ep.Graph == nil {
		return nil, fmt.Errorf("pt2: save: no program")
	}
	v, ok := versions[f]
	if !ok {
		return nil, fmt.Errorf("pt2: save: unknown format %v", f)
	}
	s := &serializer{ep: ep, env: ep.Env, legacy: f == Legacy, params: map[string]bool{}, subs: ep.Subgraphs(), constInputs: map[string]any{}}
	if s.env == nil {
		s.env = sym.NewEnv()
	}
	for _, in := range ep.Signature.Inputs {
		if in.Kind == export.Parameter {
			s.params[in.Name] = true
		}
		if in.Kind == export.UserInput && in.Value != nil {
			s.constInputs[in.Name] = in.Value
		}
	}
	g, err := s.graph(ep.Graph)
	if err != nil {
		return nil, err
	}
	sig, err := s.signature()
	if err != nil {
		return nil, err
	}
	mcg, err := s.moduleCallGraph()
	if err != nil {
		return nil, err
	}
	p := &schema.ExportedProgram{
		GraphModule: schema.GraphModule{
			Graph:           *g,
			Signature:       *sig,
			ModuleCallGraph: mcg,
			Metadata:        map[string]string{},
		},
		OpsetVersion:     map[string]int64{"aten": 10},
		RangeConstraints: s.rangeConstraints(),
		SchemaVersion:    v.schema,
		Verifiers:        []string{"ATEN"},
		TorchVersion:     v.torch,
	}
	if s.mutates {
		// In-place operators (2.x's default export IR): the functional
		// ATen verifier would refuse the program.
		p.Verifiers = []string{"TRAINING"}
	}
	if !s.legacy {
		p.GraphModule.TreespecNamedtupleFields = map[string]schema.NamedTupleDef{}
		p.GuardsCode = []string{}
	}
	return p, nil
}

func (s *serializer) rangeConstraints() map[string]schema.RangeConstraint {
	rc := map[string]schema.RangeConstraint{}
	bound := func(v int64) *int64 {
		if v == sym.Inf || v == sym.NegInf {
			return nil
		}
		return ptr(v)
	}
	for k, r := range s.ep.RangeConstraints {
		rc[k] = schema.RangeConstraint{MinVal: bound(r.Lo), MaxVal: bound(r.Hi)}
	}
	return rc
}

func (s *serializer) signature() (*schema.GraphSignature, error) {
	sig := &schema.GraphSignature{InputSpecs: []schema.InputSpec{}, OutputSpecs: []schema.OutputSpec{}}
	for _, in := range s.ep.Signature.Inputs {
		arg := schema.TensorArgument{Name: s.fileName(in.Name)}
		var is schema.InputSpec
		switch in.Kind {
		case export.UserInput:
			if v, ok := s.constInputs[in.Name]; ok {
				cv, err := constValue(v)
				if err != nil {
					return nil, fmt.Errorf("pt2: save: input %s: %v", in.Name, err)
				}
				is.ConstantInput = &schema.InputToConstantInputSpec{Name: s.fileName(in.Name), Value: *cv}
				break
			}
			is.UserInput = &schema.UserInputSpec{Arg: schema.Argument{AsTensor: &arg}}
		case export.Parameter:
			is.Parameter = &schema.InputToParameterSpec{Arg: arg, ParameterName: in.Target}
		case export.Buffer:
			is.Buffer = &schema.InputToBufferSpec{Arg: arg, BufferName: in.Target, Persistent: in.Persistent}
		case export.ConstantTensor:
			is.TensorConstant = &schema.InputToTensorConstantSpec{Arg: arg, TensorConstantName: in.Target}
		default:
			return nil, fmt.Errorf("pt2: save: input %s: kind %s has no .pt2 form", in.Name, in.Kind)
		}
		sig.InputSpecs = append(sig.InputSpecs, is)
	}
	results, err := s.outputArgs()
	if err != nil {
		return nil, err
	}
	if len(results) != len(s.ep.Signature.Outputs) {
		return nil, fmt.Errorf("pt2: save: the graph returns %d values for %d outputs of the signature", len(results), len(s.ep.Signature.Outputs))
	}
	for i, o := range s.ep.Signature.Outputs {
		var os schema.OutputSpec
		switch o.Kind {
		case export.UserOutput:
			a, err := s.input(results[i], nil)
			if err != nil {
				return nil, fmt.Errorf("pt2: save: output %s: %v", o.Name, err)
			}
			os.UserOutput = &schema.UserOutputSpec{Arg: *a}
		case export.BufferMutation:
			os.BufferMutation = &schema.BufferMutationSpec{Arg: schema.TensorArgument{Name: s.argName(results[i], o.Name)}, BufferName: o.Target}
		case export.UserInputMutation:
			os.UserInputMutation = &schema.UserInputMutationSpec{Arg: schema.TensorArgument{Name: s.argName(results[i], o.Name)}, UserInputName: s.fileName(o.Target)}
		default:
			return nil, fmt.Errorf("pt2: save: output %s: kind %s has no .pt2 form", o.Name, o.Kind)
		}
		sig.OutputSpecs = append(sig.OutputSpecs, os)
	}
	return sig, nil
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
func (s *serializer) moduleCallGraph() ([]schema.ModuleCallEntry, error) {
	inSpec := s.ep.InSpec()
	outSpec := s.ep.OutSpec()
	if outSpec == nil {
		outSpec = export.TupleSpec()
		for _, o := range s.ep.Signature.Outputs {
			if o.Kind == export.UserOutput {
				outSpec.Children = append(outSpec.Children, export.Leaf())
			}
		}
	}
	user := 0
	var names []string
	for _, in := range s.ep.Signature.Inputs {
		if in.Kind == export.UserInput {
			user++
			names = append(names, s.fileName(in.Name))
		}
	}
	if n := inSpec.NumLeaves(); n != user {
		return nil, fmt.Errorf("pt2: save: the program takes %d inputs but has %d user-input placeholders: an input that export specialized (a Go int or float argument) has no .pt2 form yet", n, user)
	}
	in, err := inSpec.MarshalPyTorch()
	if err != nil {
		return nil, fmt.Errorf("pt2: save: the input spec: %w", err)
	}
	out, err := outSpec.MarshalPyTorch()
	if err != nil {
		return nil, fmt.Errorf("pt2: save: the output spec: %w", err)
	}
	// forward_arg_names names the model's arguments (keyword ones
	// included): the file's names for a loaded program; for one exported
	// from Go, the placeholders' names when every argument is one tensor.
	if an := s.ep.ArgNames(); len(an) > 0 {
		names = an
	} else if args := inSpec.Children; len(args) != 2 || len(args[0].Children) != user || len(args[1].Children) != 0 {
		names = nil
	}
	root := &schema.ModuleCallSignature{
		Inputs:          []schema.Argument{},
		Outputs:         []schema.Argument{},
		InSpec:          in,
		OutSpec:         out,
		ForwardArgNames: names,
	}
	entries := []schema.ModuleCallEntry{{Fqn: "", Signature: root}}
	for _, c := range s.ep.ModuleCallGraph {
		if c.FQN != "" {
			entries = append(entries, schema.ModuleCallEntry{Fqn: c.FQN})
		}
	}
	return entries, nil
}

// callsGofxOps reports whether g or any of subs calls an operator of
// gofx's own namespace.
func callsGofxOps(g *graph.Graph, subs []graph.Subgraph) bool {
	for n := range g.Nodes() {
		if n.Op() == node.CallFunction && strings.HasPrefix(n.Target().String(), "gofx.") {
			return true
		}
	}
	for _, s := range subs {
		if s.Graph != nil && callsGofxOps(s.Graph, s.Subgraphs) {
			return true
		}
	}
	return false
}

// Archive returns ep as a one-model archive in the container of format,
// ready for archive.Write: the program, the parameters and persistent
// buffers as its weights (parameters marked as nn.Parameters), the tensor
// constants and non-persistent buffers as its constants, as
// torch.export.save stores them.
func ToArchive(ep *export.ExportedProgram, opts SaveOptions) (*archive.Archive, error) {
	if ep != nil && ep.Graph != nil && opts.ForPyTorch && callsGofxOps(ep.Graph, ep.Subgraphs()) {
		d, err := ep.RunDecompositions(decomp.FusedOps())
		if err != nil {
			return nil, fmt.Errorf("pt2: save: decomposing gofx's operators for PyTorch: %w", err)
		}
		ep = d
	}
	p, err := SerializeProgram(ep, opts.Format)
	if err != nil {
		return nil, err
	}
	if opts.TorchVersion != "" {
		p.TorchVersion = opts.TorchVersion
	}
	name := opts.Name
	if name == "" {
		name = "model" // torch.export.save's name for the one program
	}
	m := &archive.Model{Name: name, Program: p}
	state, consts := ep.StateDict(), ep.Constants()
	seen := map[string]bool{}
	for _, in := range ep.Signature.Inputs {
		if in.Kind == export.UserInput || seen[in.Target] {
			continue
		}
		seen[in.Target] = true
		switch {
		case in.Kind == export.Parameter, in.Kind == export.Buffer && in.Persistent:
			t, ok := state[in.Target]
			if !ok {
				return nil, fmt.Errorf("pt2: save: input %s: no state entry %s", in.Name, in.Target)
			}
			isParam := in.Kind == export.Parameter
			m.Weights = append(m.Weights, archive.Weight{Name: in.Target, Tensor: t, IsParam: isParam, RequiresGrad: isParam})
		case in.Kind == export.Buffer:
			t, ok := state[in.Target]
			if !ok {
				return nil, fmt.Errorf("pt2: save: input %s: no state entry %s", in.Name, in.Target)
			}
			m.Constants = append(m.Constants, archive.Constant{Name: in.Target, Tensor: t})
		case in.Kind == export.ConstantTensor:
			t, ok := consts[in.Target]
			if !ok {
				return nil, fmt.Errorf("pt2: save: input %s: no constant %s", in.Name, in.Target)
			}
			m.Constants = append(m.Constants, archive.Constant{Name: in.Target, Tensor: t})
		default:
			return nil, fmt.Errorf("pt2: save: input %s: kind %s has no .pt2 form", in.Name, in.Kind)
		}
	}
	args, kwargs := opts.ExampleArgs, opts.ExampleKwargs
	if args == nil && kwargs == nil {
		if h, ok := any(ep).(exampleHolder); ok {
			args, kwargs = h.ExampleInputs()
		}
	}
	if args != nil || kwargs != nil {
		if m.ExampleInputs, err = exampleInputs(ep, args, kwargs); err != nil {
			return nil, err
		}
	}
	a := &archive.Archive{Layout: opts.Format, Models: []*archive.Model{m}}
	if opts.Format == Archive {
		a.Root, a.Version = opts.Root, "0"
		if a.Root == "" {
			a.Root = name
		}
	}
	return a, nil
}
