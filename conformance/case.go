package conformance

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/gofx/gofx/tensor"
)

// Case is one conformance case: an operator, its arguments, and the outputs
// PyTorch returned.
type Case struct {
	ID     string // "aten.add.Tensor/0"
	Op     string // "aten::add.Tensor"
	Schema string
	Args   []any
	Kwargs map[string]any
	// Outputs are the expected results: *tensor.Tensor, []*tensor.Tensor,
	// int64, float64 or bool.
	Outputs    []any
	RTol, ATol float64
	Note       string
}

type rawCase struct {
	ID      string                     `json:"id"`
	Op      string                     `json:"op"`
	Schema  string                     `json:"schema"`
	Args    []json.RawMessage          `json:"args"`
	Kwargs  map[string]json.RawMessage `json:"kwargs"`
	Outputs []json.RawMessage          `json:"outputs"`
	RTol    json.Number                `json:"rtol"`
	ATol    json.Number                `json:"atol"`
	Note    string                     `json:"note"`
}

// MaxLineBytes bounds one JSON line (64 MiB).
const MaxLineBytes = 64 << 20

// ParseCase decodes one JSON line.
func ParseCase(line []byte) (*Case, error) {
	var rc rawCase
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&rc); err != nil {
		return nil, fmt.Errorf("conformance: bad case: %w", err)
	}
	if rc.ID == "" || rc.Op == "" {
		return nil, fmt.Errorf("conformance: case without id or op")
	}
	c := &Case{ID: rc.ID, Op: rc.Op, Schema: rc.Schema, Note: rc.Note, Kwargs: map[string]any{}}
	var err error
	if c.RTol, err = number(rc.RTol); err != nil {
		return nil, fmt.Errorf("conformance: %s: rtol: %w", rc.ID, err)
	}
	if c.ATol, err = number(rc.ATol); err != nil {
		return nil, fmt.Errorf("conformance: %s: atol: %w", rc.ID, err)
	}
	for i, a := range rc.Args {
		v, err := DecodeArg(a)
		if err != nil {
			return nil, fmt.Errorf("conformance: %s: args[%d]: %w", rc.ID, i, err)
		}
		c.Args = append(c.Args, v)
	}
	for k, a := range rc.Kwargs {
		v, err := DecodeArg(a)
		if err != nil {
			return nil, fmt.Errorf("conformance: %s: kwargs[%s]: %w", rc.ID, k, err)
		}
		c.Kwargs[k] = v
	}
	for i, a := range rc.Outputs {
		v, err := DecodeArg(a)
		if err != nil {
			return nil, fmt.Errorf("conformance: %s: outputs[%d]: %w", rc.ID, i, err)
		}
		c.Outputs = append(c.Outputs, v)
	}
	return c, nil
}

func number(n json.Number) (float64, error) {
	if n == "" {
		return 0, nil
	}
	return strconv.ParseFloat(string(n), 64)
}

