package pt2

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// IOCase is one recorded run of a program (an io.json case of
// ../shared/pt2/README.md): the flat user inputs (the leaves of the in
// spec), PyTorch's flat outputs, and for programs that mutate state the
// buffers after the call and the user inputs the call mutated (by input
// index), each starting from freshly loaded state.
type IOCase struct {
	Seed         int64
	Note         string
	Inputs       []nn.Value
	Outputs      []nn.Value
	BuffersAfter map[string]*tensor.Tensor
	InputsAfter  map[int]*tensor.Tensor
	// ProgramError is what PyTorch raised running its own loaded program
	// ("" if it ran).
	ProgramError string
}

// IO is a program's io.json: the example and the other cases, the example
// first.
type IO struct {
	Model      string
	InputNames []string
	// InSpec and OutSpec are PyTorch's reprs of the pytree specs.
	InSpec, OutSpec string
	Cases           []IOCase
}

type rawIOCase struct {
	Seed         *int64                     `json:"seed"`
	Note         string                     `json:"note"`
	Inputs       []json.RawMessage          `json:"inputs"`
	Outputs      []json.RawMessage          `json:"outputs"`
	BuffersAfter map[string]json.RawMessage `json:"buffers_after"`
	InputsAfter  map[string]json.RawMessage `json:"inputs_after"`
	ProgramError string                     `json:"program_error"`
}

type rawIOFile struct {
	Inputs  []json.RawMessage `json:"inputs"`
	Outputs []json.RawMessage `json:"outputs"`
	Example rawIOCase         `json:"example"`
	Extra   struct {
		Model      string   `json:"model"`
		InputNames []string `json:"input_names"`
		InSpec     string   `json:"in_spec"`
		OutSpec    string   `json:"out_spec"`
	} `json:"extra"`
	Cases []rawIOCase `json:"cases"`
}

// ReadIO reads an io.json file of ../shared/pt2.
func ReadIO(path string) (*IO, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("pt2: %w", err)
	}
	io, err := ParseIO(data)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return io, nil
}

// ParseIO parses an io.json file's contents.
func ParseIO(data []byte) (*IO, error) {
	var raw rawIOFile
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("pt2: io.json: %w", err)
	}
	out := &IO{Model: raw.Extra.Model, InputNames: raw.Extra.InputNames, InSpec: raw.Extra.InSpec, OutSpec: raw.Extra.OutSpec}
	ex := raw.Example
	ex.Inputs, ex.Outputs = raw.Inputs, raw.Outputs
	if ex.Note == "" {
		ex.Note = "example"
	}
	for i, rc := range append([]rawIOCase{ex}, raw.Cases...) {
		c, err := decodeCase(&rc)
		if err != nil {
			return nil, fmt.Errorf("pt2: io.json: case %d: %w", i, err)
		}
		out.Cases = append(out.Cases, c)
	}
	return out, nil
}

func decodeCase(rc *rawIOCase) (IOCase, error) {
	c := IOCase{Note: rc.Note, ProgramError: rc.ProgramError}
	if rc.Seed != nil {
		c.Seed = *rc.Seed
	}
	var err error
	if c.Inputs, err = decodeValues(rc.Inputs); err != nil {
		return c, fmt.Errorf("inputs: %w", err)
	}
	if c.Outputs, err = decodeValues(rc.Outputs); err != nil {
		return c, fmt.Errorf("outputs: %w", err)
	}
	if len(rc.BuffersAfter) > 0 {
		c.BuffersAfter = map[string]*tensor.Tensor{}
		for k, r := range rc.BuffersAfter {
			v, err := decodeValue(r)
			if err != nil || v.Tensor() == nil {
				return c, fmt.Errorf("buffers_after[%q]: not a tensor (%v)", k, err)
			}
			c.BuffersAfter[k] = v.Tensor()
		}
	}
	if len(rc.InputsAfter) > 0 {
		c.InputsAfter = map[int]*tensor.Tensor{}
		for k, r := range rc.InputsAfter {
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(c.Inputs) {
				return c, fmt.Errorf("inputs_after: key %q is no input index", k)
			}
			v, err := decodeValue(r)
			if err != nil || v.Tensor() == nil {
				return c, fmt.Errorf("inputs_after[%q]: not a tensor (%v)", k, err)
			}
			c.InputsAfter[i] = v.Tensor()
		}
	}
	return c, nil
}

