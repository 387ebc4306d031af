package models

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/gofx/gofx/conformance"
	"github.com/gofx/gofx/nn"
)

// IOCase is one recorded run of a zoo model: its inputs and PyTorch's
// flattened outputs.
type IOCase struct {
	Seed    int64
	Note    string
	Inputs  []nn.Value
	Outputs []nn.Value
}

// IO is a model's io.json: the example and the extra cases, all as cases
// (the example first, with Seed -1 unless recorded).
type IO struct {
	Model       string
	InputNames  []string
	OutputNames []string
	Cases       []IOCase
}

type rawCase struct {
	Seed    *int64            `json:"seed"`
	Note    string            `json:"note"`
	Inputs  []json.RawMessage `json:"inputs"`
	Outputs []json.RawMessage `json:"outputs"`
}

type rawIO struct {
	rawCase
	Extra struct {
		Model       string   `json:"model"`
		InputNames  []string `json:"input_names"`
		OutputNames []string `json:"output_names"`
		ExampleSeed *int64   `json:"example_seed"`
	} `json:"extra"`
	Cases []rawCase `json:"cases"`
}

// ReadIO reads an io.json file in the format of ../shared/models/README.md.
func ReadIO(path string) (*IO, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	io, err := ParseIO(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io, nil
}

// ParseIO parses the contents of an io.json file.
func ParseIO(data []byte) (*IO, error) {
	var raw rawIO
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("io.json: %w", err)
	}
	out := &IO{Model: raw.Extra.Model, InputNames: raw.Extra.InputNames, OutputNames: raw.Extra.OutputNames}
	if raw.Inputs == nil && len(raw.Cases) == 0 {
		return nil, fmt.Errorf("io.json: no inputs and no cases")
	}
	ex := raw.rawCase
	if ex.Seed == nil {
		s := int64(-1)
		if raw.Extra.ExampleSeed != nil {
			s = *raw.Extra.ExampleSeed
		}
		ex.Seed = &s
	}
	if ex.Note == "" {
		ex.Note = "example"
	}
	all := append([]rawCase{ex}, raw.Cases...)
	for i, rc := range all {
		c := IOCase{Note: rc.Note}
		if rc.Seed != nil {
			c.Seed = *rc.Seed
		}
		var err error
		if c.Inputs, err = decodeArgs(rc.Inputs); err != nil {
			return nil, fmt.Errorf("io.json: case %d: inputs: %w", i, err)
		}
		if c.Outputs, err = decodeArgs(rc.Outputs); err != nil {
			return nil, fmt.Errorf("io.json: case %d: outputs: %w", i, err)
		}
		out.Cases = append(out.Cases, c)
	}
	return out, nil
}

func decodeArgs(raw []json.RawMessage) ([]nn.Value, error) {
	out := make([]nn.Value, len(raw))
	for i, r := range raw {
		a, err := conformance.DecodeArg(r)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		v, err := toValue(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

func toValue(a any) (v nn.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return nn.Of(a), nil
}