// ReadFile reads every case of one JSON Lines file.
func ReadFile(path string) ([]*Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*Case
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		c, err := ParseCase(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// ReadDir reads every *.jsonl file of dir, in name order.
func ReadDir(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("conformance: no *.jsonl files in %s", dir)
	}
	sort.Strings(files)
	var out []*Case
	for _, f := range files {
		cs, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

type rawTensor struct {
	DType string        `json:"dtype"`
	Shape []json.Number `json:"shape"`
	Data  string        `json:"data"`
}

// DecodeArg decodes one ARG object of the format.
func DecodeArg(raw json.RawMessage) (any, error) {
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if len(m) != 1 {
		return nil, fmt.Errorf("an argument must be an object with exactly one key, got %d keys", len(m))
	}
	for k, v := range m {
		return decodeKind(k, v)
	}
	return nil, nil
}

func unmarshal(v json.RawMessage, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	return dec.Decode(dst)
}

func decodeKind(kind string, v json.RawMessage) (any, error) {
	switch kind {
	case "tensor":
		var rt rawTensor
		if err := unmarshal(v, &rt); err != nil {
			return nil, err
		}
		return decodeTensor(rt)
	case "int":
		var n json.Number
		if err := unmarshal(v, &n); err != nil {
			return nil, err
		}
		return strconv.ParseInt(string(n), 10, 64)
	case "float":
		return decodeFloat(v)
	case "bool":
		var b bool
		err := unmarshal(v, &b)
		return b, err
	case "none":
		return nil, nil
	case "string":
		var s string
		err := unmarshal(v, &s)
		return s, err
	case "ints":
		var ns []json.Number
		if err := unmarshal(v, &ns); err != nil {
			return nil, err
		}
		out := make([]int64, len(ns))
		for i, n := range ns {
			x, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case "floats":
		var fs []json.RawMessage
		if err := unmarshal(v, &fs); err != nil {
			return nil, err
		}
		out := make([]float64, len(fs))
		for i, f := range fs {
			x, err := decodeFloat(f)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case "bools":
		var bs []bool
		err := unmarshal(v, &bs)
		return bs, err
	case "tensors":
		var rts []rawTensor
		if err := unmarshal(v, &rts); err != nil {
			return nil, err
		}
		out := make([]*tensor.Tensor, len(rts))
		for i, rt := range rts {
			t, err := decodeTensor(rt)
			if err != nil {
				return nil, fmt.Errorf("tensors[%d]: %w", i, err)
			}
			out[i] = t
		}
		return out, nil
	case "optional_tensors":
		var raws []json.RawMessage
		if err := unmarshal(v, &raws); err != nil {
			return nil, err
		}
		out := make([]*tensor.Tensor, len(raws))
		for i, r := range raws {
			x, err := DecodeArg(r)
			if err != nil {
				return nil, fmt.Errorf("optional_tensors[%d]: %w", i, err)
			}
			switch t := x.(type) {
			case nil:
			case *tensor.Tensor:
				out[i] = t
			default:
				return nil, fmt.Errorf("optional_tensors[%d]: not a tensor or none", i)
			}
		}
		return out, nil
	case "scalar_type":
		var s string
		if err := unmarshal(v, &s); err != nil {
			return nil, err
		}
		return tensor.ParseDType(s)
	case "device", "layout", "memory_format":
		var s string
		err := unmarshal(v, &s)
		return s, err
	}
	return nil, fmt.Errorf("unknown argument kind %q", kind)
}

func decodeFloat(v json.RawMessage) (float64, error) {
	var x any
	if err := unmarshal(v, &x); err != nil {
		return 0, err
	}
	switch f := x.(type) {
	case json.Number:
		return strconv.ParseFloat(string(f), 64)
	case string:
		switch f {
		case "inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		case "nan":
			return math.NaN(), nil
		}
	}
	return 0, fmt.Errorf("bad float %s", v)
}

func decodeTensor(rt rawTensor) (*tensor.Tensor, error) {
	dt, err := tensor.ParseDType(rt.DType)
	if err != nil {
		return nil, err
	}
	shape := make([]int, len(rt.Shape))
	for i, n := range rt.Shape {
		d, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || d < 0 || d > tensor.MaxElements {
			return nil, fmt.Errorf("bad dimension %s", n)
		}
		shape[i] = int(d)
	}
	n, err := tensor.Numel(shape)
	if err != nil {
		return nil, err
	}
	data, err := base64.StdEncoding.DecodeString(rt.Data)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	if len(data) != n*dt.Size() {
		return nil, fmt.Errorf("data has %d bytes, shape %v of %s needs %d", len(data), shape, dt, n*dt.Size())
	}
	t, err := tensor.New(dt, shape...)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	switch dt {
	case tensor.Float32:
		d := tensor.Data[float32](t)
		for i := range d {
			d[i] = math.Float32frombits(le.Uint32(data[4*i:]))
		}
	case tensor.Float64:
		d := tensor.Data[float64](t)
		for i := range d {
			d[i] = math.Float64frombits(le.Uint64(data[8*i:]))
		}
	case tensor.Float16:
		d := tensor.Data[tensor.Half](t)
		for i := range d {
			d[i] = tensor.Half(le.Uint16(data[2*i:]))
		}
	case tensor.BFloat16:
		d := tensor.Data[tensor.BHalf](t)
		for i := range d {
			d[i] = tensor.BHalf(le.Uint16(data[2*i:]))
		}
	case tensor.Int64:
		d := tensor.Data[int64](t)
		for i := range d {
			d[i] = int64(le.Uint64(data[8*i:]))
		}
	case tensor.Int32:
		d := tensor.Data[int32](t)
		for i := range d {
			d[i] = int32(le.Uint32(data[4*i:]))
		}
	case tensor.Int16:
		d := tensor.Data[int16](t)
		for i := range d {
			d[i] = int16(le.Uint16(data[2*i:]))
		}
	case tensor.Int8:
		d := tensor.Data[int8](t)
		for i := range d {
			d[i] = int8(data[i])
		}
	case tensor.Uint8:
		copy(tensor.Data[uint8](t), data)
	case tensor.Bool:
		d := tensor.Data[bool](t)
		for i := range d {
			if data[i] > 1 {
				return nil, fmt.Errorf("bool element %d is %d, not 0 or 1", i, data[i])
			}
			d[i] = data[i] == 1
		}
	}
	return t, nil
}