func decodeValues(raw []json.RawMessage) ([]nn.Value, error) {
	out := make([]nn.Value, len(raw))
	for i, r := range raw {
		v, err := decodeValue(r)
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// decodeValue decodes one value of models' ARG encoding, plus {"str": s}.
func decodeValue(r json.RawMessage) (v nn.Value, err error) {
	var s struct {
		Str *string `json:"str"`
	}
	if json.Unmarshal(r, &s) == nil && s.Str != nil && bytes.Count(r, []byte(":")) == 1 {
		return nn.Of(*s.Str), nil
	}
	a, err := conformance.DecodeArg(r)
	if err != nil {
		return nn.None, err
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return nn.Of(a), nil
}

// Tolerance is the tolerance (absolute and relative) the io.json checks
// use for a program: 1e-4, or 1e-3 for programs of over 100 nodes.
func Tolerance(ep *export.ExportedProgram) float64 {
	if ep.Graph != nil && len(ep.Graph.NodeList()) > 100 {
		return 1e-3
	}
	return 1e-4
}

// CaseResult is the outcome of one io.json case.
type CaseResult struct {
	// MaxAbs and MaxRel are the largest absolute and relative differences
	// between gofx's values and PyTorch's (outputs, buffers after, inputs
	// after).
	MaxAbs, MaxRel float64
	// Err is why the case failed: the run's error, or the first value out
	// of tolerance; nil when it passed.
	Err error
}

// Passed reports whether the case passed.
func (r CaseResult) Passed() bool { return r.Err == nil }

// CheckCase runs one case on a fresh copy of ep's state (ep.Clone: every
// case starts from the loaded state, as PyTorch's did) and compares the
// outputs, the buffers after the call and the mutated inputs with
// PyTorch's, element by element: |got - want| <= tol + tol*|want|. The
// case's inputs are not changed.
func CheckCase(ep *export.ExportedProgram, c *IOCase, tol float64) CaseResult {
	var res CaseResult
	prog := ep.Clone()
	in := make([]any, len(c.Inputs))
	for i, v := range c.Inputs {
		if t := v.Tensor(); t != nil {
			in[i] = t.Clone()
		} else {
			in[i] = v
		}
	}
	outs, err := prog.RunFlat(in...)
	if err != nil {
		res.Err = err
		return res
	}
	if len(outs) != len(c.Outputs) {
		res.Err = fmt.Errorf("the program returned %d values, PyTorch %d", len(outs), len(c.Outputs))
		return res
	}
	for i := range outs {
		if err := res.compare(fmt.Sprintf("output %d", i), outs[i], c.Outputs[i], tol); err != nil && res.Err == nil {
			res.Err = err
		}
	}
	state := prog.StateDict()
	names := make([]string, 0, len(c.BuffersAfter))
	for k := range c.BuffersAfter {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		got, ok := state[k]
		var err error
		if !ok {
			err = fmt.Errorf("buffer %s: the program has no such buffer", k)
		} else {
			err = res.compare("buffer "+k+" after the call", nn.Tensor(got), nn.Tensor(c.BuffersAfter[k]), tol)
		}
		if err != nil && res.Err == nil {
			res.Err = err
		}
	}
	idx := make([]int, 0, len(c.InputsAfter))
	for k := range c.InputsAfter {
		idx = append(idx, k)
	}
	sort.Ints(idx)
	for _, i := range idx {
		if err := res.compare(fmt.Sprintf("input %d after the call", i), nn.Of(in[i]), nn.Tensor(c.InputsAfter[i]), tol); err != nil && res.Err == nil {
			res.Err = err
		}
	}
	return res
}

// compare compares one value, updating the maxima.
func (r *CaseResult) compare(what string, got, want nn.Value, tol float64) error {
	wt := want.Tensor()
	if wt == nil {
		if fmt.Sprint(got.Any()) != fmt.Sprint(want.Any()) {
			return fmt.Errorf("%s: got %v, PyTorch %v", what, got, want)
		}
		return nil
	}
	gt := got.Tensor()
	if gt == nil {
		return fmt.Errorf("%s: got %s, PyTorch a tensor %s%v", what, got.Kind(), wt.DType(), wt.Shape())
	}
	if gt.DType() != wt.DType() {
		return fmt.Errorf("%s: dtype %s, PyTorch %s", what, gt.DType(), wt.DType())
	}
	if fmt.Sprint(gt.Shape()) != fmt.Sprint(wt.Shape()) {
		return fmt.Errorf("%s: shape %v, PyTorch %v", what, gt.Shape(), wt.Shape())
	}
	g, w := gt.Contiguous().Float64s(), wt.Contiguous().Float64s()
	var first error
	for i := range g {
		a, b := g[i], w[i]
		if math.IsNaN(a) && math.IsNaN(b) || a == b {
			continue
		}
		d := math.Abs(a - b)
		if math.IsNaN(d) {
			d = math.Inf(1)
		}
		r.MaxAbs = max(r.MaxAbs, d)
		if b != 0 {
			r.MaxRel = max(r.MaxRel, d/math.Abs(b))
		}
		if d > tol+tol*math.Abs(b) && first == nil {
			first = fmt.Errorf("%s: element %d is %g, PyTorch %g (|diff| %.3g > %g + %g*|PyTorch|)", what, i, a, b, d, tol, tol)
		}
	}
	return first
}
