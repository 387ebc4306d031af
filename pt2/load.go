package pt2

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// Load reads the .pt2 file at path and returns its program, as
// torch.export.load does.
func Load(path string) (*export.ExportedProgram, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pt2: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("pt2: %w", err)
	}
	ep, err := Read(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return ep, nil
}

// Read reads a .pt2 file of size bytes from r.
func Read(r io.ReaderAt, size int64) (*export.ExportedProgram, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("pt2: not a zip file: %w", err)
	}
	find := func(suffix string) *zip.File {
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, suffix) {
				return f
			}
		}
		return nil
	}
	jf := find("serialized_exported_program.json")
	if jf == nil {
		return nil, fmt.Errorf("pt2: no serialized_exported_program.json in the archive")
	}
	data, err := readAll(jf)
	if err != nil {
		return nil, err
	}
	prog, err := schema.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("pt2: serialized_exported_program.json: %w", err)
	}
	state, err := readTensors(find("serialized_state_dict.pt"))
	if err != nil {
		return nil, err
	}
	consts, err := readTensors(find("serialized_constants.pt"))
	if err != nil {
		return nil, err
	}
	return FromSchema(prog, state, consts)
}

func readAll(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("pt2: record %s: %w", f.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	if err != nil {
		return nil, fmt.Errorf("pt2: record %s: %w", f.Name, err)
	}
	return data, nil
}

func readTensors(f *zip.File) (map[string]*tensor.Tensor, error) {
	out := map[string]*tensor.Tensor{}
	if f == nil {
		return out, nil
	}
	data, err := readAll(f)
	if err != nil {
		return nil, err
	}
	sd, err := torchio.Read(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("pt2: record %s: %w", f.Name, err)
	}
	for name, t := range sd.All() {
		out[name] = t
	}
	return out, nil
}
